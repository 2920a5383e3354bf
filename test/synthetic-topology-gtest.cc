/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: SyntheticTopology is deterministic, connected and physically consistent.

#include "gtest-util.h"

#include "ns3/network-graph.h"
#include "ns3/route-planner.h"
#include "ns3/synthetic-topology.h"
#include "ns3/text-util.h"
#include "ns3/topology-reader.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(SyntheticTopology, SameSeedSameTopology)
{
    testutil::TempDir dir;
    SyntheticTopologyOptions o;
    o.cities = 16;
    TopologyReader::WriteFile(SyntheticTopology::Generate(o), dir.Path() + "/a.topology");
    TopologyReader::WriteFile(SyntheticTopology::Generate(o), dir.Path() + "/b.topology");
    o.seed = 2;
    TopologyReader::WriteFile(SyntheticTopology::Generate(o), dir.Path() + "/c.topology");
    std::string a = TextUtil::ReadFile(dir.Path() + "/a.topology");
    EXPECT_EQ(a, TextUtil::ReadFile(dir.Path() + "/b.topology"));
    EXPECT_NE(a, TextUtil::ReadFile(dir.Path() + "/c.topology"));
    // It reads back as a valid topology file.
    Topology back = TopologyReader::ReadFile(dir.Path() + "/a.topology");
    EXPECT_EQ(back.Cities().size(), 16u);
}

TEST(SyntheticTopology, ConnectedWithDistanceLatencies)
{
    for (std::size_t n : {2u, 9u, 32u})
    {
        SyntheticTopologyOptions o;
        o.cities = n;
        o.neighbours = 1; // sparse: the generator must add links to connect it
        Topology t = SyntheticTopology::Generate(o);
        EXPECT_EQ(t.Cities().size(), n);
        EXPECT_EQ(t.CountLinks(LinkKind::PUBLIC), n * (n - 1) / 2);
        for (const auto& c : t.Cities())
        {
            EXPECT_GE(t.DevicesIn(c.code).size(), 1u);
            EXPECT_LE(t.DevicesIn(c.code).size(), o.maxDevicesPerCity);
        }
        NetworkGraphOptions go;
        go.includePublic = false;
        RoutePlanner routes(NetworkGraph::FromTopology(t, go));
        EXPECT_TRUE(routes.IslandsConnected()) << n;
        for (const auto& l : t.Links())
        {
            if (l.kind != LinkKind::PUBLIC)
            {
                continue;
            }
            const City* a = t.FindCity(l.a);
            const City* b = t.FindCity(l.b);
            double km = SyntheticTopology::GreatCircleKm(a->latitude, a->longitude, b->latitude,
                                                         b->longitude);
            EXPECT_NEAR(l.latencyS, std::max(o.minLatencyS, km * 2.0 * 4.9e-6), 1e-12);
        }
    }
    // London - New York is about 5570 km.
    EXPECT_NEAR(SyntheticTopology::GreatCircleKm(51.51, -0.13, 40.71, -74.01), 5570, 30);
}

TEST(SyntheticTopology, BadOptionsAreRejected)
{
    SyntheticTopologyOptions o;
    o.cities = 0;
    EXPECT_THROW(SyntheticTopology::Generate(o), std::invalid_argument);
    o.cities = 4;
    o.maxDevicesPerCity = 0;
    EXPECT_THROW(SyntheticTopology::Generate(o), std::invalid_argument);
    o.maxDevicesPerCity = 2;
    o.privateCapacityBps = 0;
    EXPECT_THROW(SyntheticTopology::Generate(o), std::invalid_argument);
}
