/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: Topology, TopologyReader (both formats) and their bad-input errors.

#include "gtest-util.h"

#include "ns3/topology-reader.h"
#include "ns3/topology.h"

#include <cmath>

using namespace ns3;
using ns3::testutil::ExpectInputError;
using ns3::testutil::TempDir;

namespace
{

const std::string kNineCity = std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology";

/// A valid small topology file in our format; tests patch one line to break it.
std::string
SmallTopology()
{
    return "# test\n"                                // 1
           "[cities]\n"                              // 2
           "code,name,latitude,longitude\n"          // 3
           "AAA,Alpha,10,20\n"                       // 4
           "BBB,Beta,-10,-20\n"                      // 5
           "\n"                                      // 6
           "[devices]\n"                             // 7
           "device,city,edge_gbps,operator\n"        // 8
           "AAA1,AAA,10,x\n"                         // 9
           "BBB1,BBB,10,y\n"                         // 10
           "[private_links]\n"                       // 11
           "device_a,device_b,latency_ms,capacity_gbps\n" // 12
           "AAA1,BBB1,5.5,10\n"                      // 13
           "[public_links]\n"                        // 14
           "city_a,city_b,latency_ms,capacity_gbps\n" // 15
           "AAA,BBB,9,1\n";                          // 16
}

std::string
Replace(std::string text, const std::string& from, const std::string& to)
{
    auto pos = text.find(from);
    EXPECT_NE(pos, std::string::npos) << from;
    return text.replace(pos, from.size(), to);
}

} // namespace

TEST(Topology, NineCityFileHasTheSampleShape)
{
    Topology t = TopologyReader::ReadFile(kNineCity);
    EXPECT_EQ(t.Cities().size(), 9u);
    EXPECT_EQ(t.Devices().size(), 17u);
    EXPECT_EQ(t.CountLinks(LinkKind::PRIVATE), 17u);
    EXPECT_EQ(t.CountLinks(LinkKind::PUBLIC), 36u);
    for (const auto& l : t.Links())
    {
        if (l.kind == LinkKind::PRIVATE)
        {
            EXPECT_DOUBLE_EQ(l.capacityBps, 10e9) << l.a << "-" << l.b;
        }
        EXPECT_GT(l.latencyS, 0);
    }
    // Spot checks against the sample's figures.
    const TopologyLink* seoTyo = nullptr;
    for (const auto& l : t.Links())
    {
        if (l.a == "SEO1" && l.b == "TYO2")
        {
            seoTyo = &l;
        }
    }
    ASSERT_NE(seoTyo, nullptr);
    EXPECT_NEAR(seoTyo->latencyS, 4.5e-3, 1e-12);
    EXPECT_EQ(t.DevicesIn("NYC").size(), 4u);
    EXPECT_EQ(t.FindCity("BAR")->name, "Buenos Aires");
}

TEST(Topology, WriteThenReadIsIdentical)
{
    TempDir dir;
    Topology t = TopologyReader::ReadFile(kNineCity);
    std::string out = dir.Path() + "/copy.topology";
    TopologyReader::WriteFile(t, out);
    Topology u = TopologyReader::ReadFile(out);
    ASSERT_EQ(u.Cities().size(), t.Cities().size());
    ASSERT_EQ(u.Devices().size(), t.Devices().size());
    ASSERT_EQ(u.Links().size(), t.Links().size());
    for (std::size_t i = 0; i < t.Links().size(); ++i)
    {
        EXPECT_EQ(u.Links()[i].a, t.Links()[i].a);
        EXPECT_EQ(u.Links()[i].b, t.Links()[i].b);
        EXPECT_NEAR(u.Links()[i].latencyS, t.Links()[i].latencyS, 1e-15);
        EXPECT_DOUBLE_EQ(u.Links()[i].capacityBps, t.Links()[i].capacityBps);
    }
    EXPECT_NEAR(u.FindCity("SEO")->latitude, 37.57, 1e-9);
}

