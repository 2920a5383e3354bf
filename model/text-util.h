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
    /// Read a text file into (1-based line number, text) pairs; throws InputError if unreadable.
    static std::vector<std::pair<std::size_t, std::string>> ReadNumberedLines(
        const std::string& path);
    /// Read a whole file; throws InputError if unreadable.
    static std::string ReadFile(const std::string& path);
    /// 1-based line of byte \p offset in \p text.
    static std::size_t LineOfOffset(const std::string& text, std::size_t offset);
    /// Upper-case ASCII copy.
    static std::string Upper(std::string s);
};

} // namespace ns3

#endif
