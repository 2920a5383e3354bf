/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: OptionValidator, the checks every option and attribute value passes at the
// boundary (numbers finite, integers whole, physical ranges, ns-3 Time and DataRate syntax).

#include "ns3/option-validator.h"
#include "ns3/text-util.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The message of the std::invalid_argument \p text raises for \p v ("" if it is accepted).
std::string
Refusal(const OptionValidator& v, const std::string& text)
{
    try
    {
        v.Parse("--x", text);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

TEST(OptionValidator, NumbersMustBeFiniteDecimals)
{
    auto v = OptionValidator::Real(-10, 10);
    EXPECT_EQ(v.Parse("--x", "1.5").get<double>(), 1.5);
    EXPECT_EQ(v.Parse("--x", "-2e0").get<double>(), -2.0);
    EXPECT_EQ(v.Parse("--x", " .5 ").get<double>(), 0.5);
    for (const char* bad : {"nan", "NaN", "inf", "-inf", "abc", "", "1e999", "0x10", "1,5", "1.5s"})
    {
        std::string e = Refusal(v, bad);
        EXPECT_NE(e.find(std::string("--x=") + bad + ":"), std::string::npos) << bad << ": " << e;
    }
    EXPECT_NE(Refusal(v, "11").find("out of range (accepted: -10 .. 10)"), std::string::npos);
    auto open = OptionValidator::Real(0, 1, true);
    EXPECT_EQ(Refusal(open, "0.999"), "");
    EXPECT_NE(Refusal(open, "1").find("0 .. <1"), std::string::npos);
}

TEST(OptionValidator, IntegersAreWhole)
{
    auto v = OptionValidator::Integer(1, 1000000);
    EXPECT_EQ(v.Parse("--x", "4").get<uint64_t>(), 4u);
    EXPECT_EQ(v.Parse("--x", "1e6").get<uint64_t>(), 1000000u); // integral scientific notation
    EXPECT_NE(Refusal(v, "1.5").find("not a whole number"), std::string::npos);
    EXPECT_NE(Refusal(v, "-1").find("out of range (accepted: whole numbers 1 .. 1000000)"),
              std::string::npos); // never wraps to 4294967295
    EXPECT_NE(Refusal(v, "0").find("out of range"), std::string::npos);
    EXPECT_NE(Refusal(v, "18446744073709551616").find("out of range"), std::string::npos);
    EXPECT_NE(Refusal(v, "1e999").find("not a finite number"), std::string::npos);
    EXPECT_NE(Refusal(v, "nan").find("not a number"), std::string::npos);
    auto big = OptionValidator::Integer(0, UINT64_MAX);
    EXPECT_EQ(big.Parse("--x", "18446744073709551615").get<uint64_t>(), UINT64_MAX);
}

TEST(OptionValidator, RatesFitDataRate)
{
    auto keep = OptionValidator::Rate(true);
    EXPECT_EQ(keep.Parse("--x", "0").get<double>(), 0.0);
    EXPECT_EQ(keep.Parse("--x", "1").get<double>(), 1.0);
    EXPECT_NE(Refusal(keep, "0.5").find("out of range"), std::string::npos); // DataRate 0: SIGFPE
    EXPECT_NE(Refusal(keep, "1.8e19").find("out of range"), std::string::npos); // > uint64
    EXPECT_NE(Refusal(keep, "-1").find("out of range"), std::string::npos);
    EXPECT_NE(Refusal(OptionValidator::Rate(), "0").find("out of range"), std::string::npos);
    // ns-3 DataRate syntax for attributes.
    auto r = OptionValidator::Rate();
    EXPECT_EQ(r.ParseAttribute("--a", "10Gbps", "ns3::DataRateValue").get<double>(), 10e9);
    EXPECT_EQ(r.ParseAttribute("--a", "1.5MB/s", "ns3::DataRateValue").get<double>(), 12e6);
    EXPECT_EQ(r.ParseAttribute("--a", "100000000000bps", "ns3::DataRateValue").get<double>(), 1e11);
    EXPECT_THROW(r.ParseAttribute("--a", "0.5bps", "ns3::DataRateValue"), std::invalid_argument);
    EXPECT_THROW(r.ParseAttribute("--a", "10Gbit", "ns3::DataRateValue"), std::invalid_argument);
    EXPECT_EQ(r.ToAttributeText(1e9, "ns3::DataRateValue"), "1000000000bps");
}

TEST(OptionValidator, TimesFitNs3Time)
{
    auto v = OptionValidator::Seconds(0, 1e6);
    EXPECT_EQ(v.Parse("--x", "0.05").get<double>(), 0.05);
    EXPECT_NE(Refusal(v, "1e300").find("out of range (accepted: 0 .. 1e+06 s)"), std::string::npos);
    EXPECT_NE(Refusal(v, "1e10").find("out of range"), std::string::npos); // > int64 ns
    EXPECT_NE(Refusal(v, "-1").find("out of range"), std::string::npos);
    EXPECT_EQ(v.ParseAttribute("--a", "50ms", "ns3::TimeValue").get<double>(), 0.05);
    EXPECT_EQ(v.ParseAttribute("--a", "+5e+07ns", "ns3::TimeValue").get<double>(), 0.05);
    EXPECT_EQ(v.ParseAttribute("--a", "2min", "ns3::TimeValue").get<double>(), 120.0);
    EXPECT_EQ(v.ParseAttribute("--a", "1", "ns3::TimeValue").get<double>(), 1.0);
    EXPECT_THROW(v.ParseAttribute("--a", "1e300s", "ns3::TimeValue"), std::invalid_argument);
    EXPECT_THROW(v.ParseAttribute("--a", "5 parsecs", "ns3::TimeValue"), std::invalid_argument);
    EXPECT_EQ(v.ToAttributeText(0.05, "ns3::TimeValue"), "50000000ns");
    EXPECT_THROW(OptionValidator::Seconds(0, 1e7), std::logic_error); // beyond the Time margin
}

TEST(OptionValidator, FlagsChoicesLists)
{
    auto f = OptionValidator::Flag();
    EXPECT_EQ(f.Parse("--x", "TRUE").get<bool>(), true);
    EXPECT_EQ(f.Parse("--x", "0").get<bool>(), false);
    EXPECT_NE(Refusal(f, "yes please").find("not a flag"), std::string::npos);
    auto c = OptionValidator::Choice({"unicast", "multicast"});
    EXPECT_EQ(c.Parse("--x", "multicast").get<std::string>(), "multicast");
    EXPECT_NE(Refusal(c, "anycast").find("not one of unicast | multicast"), std::string::npos);
    auto l = OptionValidator::List({"a", "b"});
    EXPECT_EQ(l.Parse("--x", " a, b ").get<std::string>(), "a,b");
    EXPECT_EQ(l.Parse("--x", " ").get<std::string>(), ""); // the empty list
    // An empty item is a typo, not a default: refused (was silently skipped), the last one too
    // (a trailing comma was dropped while a leading one was refused).
    for (const char* typo : {"a, ,b", ",,", ",a", "a,,b", "a,", "a,b,"})
    {
        EXPECT_NE(Refusal(l, typo).find("empty item"), std::string::npos) << typo;
    }
    // The lists are sets: an item twice is a typo.
    EXPECT_NE(Refusal(l, "a,b,a").find("a twice"), std::string::npos);
    EXPECT_NE(Refusal(l, "a,c").find("unknown item 'c'"), std::string::npos);
    EXPECT_EQ(OptionValidator::ToText(nlohmann::json(0.05)), "0.05");
    EXPECT_EQ(OptionValidator::ToText(nlohmann::json(uint64_t{100000000})), "100000000");
    EXPECT_EQ(OptionValidator::ToText(nlohmann::json(true)), "true");
}

TEST(OptionValidator, TypeChoiceMapsShortNamesToTypeIds)
{
    auto c = OptionValidator::TypeChoice("ns3::Tcp", {"NewReno", "Cubic", "Bbr"});
    EXPECT_EQ(c.Parse("--congestionControl", "Bbr").get<std::string>(), "Bbr");
    EXPECT_NE(Refusal(c, "Vegas").find("not one of NewReno | Cubic | Bbr"), std::string::npos);
    // The attribute holds the full TypeId name, and its value reads back as the short one.
    EXPECT_EQ(c.ToAttributeText(nlohmann::json("Cubic"), "ns3::TypeIdValue"), "ns3::TcpCubic");
    EXPECT_EQ(c.ParseAttribute("--a", "ns3::TcpNewReno", "ns3::TypeIdValue").get<std::string>(),
              "NewReno");
    EXPECT_THROW(c.ParseAttribute("--a", "ns3::TcpVegas", "ns3::TypeIdValue"),
                 std::invalid_argument);
    // A plain choice keeps the text as it is.
    auto plain = OptionValidator::Choice({"Cubic"});
    EXPECT_EQ(plain.ToAttributeText(nlohmann::json("Cubic"), "ns3::TypeIdValue"), "Cubic");
}

TEST(TextUtil, SplitKeepsEveryItem)
{
    using V = std::vector<std::string>;
    EXPECT_EQ(TextUtil::Split("a,b", ','), (V{"a", "b"}));
    EXPECT_EQ(TextUtil::Split("a,,b,", ','), (V{"a", "", "b", ""}));
    EXPECT_EQ(TextUtil::Split(",", ','), (V{"", ""}));
    EXPECT_EQ(TextUtil::Split("", ';'), (V{""}));
    EXPECT_EQ(TextUtil::Split("x=1;y=2", ';'), (V{"x=1", "y=2"}));
}

} // namespace