TEST(Topology, DoubleZeroFormatMatchesOwnFormat)
{
    // Write the nine-city topology in the DoubleZero sample's CSV layout, read it back with the
    // DoubleZero reader, and compare with the project file.
    Topology t = TopologyReader::ReadFile(kNineCity);
    TempDir dir;
    std::string devices = "Device,Edge,Operator\n";
    for (const auto& d : t.Devices())
    {
        devices += d.name + "," + std::to_string(d.edgeCapacityBps / 1e9) + "," + d.owner + "\n";
    }
    std::string priv = "Device1,Device2,Latency,Bandwidth,Uptime,Shared\n";
    std::string pub = "\"City1\",\"City2\",\"Latency\"\n";
    for (const auto& l : t.Links())
    {
        char buf[200];
        if (l.kind == LinkKind::PRIVATE)
        {
            std::snprintf(buf, sizeof buf, "%s,%s,%.2f,%.0f,0.99,NA\n", l.a.c_str(), l.b.c_str(),
                          l.latencyS * 1e3, l.capacityBps / 1e9);
            priv += buf;
        }
        else
        {
            std::snprintf(buf, sizeof buf, "\"%s\",\"%s\",%.2f\n", l.a.c_str(), l.b.c_str(),
                          l.latencyS * 1e3);
            pub += buf;
        }
    }
    dir.Write("devices.csv", devices);
    dir.Write("private_links.csv", priv);
    dir.Write("public_links.csv", pub);
    Topology u = TopologyReader::Read(dir.Path(), 1e9);
    EXPECT_EQ(u.Cities().size(), 9u);
    EXPECT_EQ(u.Devices().size(), 17u);
    ASSERT_EQ(u.Links().size(), t.Links().size());
    for (std::size_t i = 0; i < t.Links().size(); ++i)
    {
        EXPECT_EQ(u.Links()[i].a, t.Links()[i].a);
        EXPECT_NEAR(u.Links()[i].latencyS, t.Links()[i].latencyS, 1e-9);
        EXPECT_DOUBLE_EQ(u.Links()[i].capacityBps, t.Links()[i].capacityBps);
    }
    // Built-in city table names the sample's cities.
    EXPECT_EQ(u.FindCity("TYO")->name, "Tokyo");
    EXPECT_FALSE(std::isnan(u.FindCity("TYO")->latitude));
}

TEST(TopologyErrors, OneCoordinateAlone)
{
    // A city with a latitude and no longitude (or the reverse) is a typo, not an unknown
    // position: refused with the line and the missing field (it used to read as no position,
    // silently dropping the speed-of-light check of its links).
    TempDir dir;
    auto p = dir.Write("t.topology", Replace(SmallTopology(), "BBB,Beta,-10,-20", "BBB,Beta,-10,"));
    ExpectInputError([&] { TopologyReader::ReadFile(p); }, "t.topology", 5, "longitude");
    p = dir.Write("u.topology", Replace(SmallTopology(), "AAA,Alpha,10,20", "AAA,Alpha,,20"));
    ExpectInputError([&] { TopologyReader::ReadFile(p); }, "u.topology", 4, "latitude");
    // Both empty: an unknown position, accepted.
    p = dir.Write("v.topology", Replace(SmallTopology(), "AAA,Alpha,10,20", "AAA,Alpha,,"));
    EXPECT_TRUE(std::isnan(TopologyReader::ReadFile(p).FindCity("AAA")->latitude));
}

