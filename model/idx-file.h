/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_IDX_FILE_H
#define INTELLIGENT_NETWORK_IDX_FILE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Reader of IDX files of unsigned bytes (the MNIST / Fashion-MNIST format), plain or
 * gzip-compressed. Pure C++.
 *
 * Format: bytes 0, 0, type 0x08 (unsigned byte), number of dimensions n; n big-endian uint32
 * sizes; then the product of the sizes in bytes, row-major. A path ending in ".gz" is read
 * through `gzip -dc` (Debian's gzip; no library dependency). Every violation throws InputError
 * naming the file and the field: `magic` (first two bytes not zero, or a type other than
 * unsigned byte, or no dimension), `dimensions` (a size of zero or truncated sizes), `data`
 * (fewer bytes than the sizes say, or more), or `file` (cannot be opened).
 */
class IdxFile
{
  public:
    /// Read \p path.
    static IdxFile Read(const std::string& path);
    /// Write \p sizes and \p values as an uncompressed IDX file (tests, small fixtures);
    /// throws InputError if it cannot be written or the sizes do not match the values.
    static void Write(const std::string& path, const std::vector<uint32_t>& sizes,
                      const std::vector<uint8_t>& values);

    const std::vector<uint32_t>& Sizes() const;
    const std::vector<uint8_t>& Values() const;
    /// Sizes()[0]: items (images or labels).
    std::size_t Items() const;
    /// Product of the other sizes: bytes per item (1 for labels).
    std::size_t ItemSize() const;

  private:
    std::vector<uint32_t> m_sizes;
    std::vector<uint8_t> m_values;
};

} // namespace ns3

#endif
