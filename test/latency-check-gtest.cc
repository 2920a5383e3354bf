/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: link latencies against the speed of light in fibre (TopologyLatencyCheck and
// NetworkGraphOptions::latencyCheck).

#include "gtest-util.h"

#include "ns3/network-graph.h"
#include "ns3/text-util.h"
#include "ns3/topology-latency-check.h"
#include "ns3/topology-reader.h"

#include <cmath>

using namespace ns3;

namespace
{

const std::string kNineCity = std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology";

/// Haversine by hand (Earth radius 6371 km), independent of the module's.
double
Km(double lat1, double lon1, double lat2, double lon2)
{
    const double r = M_PI / 180;
    double h = std::pow(std::sin((lat2 - lat1) * r / 2), 2) +
               std::cos(lat1 * r) * std::cos(lat2 * r) * std::pow(std::sin((lon2 - lon1) * r / 2), 2);
    return 2 * 6371 * std::asin(std::sqrt(h));
}

// City centres of data/nine-city.topology.
const double kSeoTyoKm = Km(37.57, 126.98, 35.68, 139.69);
const double kLonAmsKm = Km(51.51, -0.13, 52.37, 4.90);

double
EdgeLatency(const NetworkGraph& g, const std::string& a, const std::string& b)
{
    return g.Edges()[g.FindEdgeByNames(a, b)].latencyS;
}

NetworkGraph
NineCity(LatencyCheckMode mode)
{
    NetworkGraphOptions o;
    o.latencyCheck = mode;
    return NetworkGraph::FromTopology(TopologyReader::ReadFile(kNineCity), o);
}

} // namespace

TEST(LatencyCheck, NineCitySampleHasExactlyTwoLinksFasterThanLight)
{
    // The reference table (great-circle km 1160 and 358) agrees with these coordinates.
    EXPECT_NEAR(kSeoTyoKm, 1160, 0.01 * 1160);
    EXPECT_NEAR(kLonAmsKm, 358, 0.01 * 358);
    Topology t = TopologyReader::ReadFile(kNineCity);
    auto f = TopologyLatencyCheck::Find(t);
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[0].name, "SEO1-TYO2 (private)");
    EXPECT_EQ(f[0].file, kNineCity);
    EXPECT_EQ(f[0].line, 45u);
    EXPECT_DOUBLE_EQ(f[0].latencyS, 4.5e-3);
    EXPECT_NEAR(f[0].km, kSeoTyoKm, 1e-6);
    EXPECT_NEAR(f[0].boundS, kSeoTyoKm * 4.9e-6, 1e-12); // 5.65 ms: the link is at 0.80x
    EXPECT_NEAR(f[0].latencyS / f[0].boundS, 0.797, 0.001);
    EXPECT_EQ(f[1].name, "LON1-AMS1 (private)");
    EXPECT_EQ(f[1].line, 58u);
    EXPECT_NEAR(f[1].boundS, kLonAmsKm * 4.9e-6, 1e-12); // 1.75 ms: 0.83x
    EXPECT_NEAR(f[1].latencyS / f[1].boundS, 0.827, 0.001);
    EXPECT_EQ(TopologyLatencyCheck::Unchecked(t), 0u);

    // The warning names file, line, link, latency and bound.
    std::string text = f[0].Describe();
    for (const std::string& part : {kNineCity + ":45:", std::string("SEO1-TYO2"),
                                    std::string("4.5 ms"), std::string("5.648 ms"),
                                    std::string("1152.6 km")})
    {
        EXPECT_NE(text.find(part), std::string::npos) << part << " not in: " << text;
    }
}

TEST(LatencyCheck, FixRaisesExactlyTheFlaggedLinksToTheBound)
{
    NetworkGraph warn = NineCity(LatencyCheckMode::WARN);
    NetworkGraph fix = NineCity(LatencyCheckMode::FIX);
    NetworkGraph off = NineCity(LatencyCheckMode::OFF);
    // warn and off keep the file's figures; fix raises the two links to the bound exactly.
    for (const NetworkGraph* g : {&warn, &off})
    {
        EXPECT_DOUBLE_EQ(EdgeLatency(*g, "SEO1", "TYO2"), 4.5e-3);
        EXPECT_DOUBLE_EQ(EdgeLatency(*g, "LON1", "AMS1"), 1.45e-3);
    }
    ASSERT_EQ(fix.LatencyFindings().size(), 2u);
    EXPECT_EQ(EdgeLatency(fix, "SEO1", "TYO2"), fix.LatencyFindings()[0].boundS);
    EXPECT_EQ(EdgeLatency(fix, "LON1", "AMS1"), fix.LatencyFindings()[1].boundS);
    EXPECT_NEAR(EdgeLatency(fix, "SEO1", "TYO2"), kSeoTyoKm * 4.9e-6, 1e-12);
    // Nothing else moved.
    ASSERT_EQ(fix.EdgeCount(), off.EdgeCount());
    std::size_t changed = 0;
    for (std::size_t e = 0; e < off.EdgeCount(); ++e)
    {
        changed += fix.Edges()[e].latencyS != off.Edges()[e].latencyS ? 1 : 0;
    }
    EXPECT_EQ(changed, 2u);
    EXPECT_EQ(warn.LatencyFindings().size(), 2u);
    EXPECT_TRUE(off.LatencyFindings().empty());
}

