/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TEXT_UTIL_H
#define INTELLIGENT_NETWORK_TEXT_UTIL_H

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Small text helpers shared by the loaders (no state).
 */
class TextUtil
{
  public:
    /// Strip leading and trailing white space (and a trailing CR).
    static std::string Trim(const std::string& s);
    /// Parse a whole string as a finite double (no trailing garbage).
    static bool ParseDouble(const std::string& s, double& out);
    /// Parse a whole string as a non-negative integer.
    static bool ParseUnsigned(const std::string& s, unsigned long long& out);
    /// Read a text file into (1-based line number, text) pairs; throws InputError if unreadable
    /// or not UTF-8 text (see CheckEncoding; a UTF-8 byte-order mark is dropped).
    static std::vector<std::pair<std::size_t, std::string>> ReadNumberedLines(
        const std::string& path);
    /// Read a whole file; throws InputError if it is unreadable, not a regular file (a
    /// directory, a pipe, a device) or larger than MaxFileBytes().
    static std::string ReadFile(const std::string& path);
    /// Largest input file the loaders read (they read whole files into memory): 256 MiB.
    static constexpr std::size_t MaxFileBytes()
    {
        return std::size_t(256) << 20;
    }
    /// Check that \p text (the contents of \p file) is UTF-8 text: no UTF-16/UTF-32 byte-order
    /// mark, no NUL byte, no ill-formed UTF-8 sequence (throws InputError naming the line).
    /// Returns the length of a leading UTF-8 byte-order mark (3) to skip, or 0.
    static std::size_t CheckEncoding(const std::string& file, const std::string& text);
    /// 1-based line of byte \p offset in \p text.
    static std::size_t LineOfOffset(const std::string& text, std::size_t offset);
    /// Upper-case ASCII copy.
    static std::string Upper(std::string s);
    /// Every item of \p text between the separators \p sep, empty ones included ("a,,b," has
    /// four items; "" has one, empty).
    static std::vector<std::string> Split(const std::string& text, char sep);
};

} // namespace ns3

#endif
