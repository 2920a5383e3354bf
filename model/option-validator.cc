/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "option-validator.h"
#include "text-util.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

const std::regex&
NumberPattern()
{
    static const std::regex re(R"(^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?)");
    return re;
}

std::string
Trim(const std::string& s)
{
    auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
    {
        return "";
    }
    auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

/// Splits "50ms" into the number text "50" and the unit "ms".
std::pair<std::string, std::string>
SplitUnit(const std::string& what, const std::string& text)
{
    std::string t = Trim(text);
    std::smatch m;
    if (!std::regex_search(t, m, NumberPattern()) || m.position(0) != 0)
    {
        throw std::invalid_argument(what + "=" + text + ": not a number");
    }
    return {m.str(0), Trim(t.substr(m.length(0)))};
}

std::string
Shortest(double v)
{
    char buf[64];
    for (int precision = 6; precision <= 17; ++precision)
    {
        std::snprintf(buf, sizeof(buf), "%.*g", precision, v);
        if (std::strtod(buf, nullptr) == v)
        {
            break;
        }
    }
    return buf;
}

} // namespace

OptionValidator::OptionValidator(Kind kind)
    : m_kind(kind)
{
}

OptionValidator
OptionValidator::Rate(bool zeroMeansKeep)
{
    OptionValidator v(Kind::RATE);
    v.m_min = 1;
    v.m_max = kMaxRateBps;
    v.m_maxExcluded = true;
    v.m_zeroAllowed = zeroMeansKeep;
    return v;
}

OptionValidator
OptionValidator::Seconds(double min, double max)
{
    if (!(min >= 0) || !(max >= min) || max > kMaxSeconds)
    {
        throw std::logic_error("OptionValidator::Seconds: range must lie within 0 .. 1e6 s");
    }
    OptionValidator v(Kind::SECONDS);
    v.m_min = min;
    v.m_max = max;
    return v;
}

OptionValidator
OptionValidator::Integer(uint64_t min, uint64_t max)
{
    if (max < min)
    {
        throw std::logic_error("OptionValidator::Integer: empty range");
    }
    OptionValidator v(Kind::INTEGER);
    v.m_intMin = min;
    v.m_intMax = max;
    return v;
}

OptionValidator
OptionValidator::Real(double min, double max, bool maxExcluded)
{
    if (!std::isfinite(min) || !std::isfinite(max) || max < min)
    {
        throw std::logic_error("OptionValidator::Real: the range must be finite and not empty");
    }
    OptionValidator v(Kind::REAL);
    v.m_min = min;
    v.m_max = max;
    v.m_maxExcluded = maxExcluded;
    return v;
}

OptionValidator
OptionValidator::Flag()
{
    return OptionValidator(Kind::FLAG);
}

OptionValidator
OptionValidator::Choice(const std::vector<std::string>& choices)
{
    OptionValidator v(Kind::CHOICE);
    v.m_choices = choices;
    return v;
}

OptionValidator
OptionValidator::TypeChoice(const std::string& typePrefix, const std::vector<std::string>& choices)
{
    OptionValidator v = Choice(choices);
    v.m_typePrefix = typePrefix;
    return v;
}

OptionValidator
OptionValidator::Text()
{
    return OptionValidator(Kind::TEXT);
}

OptionValidator
OptionValidator::List(const std::vector<std::string>& allowed)
{
    OptionValidator v(Kind::LIST);
    v.m_choices = allowed;
    return v;
}

OptionValidator::Kind
OptionValidator::GetKind() const
{
    return m_kind;
}

const std::vector<std::string>&
OptionValidator::Choices() const
{
    return m_choices;
}

double
OptionValidator::ParseNumber(const std::string& what, const std::string& text)
{
    std::string t = Trim(text);
    std::smatch m;
    if (t.empty() || !std::regex_match(t, m, NumberPattern()))
    {
        throw std::invalid_argument(what + "=" + text + ": not a number" +
                                    (t.empty() ? " (empty)" : ""));
    }
    errno = 0;
    double v = std::strtod(t.c_str(), nullptr);
    if (!std::isfinite(v) || errno == ERANGE)
    {
        if (std::isfinite(v) && std::fabs(v) < 1)
        {
            return 0.0; // underflow (1e-999) is zero
        }
        throw std::invalid_argument(what + "=" + text + ": not a finite number");
    }
    return v;
}

uint64_t
OptionValidator::ParseInteger(const std::string& what, const std::string& text, uint64_t min,
                              uint64_t max)
{
    std::string t = Trim(text);
    auto outOfRange = [&]() {
        return std::invalid_argument(what + "=" + text +
                                     ": out of range (accepted: whole numbers " +
                                     std::to_string(min) + " .. " + std::to_string(max) + ")");
    };
    uint64_t v = 0;
    if (std::regex_match(t, std::regex(R"(^\+?\d+$)")))
    {
        errno = 0;
        unsigned long long u = std::strtoull(t.c_str(), nullptr, 10);
        if (errno == ERANGE)
        {
            throw outOfRange();
        }
        v = u;
    }
    else
    {
        double d = ParseNumber(what, text);
        if (d != std::floor(d))
        {
            throw std::invalid_argument(what + "=" + text + ": not a whole number (accepted: " +
                                        std::to_string(min) + " .. " + std::to_string(max) + ")");
        }
        if (d < 0 || d > 9007199254740992.0) // 2^53: exact in a double
        {
            throw outOfRange();
        }
        v = static_cast<uint64_t>(d);
    }
    if (v < min || v > max)
    {
        throw outOfRange();
    }
    return v;
}