TEST(Topology, WrittenNamesWithQuotesCommasAndLineBreaksReadBack)
{
    // Names and operators are free text (a GraphML label may hold quotes, commas, a line
    // break): the written file must read back, quotes and commas kept, control characters as
    // spaces (the reader refuses them).
    TempDir dir;
    Topology t = TopologyReader::ReadFile(dir.Write("t.topology", SmallTopology()));
    Topology u("odd");
    u.AddCity(City{"AAA", "Amster \"dam\", NL\nnorth", 10, 20});
    u.AddCity(City{"BBB", "\"", -10, -20});
    u.AddDevice(Device{"AAA1", "AAA", 10e9, "Alpha, \"Inc\""});
    u.AddDevice(Device{"BBB1", "BBB", 10e9, ""});
    for (const auto& l : t.Links())
    {
        u.AddLink(l);
    }
    std::string out = dir.Path() + "/odd.topology";
    TopologyReader::WriteFile(u, out);
    Topology v = TopologyReader::ReadFile(out);
    EXPECT_EQ(v.FindCity("AAA")->name, "Amster \"dam\", NL north");
    EXPECT_EQ(v.FindCity("BBB")->name, "\"");
    ASSERT_EQ(v.Devices().size(), 2u);
    EXPECT_EQ(v.Devices()[0].owner, "Alpha, \"Inc\"");
    EXPECT_EQ(v.Devices()[1].owner, "");
    EXPECT_EQ(v.Links().size(), t.Links().size());
}

TEST(TopologyErrors, UnknownDeviceInLink)
{
    TempDir dir;
    auto p = dir.Write("t.topology", Replace(SmallTopology(), "AAA1,BBB1,5.5,10", "AAA1,ZZZ9,5.5,10"));
    auto e = ExpectInputError([&] { TopologyReader::ReadFile(p); }, "t.topology", 13, "device_b");
    EXPECT_NE(std::string(e.what()).find("ZZZ9"), std::string::npos);
}

TEST(TopologyErrors, DeviceNamedAfterACity)
{
    // Cities and devices share one namespace (graph nodes): a device named like a city is
    // refused with its line (before: refused later, when the graph was built, without one).
    TempDir dir;
    auto p = dir.Write("t.topology", Replace(SmallTopology(), "BBB1,BBB,10,y", "AAA,BBB,10,y"));
    auto e = ExpectInputError([&] { TopologyReader::ReadFile(p); }, "t.topology", 10, "device");
    EXPECT_NE(std::string(e.what()).find("has the name of a city"), std::string::npos);
}

TEST(TopologyErrors, SectionWithoutHeaderRowIsNamed)
{
    TempDir dir;
    auto p = dir.Write("t.topology", Replace(SmallTopology(),
                                             "code,name,latitude,longitude\nAAA,Alpha,10,20\n"
                                             "BBB,Beta,-10,-20\n",
                                             "# nothing yet\n"));
    auto e = ExpectInputError([&] { TopologyReader::ReadFile(p); }, "t.topology", 2, "cities");
    EXPECT_NE(std::string(e.what()).find("section [cities] has no header row"), std::string::npos);
}

TEST(TopologyErrors, DuplicateLink)
{
    TempDir dir;
    auto p = dir.Write("t.topology",
                       Replace(SmallTopology(), "AAA1,BBB1,5.5,10\n", "AAA1,BBB1,5.5,10\nBBB1,AAA1,3,10\n"));
    ExpectInputError([&] { TopologyReader::ReadFile(p); }, "t.topology", 14, "device_b");
}

TEST(TopologyErrors, NegativeAndZeroLatency)
{
    TempDir dir;
    auto p = dir.Write("t.topology", Replace(SmallTopology(), "AAA1,BBB1,5.5,10", "AAA1,BBB1,-1,10"));
    ExpectInputError([&] { TopologyReader::ReadFile(p); }, "t.topology", 13, "latency_ms");
    p = dir.Write("u.topology", Replace(SmallTopology(), "AAA,BBB,9,1", "AAA,BBB,0,1"));
    ExpectInputError([&] { TopologyReader::ReadFile(p); }, "u.topology", 16, "latency_ms");
}

TEST(TopologyErrors, ZeroOrNegativeCapacity)
{
    TempDir dir;
    auto p = dir.Write("t.topology", Replace(SmallTopology(), "AAA1,BBB1,5.5,10", "AAA1,BBB1,5.5,0"));
    ExpectInputError([&] { TopologyReader::ReadFile(p); }, "t.topology", 13, "capacity_gbps");
    p = dir.Write("u.topology", Replace(SmallTopology(), "BBB1,BBB,10,y", "BBB1,BBB,-10,y"));
    ExpectInputError([&] { TopologyReader::ReadFile(p); }, "u.topology", 10, "edge_gbps");
}

