/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "text-util.h"

#include "input-error.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

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
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw InputError(path, 0, "", "cannot open file for reading");
    }
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

std::vector<std::pair<std::size_t, std::string>>
TextUtil::ReadNumberedLines(const std::string& path)
{
    std::istringstream in(ReadFile(path));
    std::vector<std::pair<std::size_t, std::string>> lines;
    std::string text;
    std::size_t number = 0;
    while (std::getline(in, text))
    {
        ++number;
        if (!text.empty() && text.back() == '\r')
        {
            text.pop_back();
        }
        lines.emplace_back(number, text);
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

} // namespace ns3