double
OptionValidator::ParseTimeSeconds(const std::string& what, const std::string& text)
{
    // Units below a second divide (50000ns / 1e9 is exactly the double nearest 5e-5 s).
    static const std::map<std::string, std::pair<double, double>> units{
        {"", {1, 1}},     {"s", {1, 1}},     {"ms", {1, 1e3}},         {"us", {1, 1e6}},
        {"ns", {1, 1e9}}, {"ps", {1, 1e12}}, {"fs", {1, 1e15}},        {"min", {60, 1}},
        {"h", {3600, 1}}, {"d", {86400, 1}}, {"y", {365 * 86400.0, 1}}};
    auto [number, unit] = SplitUnit(what, text);
    auto u = units.find(unit);
    if (u == units.end())
    {
        throw std::invalid_argument(what + "=" + text + ": unknown time unit '" + unit +
                                    "' (accepted: fs, ps, ns, us, ms, s, min, h, d, y)");
    }
    double v = ParseNumber(what, number) * u->second.first / u->second.second;
    if (!std::isfinite(v))
    {
        throw std::invalid_argument(what + "=" + text + ": not a finite time");
    }
    return v;
}

double
OptionValidator::ParseRateBps(const std::string& what, const std::string& text)
{
    static const std::map<std::string, double> units{{"", 1},
                                                     {"bps", 1},
                                                     {"b/s", 1},
                                                     {"Bps", 8},
                                                     {"B/s", 8},
                                                     {"kbps", 1e3},
                                                     {"kb/s", 1e3},
                                                     {"Kbps", 1e3},
                                                     {"Kb/s", 1e3},
                                                     {"kBps", 8e3},
                                                     {"kB/s", 8e3},
                                                     {"KBps", 8e3},
                                                     {"KB/s", 8e3},
                                                     {"Kib/s", 1024.0},
                                                     {"KiB/s", 8192.0},
                                                     {"Mbps", 1e6},
                                                     {"Mb/s", 1e6},
                                                     {"MBps", 8e6},
                                                     {"MB/s", 8e6},
                                                     {"Mib/s", 1048576.0},
                                                     {"MiB/s", 8 * 1048576.0},
                                                     {"Gbps", 1e9},
                                                     {"Gb/s", 1e9},
                                                     {"GBps", 8e9},
                                                     {"GB/s", 8e9},
                                                     {"Gib/s", 1073741824.0},
                                                     {"GiB/s", 8 * 1073741824.0}};
    auto [number, unit] = SplitUnit(what, text);
    auto u = units.find(unit);
    if (u == units.end())
    {
        throw std::invalid_argument(what + "=" + text + ": unknown rate unit '" + unit +
                                    "' (accepted: bps, kbps, Mbps, Gbps, Bps, KBps, MBps, GBps, "
                                    "Kib/s, Mib/s, Gib/s, ...)");
    }
    double v = ParseNumber(what, number) * u->second;
    if (!std::isfinite(v))
    {
        throw std::invalid_argument(what + "=" + text + ": not a finite rate");
    }
    return v;
}

