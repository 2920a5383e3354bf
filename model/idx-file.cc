/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "idx-file.h"

#include "input-error.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>

namespace ns3
{

namespace
{

/// The bytes of \p path, decompressed through gzip when it ends in ".gz".
std::vector<uint8_t>
Slurp(const std::string& path)
{
    const bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
    if (!gz)
    {
        std::ifstream in(path, std::ios::binary);
        if (!in)
        {
            throw InputError(path, 0, "file", "cannot open");
        }
        return std::vector<uint8_t>(std::istreambuf_iterator<char>(in),
                                    std::istreambuf_iterator<char>());
    }
    if (!std::ifstream(path))
    {
        throw InputError(path, 0, "file", "cannot open");
    }
    std::string quoted = "'";
    for (char c : path)
    {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    quoted += "'";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(
        popen(("gzip -dc " + quoted + " 2>/dev/null").c_str(), "r"), pclose);
    if (!pipe)
    {
        throw InputError(path, 0, "file", "cannot run gzip -dc");
    }
    std::vector<uint8_t> bytes;
    uint8_t buffer[65536];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof(buffer), pipe.get())) > 0)
    {
        bytes.insert(bytes.end(), buffer, buffer + n);
    }
    if (pclose(pipe.release()) != 0)
    {
        throw InputError(path, 0, "file", "gzip -dc failed (not a gzip file?)");
    }
    return bytes;
}

} // namespace

IdxFile
IdxFile::Read(const std::string& path)
{
    std::vector<uint8_t> bytes = Slurp(path);
    if (bytes.size() < 4 || bytes[0] != 0 || bytes[1] != 0)
    {
        throw InputError(path, 0, "magic", "not an IDX file (first bytes must be 0 0)");
    }
    if (bytes[2] != 0x08)
    {
        throw InputError(path, 0, "magic",
                         "element type " + std::to_string(bytes[2]) + " is not unsigned byte (8)");
    }
    const std::size_t dims = bytes[3];
    if (dims == 0)
    {
        throw InputError(path, 0, "magic", "no dimension");
    }
    if (bytes.size() < 4 + 4 * dims)
    {
        throw InputError(path, 0, "dimensions", "file ends inside the sizes");
    }
    IdxFile out;
    std::size_t total = 1;
    for (std::size_t d = 0; d < dims; ++d)
    {
        const uint8_t* p = bytes.data() + 4 + 4 * d;
        uint32_t size = (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) |
                        uint32_t{p[3]};
        if (size == 0)
        {
            throw InputError(path, 0, "dimensions", "size " + std::to_string(d) + " is zero");
        }
        if (size > bytes.size() / total)
        {
            throw InputError(path, 0, "data", "the sizes say more bytes than the file has");
        }
        out.m_sizes.push_back(size);
        total *= size;
    }
    const std::size_t header = 4 + 4 * dims;
    if (bytes.size() - header != total)
    {
        throw InputError(path, 0, "data",
                         std::to_string(bytes.size() - header) + " bytes of data, the sizes say " +
                             std::to_string(total));
    }
    out.m_values.assign(bytes.begin() + static_cast<std::ptrdiff_t>(header), bytes.end());
    return out;
}

void
IdxFile::Write(const std::string& path, const std::vector<uint32_t>& sizes,
               const std::vector<uint8_t>& values)
{
    std::size_t total = sizes.empty() ? 0 : 1;
    for (uint32_t s : sizes)
    {
        total *= s;
    }
    if (sizes.empty() || sizes.size() > 255 || total != values.size())
    {
        throw InputError(path, 0, "dimensions", "sizes do not match the values");
    }
    std::ofstream out(path, std::ios::binary);
    std::vector<uint8_t> header{0, 0, 0x08, static_cast<uint8_t>(sizes.size())};
    for (uint32_t s : sizes)
    {
        header.push_back(static_cast<uint8_t>(s >> 24));
        header.push_back(static_cast<uint8_t>(s >> 16));
        header.push_back(static_cast<uint8_t>(s >> 8));
        header.push_back(static_cast<uint8_t>(s));
    }
    out.write(reinterpret_cast<const char*>(header.data()),
              static_cast<std::streamsize>(header.size()));
    out.write(reinterpret_cast<const char*>(values.data()),
              static_cast<std::streamsize>(values.size()));
    if (!out)
    {
        throw InputError(path, 0, "file", "cannot write");
    }
}

const std::vector<uint32_t>&
IdxFile::Sizes() const
{
    return m_sizes;
}

const std::vector<uint8_t>&
IdxFile::Values() const
{
    return m_values;
}

std::size_t
IdxFile::Items() const
{
    return m_sizes.front();
}

std::size_t
IdxFile::ItemSize() const
{
    std::size_t size = 1;
    for (std::size_t d = 1; d < m_sizes.size(); ++d)
    {
        size *= m_sizes[d];
    }
    return size;
}

} // namespace ns3