TEST(LatencyCheck, WarnPrintsFileLineLinkLatencyAndBound)
{
    testutil::TempDir dir;
    // A public path London - New York (5570 km: at least 27.3 ms) given as 20 ms, and an
    // honest private link.
    std::string path = dir.Write("fast.topology",
                                 "[cities]\ncode,name,latitude,longitude\n"
                                 "LON,London,51.51,-0.13\nNYC,New York,40.71,-74.01\n"
                                 "[devices]\ndevice,city,edge_gbps\nL1,LON,10\nN1,NYC,10\n"
                                 "[private_links]\ndevice_a,device_b,latency_ms,capacity_gbps\n"
                                 "L1,N1,29.5,10\n"
                                 "[public_links]\ncity_a,city_b,latency_ms,capacity_gbps\n"
                                 "LON,NYC,20,1\n");
    Topology t = TopologyReader::ReadFile(path);
    for (LatencyCheckMode mode : {LatencyCheckMode::WARN, LatencyCheckMode::FIX})
    {
        NetworkGraphOptions o;
        o.latencyCheck = mode;
        testing::internal::CaptureStderr();
        NetworkGraph g = NetworkGraph::FromTopology(t, o);
        std::string err = testing::internal::GetCapturedStderr();
        for (const std::string& part : {path + ":14:", std::string("LON-NYC (public)"),
                                        std::string("20 ms"), std::string("bound 27.3")})
        {
            EXPECT_NE(err.find(part), std::string::npos) << part << " not in: " << err;
        }
        EXPECT_EQ(err.find("L1-N1"), std::string::npos) << "29.5 ms is physical: " << err;
        EXPECT_NE(err.find(mode == LatencyCheckMode::FIX ? "raised" : "keeps"),
                  std::string::npos)
            << err;
        double pub = g.Edges()[g.FindEdgeByNames("LON", "NYC")].latencyS;
        if (mode == LatencyCheckMode::FIX)
        {
            EXPECT_NEAR(pub, Km(51.51, -0.13, 40.71, -74.01) * 4.9e-6, 1e-12);
        }
        else
        {
            EXPECT_DOUBLE_EQ(pub, 20e-3);
        }
    }
    NetworkGraphOptions o;
    o.latencyCheck = LatencyCheckMode::OFF;
    testing::internal::CaptureStderr();
    NetworkGraph::FromTopology(t, o);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(LatencyCheck, CitiesWithoutCoordinatesAreNotChecked)
{
    Topology t("hand");
    t.AddCity(City{"A", "A", std::nan(""), std::nan("")});
    t.AddCity(City{"B", "B", 0.0, 0.0});
    t.AddDevice(Device{"A1", "A", 10e9, ""});
    t.AddDevice(Device{"B1", "B", 10e9, ""});
    t.AddDevice(Device{"B2", "B", 10e9, ""});
    t.AddLink(TopologyLink{LinkKind::PRIVATE, "A1", "B1", 1e-6, 10e9});
    t.AddLink(TopologyLink{LinkKind::PRIVATE, "B1", "B2", 1e-6, 10e9}); // one city: bound 0
    EXPECT_TRUE(TopologyLatencyCheck::Find(t).empty());
    EXPECT_EQ(TopologyLatencyCheck::Unchecked(t), 1u);
    EXPECT_TRUE(std::isnan(TopologyLatencyCheck::BoundS(t, t.Links()[0])));
    EXPECT_EQ(TopologyLatencyCheck::BoundS(t, t.Links()[1]), 0.0);
}

TEST(LatencyCheck, ModeNames)
{
    for (LatencyCheckMode m : {LatencyCheckMode::OFF, LatencyCheckMode::WARN, LatencyCheckMode::FIX})
    {
        EXPECT_EQ(TopologyLatencyCheck::ParseMode(TopologyLatencyCheck::ModeName(m)), m);
    }
    EXPECT_EQ(NetworkGraphOptions().latencyCheck, LatencyCheckMode::WARN);
    testutil::ExpectThrowContaining<std::invalid_argument>(
        [] { TopologyLatencyCheck::ParseMode("raise"); },
        "latencyCheck");
    EXPECT_THROW(TopologyLatencyCheck::Find(Topology(), 0), std::invalid_argument);
}