TEST(TopologyErrors, MissingColumn)
{
    TempDir dir;
    auto p = dir.Write("t.topology",
                       Replace(SmallTopology(), "device_a,device_b,latency_ms,capacity_gbps\nAAA1,BBB1,5.5,10",
                               "device_a,device_b,capacity_gbps\nAAA1,BBB1,10"));
    ExpectInputError([&] { TopologyReader::ReadFile(p); }, "t.topology", 12, "latency_ms");
}

TEST(TopologyErrors, NonNumericField)
{
    TempDir dir;
    auto p = dir.Write("t.topology", Replace(SmallTopology(), "AAA1,BBB1,5.5,10", "AAA1,BBB1,fast,10"));
    auto e = ExpectInputError([&] { TopologyReader::ReadFile(p); }, "t.topology", 13, "latency_ms");
    EXPECT_NE(std::string(e.what()).find("not a number"), std::string::npos);
    p = dir.Write("u.topology", Replace(SmallTopology(), "AAA,Alpha,10,20", "AAA,Alpha,north,20"));
    ExpectInputError([&] { TopologyReader::ReadFile(p); }, "u.topology", 4, "latitude");
}

TEST(TopologyErrors, UnknownCityOfDeviceAndStructure)
{
    TempDir dir;
    auto p = dir.Write("t.topology", Replace(SmallTopology(), "BBB1,BBB,10,y", "BBB1,QQQ,10,y"));
    ExpectInputError([&] { TopologyReader::ReadFile(p); }, "t.topology", 10, "city");
    p = dir.Write("u.topology", Replace(SmallTopology(), "[devices]", "[gadgets]"));
    ExpectInputError([&] { TopologyReader::ReadFile(p); }, "u.topology", 7, "gadgets");
    p = dir.Write("v.topology", Replace(SmallTopology(), "AAA1,BBB1,5.5,10", "AAA1,BBB1,5.5,10,7"));
    ExpectInputError([&] { TopologyReader::ReadFile(p); }, "v.topology", 13, "");
    ExpectInputError([&] { TopologyReader::ReadFile(dir.Path() + "/absent.topology"); },
                     "absent.topology", 0, "");
}

TEST(TopologyErrors, DoubleZeroFormat)
{
    TempDir dir;
    dir.Write("devices.csv", "Device,Edge,Operator\nAMS1,10,a\nFRA1,10,b\n");
    dir.Write("public_links.csv", "City1,City2,Latency\nAMS,FRA,4.85\n");
    dir.Write("private_links.csv", "Device1,Device2,Latency,Bandwidth\nAMS1,FRA9,2.11,10\n");
    ExpectInputError([&] { TopologyReader::Read(dir.Path(), 1e9); }, "private_links.csv", 2,
                     "Device2");
    dir.Write("private_links.csv", "Device1,Device2,Bandwidth\nAMS1,FRA1,10\n");
    ExpectInputError([&] { TopologyReader::Read(dir.Path(), 1e9); }, "private_links.csv", 1,
                     "Latency");
    dir.Write("private_links.csv", "Device1,Device2,Latency,Bandwidth\nAMS1,FRA1,2.11,ten\n");
    ExpectInputError([&] { TopologyReader::Read(dir.Path(), 1e9); }, "private_links.csv", 2,
                     "Bandwidth");
    dir.Write("private_links.csv",
              "Device1,Device2,Latency,Bandwidth\nAMS1,FRA1,2.11,10\nFRA1,AMS1,2.11,10\n");
    ExpectInputError([&] { TopologyReader::Read(dir.Path(), 1e9); }, "private_links.csv", 3,
                     "Device2");
    dir.Write("private_links.csv", "Device1,Device2,Latency,Bandwidth\nAMS1,FRA1,2.11,10\n");
    dir.Write("public_links.csv", "City1,City2,Latency\nAMS,FRA,-4.85\n");
    ExpectInputError([&] { TopologyReader::Read(dir.Path(), 1e9); }, "public_links.csv", 2,
                     "Latency");
    dir.Write("public_links.csv", "City1,City2,Latency\nAMS,XYZ,4.85\n");
    ExpectInputError([&] { TopologyReader::Read(dir.Path(), 1e9); }, "public_links.csv", 2,
                     "City2");
    dir.Write("public_links.csv", "City1,City2,Latency\nAMS,FRA,4.85\n");
    EXPECT_NO_THROW(TopologyReader::Read(dir.Path(), 1e9));
}

