/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "text-util.h"

#include "input-error.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace ns3
{

std::string
TextUtil::Trim(const std::string& s)
{
    std::size_t b = 0;
    std::size_t e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
    {
        ++b;
    }
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
    {
        --e;
    }
    return s.substr(b, e - b);
}

bool
TextUtil::ParseDouble(const std::string& s, double& out)
{
    std::string t = Trim(s);
    if (t.empty())
    {
        return false;
    }
    errno = 0;
    char* end = nullptr;
    double v = std::strtod(t.c_str(), &end);
    if (errno != 0 || end != t.c_str() + t.size() || !std::isfinite(v))
    {
        return false;
    }
    out = v;
    return true;
}

bool
TextUtil::ParseUnsigned(const std::string& s, unsigned long long& out)
{
    std::string t = Trim(s);
    if (t.empty() || !std::isdigit(static_cast<unsigned char>(t[0])))
    {
        return false;
    }
    errno = 0;
    char* end = nullptr;
    unsigned long long v = std::strtoull(t.c_str(), &end, 10);
    if (errno != 0 || end != t.c_str() + t.size())
    {
        return false;
    }
    out = v;
    return true;
}

std::string
TextUtil::ReadFile(const std::string& path)
{
    struct stat st;
    if (stat(path.c_str(), &st) != 0)
    {
        throw InputError(path, 0, "", std::string("cannot open file for reading: ") +
                                          std::strerror(errno));
    }
    if (S_ISDIR(st.st_mode))
    {
        throw InputError(path, 0, "", "is a directory, not a file");
    }
    if (!S_ISREG(st.st_mode))
    {
        throw InputError(path, 0, "", "not a regular file (a pipe or a device?)");
    }
    if (static_cast<unsigned long long>(st.st_size) > MaxFileBytes())
    {
        throw InputError(path, 0, "", "file of " + std::to_string(st.st_size) +
                                          " bytes is larger than the limit of " +
                                          std::to_string(MaxFileBytes()) + " bytes");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw InputError(path, 0, "", "cannot open file for reading");
    }
    std::string text(static_cast<std::size_t>(st.st_size), '\0');
    in.read(&text[0], static_cast<std::streamsize>(text.size()));
    if (static_cast<std::size_t>(in.gcount()) != text.size())
    {
        throw InputError(path, 0, "", "read failed");
    }
    return text;
}

std::size_t
TextUtil::CheckEncoding(const std::string& file, const std::string& text)
{
    auto startsWith = [&](const char* bom, std::size_t n) {
        return text.size() >= n && text.compare(0, n, bom, n) == 0;
    };
    // UTF-32 first: its little-endian mark begins with UTF-16's.
    if (startsWith("\xFF\xFE\x00\x00", 4) || startsWith("\x00\x00\xFE\xFF", 4))
    {
        throw InputError(file, 1, "", "the file is UTF-32 text (byte-order mark); save it as UTF-8");
    }
    if (startsWith("\xFF\xFE", 2) || startsWith("\xFE\xFF", 2))
    {
        throw InputError(file, 1, "", "the file is UTF-16 text (byte-order mark); save it as UTF-8");
    }
    std::size_t skip = startsWith("\xEF\xBB\xBF", 3) ? 3 : 0;
    std::size_t line = 1;
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = skip; i < n;)
    {
        unsigned char c = s[i];
        if (c < 0x80)
        {
            if (c == 0)
            {
                throw InputError(file, line, "", "NUL byte in the text (a binary or UTF-16 file?)");
            }
            line += c == '\n';
            ++i;
            continue;
        }
        // Length and the valid range of the second byte (RFC 3629: no overlong forms, no
        // surrogates, nothing above U+10FFFF).
        std::size_t len = 0;
        unsigned char lo = 0x80;
        unsigned char hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF)
        {
            len = 2;
        }
        else if (c >= 0xE0 && c <= 0xEF)
        {
            len = 3;
            lo = c == 0xE0 ? 0xA0 : 0x80;
            hi = c == 0xED ? 0x9F : 0xBF;
        }
        else if (c >= 0xF0 && c <= 0xF4)
        {
            len = 4;
            lo = c == 0xF0 ? 0x90 : 0x80;
            hi = c == 0xF4 ? 0x8F : 0xBF;
        }
        bool ok = len > 0 && i + len <= n && s[i + 1] >= lo && s[i + 1] <= hi;
        for (std::size_t k = 2; ok && k < len; ++k)
        {
            ok = s[i + k] >= 0x80 && s[i + k] <= 0xBF;
        }
        if (!ok)
        {
            char byte[8];
            std::snprintf(byte, sizeof byte, "0x%02X", c);
            throw InputError(file, line, "",
                             std::string("not UTF-8 text: ill-formed byte sequence at byte ") +
                                 byte + " (offset " + std::to_string(i) + ")");
        }
        i += len;
    }
    return skip;
}

std::vector<std::pair<std::size_t, std::string>>
TextUtil::ReadNumberedLines(const std::string& path)
{
    std::string text = ReadFile(path);
    std::size_t skip = CheckEncoding(path, text);
    std::istringstream in(text.substr(skip));
    std::vector<std::pair<std::size_t, std::string>> lines;
    std::string line;
    std::size_t number = 0;
    while (std::getline(in, line))
    {
        ++number;
        if (!line.empty() && line.back() == '\r')
        {
            line.pop_back();
        }
        lines.emplace_back(number, line);
    }
    return lines;
}

std::size_t
TextUtil::LineOfOffset(const std::string& text, std::size_t offset)
{
    std::size_t line = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i)
    {
        if (text[i] == '\n')
        {
            ++line;
        }
    }
    return line;
}

std::string
TextUtil::Upper(std::string s)
{
    for (auto& c : s)
    {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return s;
}

std::vector<std::string>
TextUtil::Split(const std::string& text, char sep)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    for (std::size_t next = text.find(sep); next != std::string::npos;
         pos = next + 1, next = text.find(sep, pos))
    {
        out.push_back(text.substr(pos, next - pos));
    }
    out.push_back(text.substr(pos));
    return out;
}

} // namespace ns3
