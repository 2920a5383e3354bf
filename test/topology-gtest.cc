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

TEST(TopologyErrors, UnknownDeviceInLink)
{
    TempDir dir;
    auto p = dir.Write("t.topology", Replace(SmallTopology(), "AAA1,BBB1,5.5,10", "AAA1,ZZZ9,5.5,10"));
    auto e = ExpectInputError([&] { TopologyReader::ReadFile(p); }, "t.topology", 13, "device_b");
    EXPECT_NE(std::string(e.what()).find("ZZZ9"), std::string::npos);
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