TEST(TopologyErrors, NumbersOutOfTheirPhysicalRange)
{
    // Each number is checked where it is read: the message names file, line, column and the
    // accepted range (1e300 Gbps used to say "must be greater than zero"; 1e300 ms was
    // accepted and simulated like 4.5 ms).
    TempDir dir;
    struct Case
    {
        const char* from;
        const char* to;
        std::size_t line;
        const char* field;
        const char* message;
    };
    const Case cases[] = {
        {"AAA1,BBB1,5.5,10", "AAA1,BBB1,5.5,1e300", 13, "capacity_gbps",
         "must be between 1e-06 and 1e+06 Gbps, got 1e300"},
        {"AAA1,BBB1,5.5,10", "AAA1,BBB1,5.5,1e-300", 13, "capacity_gbps", "between"},
        {"AAA1,BBB1,5.5,10", "AAA1,BBB1,1e300,10", 13, "latency_ms",
         "must be between 1e-06 and 1000 ms, got 1e300"},
        {"AAA1,BBB1,5.5,10", "AAA1,BBB1,1e999,10", 13, "latency_ms", "got 1e999"},
        {"AAA1,BBB1,5.5,10", "AAA1,BBB1,inf,10", 13, "latency_ms", "not a number"},
        {"AAA1,BBB1,5.5,10", "AAA1,BBB1,nan,10", 13, "latency_ms", "not a number"},
        {"AAA1,BBB1,5.5,10", "AAA1,BBB1,0x10,10", 13, "latency_ms", "not a number"},
        {"AAA,BBB,9,1", "AAA,BBB,9,-1e999", 16, "capacity_gbps", "between"},
        {"BBB1,BBB,10,y", "BBB1,BBB,1e10,y", 10, "edge_gbps", "between"},
        {"AAA,Alpha,10,20", "AAA,Alpha,1e999,20", 4, "latitude", "between -90 and 90"},
        {"AAA,Alpha,10,20", "AAA,Alpha,10,-180.5", 4, "longitude", "between -180 and 180"},
    };
    for (const auto& c : cases)
    {
        auto p = dir.Write("r.topology", Replace(SmallTopology(), c.from, c.to));
        auto e = ExpectInputError([&] { TopologyReader::ReadFile(p); }, "r.topology", c.line,
                                  c.field);
        EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
    // The bounds themselves are accepted.
    auto p = dir.Write("ok.topology",
                       Replace(SmallTopology(), "AAA1,BBB1,5.5,10", "AAA1,BBB1,1000,1e6"));
    EXPECT_NO_THROW(TopologyReader::ReadFile(p));
    // DoubleZero directories: the same ranges, and the public capacity parameter.
    dir.Write("devices.csv", "Device,Edge,Operator\nAMS1,10,a\nFRA1,10,b\n");
    dir.Write("private_links.csv", "Device1,Device2,Latency,Bandwidth\nAMS1,FRA1,1e300,10\n");
    dir.Write("public_links.csv", "City1,City2,Latency\nAMS,FRA,4.85\n");
    ExpectInputError([&] { TopologyReader::Read(dir.Path(), 1e9); }, "private_links.csv", 2,
                     "Latency");
    dir.Write("private_links.csv", "Device1,Device2,Latency,Bandwidth\nAMS1,FRA1,2,10\n");
    for (double bad : {0.0, 0.5, 1e300, std::nan("")})
    {
        auto e = ExpectInputError([&] { TopologyReader::Read(dir.Path(), bad); }, dir.Path(), 0,
                                  "public capacity");
        EXPECT_NE(std::string(e.what()).find("must be between 1000 and 1e+15 bit/s"),
                  std::string::npos)
            << e.what();
    }
}

TEST(TopologyErrors, EncodingsAndByteOrderMark)
{
    TempDir dir;
    // A UTF-8 byte-order mark (as some editors write) is accepted, in both formats.
    auto p = dir.Write("bom.topology", "\xEF\xBB\xBF" + SmallTopology());
    EXPECT_EQ(TopologyReader::ReadFile(p).Cities().size(), 2u);
    dir.Write("devices.csv", "\xEF\xBB\xBF" "Device,Edge,Operator\nAMS1,10,a\nFRA1,10,b\n");
    dir.Write("private_links.csv", "Device1,Device2,Latency,Bandwidth\nAMS1,FRA1,2,10\n");
    dir.Write("public_links.csv", "\xEF\xBB\xBF" "City1,City2,Latency\nAMS,FRA,4.85\n");
    EXPECT_EQ(TopologyReader::Read(dir.Path(), 1e9).Devices().size(), 2u);
    // UTF-16, a NUL byte, ill-formed UTF-8 and control characters: errors with their line.
    auto e = ExpectInputError(
        [&] { TopologyReader::ReadFile(dir.Write("u16.topology", std::string("\xFF\xFE#\0", 4))); },
        "u16.topology", 1, "");
    EXPECT_NE(std::string(e.what()).find("UTF-16"), std::string::npos) << e.what();
    std::string nul = SmallTopology();
    nul[nul.find("Beta")] = '\0';
    ExpectInputError([&] { TopologyReader::ReadFile(dir.Write("nul.topology", nul)); },
                     "nul.topology", 5, "");
    ExpectInputError(
        [&] {
            TopologyReader::ReadFile(
                dir.Write("latin1.topology", Replace(SmallTopology(), "Beta", "B\xE9ta")));
        },
        "latin1.topology", 5, "");
    ExpectInputError(
        [&] {
            TopologyReader::ReadFile(
                dir.Write("ctl.topology", Replace(SmallTopology(), "Beta", "Be\x01ta")));
        },
        "ctl.topology", 5, "name");
    // A directory or a missing file given as a topology file.
    ExpectInputError([&] { TopologyReader::ReadFile(dir.Path()); }, dir.Path(), 0, "");
}

TEST(TopologyErrors, NamesAndUnknownColumns)
{
    TempDir dir;
    auto p = dir.Write("n.topology", Replace(SmallTopology(), "BBB1,BBB,10,y", "BB B1,BBB,10,y"));
    ExpectInputError([&] { TopologyReader::ReadFile(p); }, "n.topology", 10, "device");
    p = dir.Write("c.topology", Replace(SmallTopology(), "BBB,Beta,-10,-20", "B+B,Beta,-10,-20"));
    ExpectInputError([&] { TopologyReader::ReadFile(p); }, "c.topology", 5, "code");
    // A misspelt optional column is not silently ignored in our own format.
    p = dir.Write("u.topology", Replace(SmallTopology(), "device,city,edge_gbps,operator",
                                        "device,city,edge_gbps,operater"));
    ExpectInputError([&] { TopologyReader::ReadFile(p); }, "u.topology", 8, "operater");
}

TEST(Topology, CityWithoutDevicesIsAccepted)
{
    // A city may be listed without devices (its coordinates only): it loads, it has no
    // device, and the other cities are unaffected.
    TempDir dir;
    auto p = dir.Write("t.topology",
                       Replace(SmallTopology(), "BBB,Beta,-10,-20\n",
                               "BBB,Beta,-10,-20\nCCC,Gamma,0,0\n"));
    Topology t = TopologyReader::ReadFile(p);
    EXPECT_EQ(t.Cities().size(), 3u);
    EXPECT_TRUE(t.DevicesIn("CCC").empty());
    EXPECT_EQ(t.DevicesIn("AAA").size(), 1u);
}