bool
OptionValidator::ParseFlag(const std::string& what, const std::string& text)
{
    std::string t = Trim(text);
    for (auto& c : t)
    {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (t == "true" || t == "t" || t == "1")
    {
        return true;
    }
    if (t == "false" || t == "f" || t == "0")
    {
        return false;
    }
    throw std::invalid_argument(what + "=" + text + ": not a flag (accepted: true, false, 1, 0)");
}

void
OptionValidator::OutOfRange(const std::string& what, const std::string& text) const
{
    throw std::invalid_argument(what + "=" + text + ": out of range (accepted: " + Range() + ")");
}

void
OptionValidator::CheckRange(const std::string& what, const std::string& text, double v) const
{
    if (m_zeroAllowed && v == 0)
    {
        return;
    }
    bool below = v < m_min;
    bool above = m_maxExcluded ? v >= m_max : v > m_max;
    if (below || above || std::isnan(v))
    {
        OutOfRange(what, text);
    }
}

nlohmann::json
OptionValidator::Parse(const std::string& what, const std::string& text) const
{
    switch (m_kind)
    {
    case Kind::RATE:
    case Kind::SECONDS:
    case Kind::REAL: {
        double v = ParseNumber(what, text);
        CheckRange(what, text, v);
        return v;
    }
    case Kind::INTEGER:
        return ParseInteger(what, text, m_intMin, m_intMax);
    case Kind::FLAG:
        return ParseFlag(what, text);
    case Kind::CHOICE: {
        std::string t = Trim(text);
        for (const auto& c : m_choices)
        {
            if (c == t)
            {
                return t;
            }
        }
        throw std::invalid_argument(what + "=" + text + ": not one of " + Range());
    }
    case Kind::LIST: {
        std::string joined;
        if (Trim(text).empty())
        {
            return joined; // the empty list (the option's "none" / "every")
        }
        // Every item, the last one included: "A,,B", ",A" and "A," are typos, not shorter
        // lists. The lists are sets (islands, devices, patterns, schedules, targets): an item
        // given twice is a typo too.
        std::vector<std::string> items;
        for (std::string item : TextUtil::Split(text, ','))
        {
            item = Trim(item);
            if (item.empty())
            {
                throw std::invalid_argument(what + "=" + text +
                                            ": empty item (items are separated by single "
                                            "commas; an empty value is the empty list)");
            }
            if (std::find(items.begin(), items.end(), item) != items.end())
            {
                throw std::invalid_argument(what + "=" + text + ": " + item + " twice");
            }
            items.push_back(item);
            if (!m_choices.empty())
            {
                bool known = false;
                for (const auto& c : m_choices)
                {
                    known = known || c == item;
                }
                if (!known)
                {
                    throw std::invalid_argument(what + "=" + text + ": unknown item '" + item +
                                                "' (accepted: " + Range() + ")");
                }
            }
            joined += (joined.empty() ? "" : ",") + item;
        }
        return joined;
    }
    case Kind::TEXT:
        break;
    }
    return text;
}

nlohmann::json
OptionValidator::ParseAttribute(const std::string& what, const std::string& text,
                                const std::string& valueType) const
{
    if (valueType == "ns3::TimeValue" && m_kind == Kind::SECONDS)
    {
        double v = ParseTimeSeconds(what, text);
        CheckRange(what, text, v);
        return v;
    }
    if (valueType == "ns3::DataRateValue" && m_kind == Kind::RATE)
    {
        double v = ParseRateBps(what, text);
        CheckRange(what, text, v);
        return v;
    }
    if (valueType == "ns3::TypeIdValue" && !m_typePrefix.empty())
    {
        std::string t = Trim(text);
        if (t.rfind(m_typePrefix, 0) == 0)
        {
            return Parse(what, t.substr(m_typePrefix.size()));
        }
    }
    return Parse(what, text);
}

std::string
OptionValidator::ToAttributeText(const nlohmann::json& value, const std::string& valueType) const
{
    if (valueType == "ns3::TimeValue")
    {
        return std::to_string(static_cast<int64_t>(std::llround(value.get<double>() * 1e9))) + "ns";
    }
    if (valueType == "ns3::DataRateValue")
    {
        return std::to_string(static_cast<uint64_t>(std::llround(value.get<double>()))) + "bps";
    }
    if (valueType == "ns3::TypeIdValue" && !m_typePrefix.empty())
    {
        return m_typePrefix + ToText(value);
    }
    return ToText(value);
}

std::string
OptionValidator::ToText(const nlohmann::json& value)
{
    if (value.is_boolean())
    {
        return value.get<bool>() ? "true" : "false";
    }
    if (value.is_number_unsigned())
    {
        return std::to_string(value.get<uint64_t>());
    }
    if (value.is_number_integer())
    {
        return std::to_string(value.get<int64_t>());
    }
    if (value.is_number())
    {
        return Shortest(value.get<double>());
    }
    if (value.is_string())
    {
        return value.get<std::string>();
    }
    return value.dump();
}

std::string
OptionValidator::Range() const
{
    switch (m_kind)
    {
    case Kind::RATE:
        return std::string(m_zeroAllowed ? "0 (keep the topology's) or " : "") +
               "1 .. <1.8e19 bit/s";
    case Kind::SECONDS:
        return Shortest(m_min) + " .. " + Shortest(m_max) + " s";
    case Kind::INTEGER:
        return std::to_string(m_intMin) + " .. " + std::to_string(m_intMax);
    case Kind::REAL:
        return Shortest(m_min) + (m_maxExcluded ? " .. <" : " .. ") + Shortest(m_max);
    case Kind::FLAG:
        return "true, false";
    case Kind::CHOICE:
    case Kind::LIST: {
        if (m_choices.empty())
        {
            return "comma-separated names";
        }
        std::string s;
        for (const auto& c : m_choices)
        {
            s += (s.empty() ? "" : (m_kind == Kind::CHOICE ? " | " : ", ")) + c;
        }
        return m_kind == Kind::LIST ? "comma-separated: " + s : s;
    }
    case Kind::TEXT:
        break;
    }
    return "text";
}

std::string
OptionValidator::KindName() const
{
    switch (m_kind)
    {
    case Kind::RATE:
        return "rate";
    case Kind::SECONDS:
        return "seconds";
    case Kind::INTEGER:
        return "integer";
    case Kind::REAL:
        return "real";
    case Kind::FLAG:
        return "flag";
    case Kind::CHOICE:
        return "choice";
    case Kind::LIST:
        return "list";
    case Kind::TEXT:
        break;
    }
    return "text";
}

} // namespace ns3
