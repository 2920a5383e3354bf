/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: TrafficPlanner streams per mode, resource usage and aggregator choice.

#include "ns3/network-graph.h"
#include "ns3/route-planner.h"
#include "ns3/topology-reader.h"
#include "ns3/traffic-planner.h"

#include <gtest/gtest.h>

#include <map>

using namespace ns3;

namespace
{

NetworkGraph
NineCity()
{
    return NetworkGraph::FromTopology(
        TopologyReader::ReadFile(std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology"));
}

std::vector<uint32_t>
Nodes(const NetworkGraph& g, const std::vector<std::string>& cities)
{
    std::vector<uint32_t> out;
    for (const auto& c : cities)
    {
        out.push_back(g.IslandNode(c));
    }
    return out;
}

double
TotalUsage(const TrafficFlow& f, std::size_t linkResources)
{
    double s = 0;
    for (const auto& [r, a] : f.usage.usage)
    {
        s += r < linkResources ? a : 0;
    }
    return s;
}

} // namespace

TEST(TrafficPlanner, UnicastIsEveryOrderedPair)
{
    NetworkGraph g = NineCity();
    RoutePlanner routes(g);
    NetworkCapabilities caps;
    TrafficPlanner tp(routes, caps);
    auto m = Nodes(g, {"AMS", "FRA", "LON"});
    auto flows = tp.CliqueFlows(m);
    ASSERT_EQ(flows.size(), 6u);
    for (const auto& f : flows)
    {
        EXPECT_EQ(f.kind, ExchangePattern::ALL_TO_ALL);
        EXPECT_EQ(TotalUsage(f, g.ResourceCount()), f.down.size());
        EXPECT_NEAR(f.latencyS, routes.PathLatency(f.sources[0], f.receivers[0]), 1e-12);
    }
    EXPECT_TRUE(tp.CliqueFlows({m[0]}).empty());
}

TEST(TrafficPlanner, MulticastChargesEachTreeEdgeOnce)
{
    NetworkGraph g = NineCity();
    RoutePlanner routes(g);
    NetworkCapabilities caps = NetworkCapabilities::ForPattern(ExchangePattern::MULTICAST);
    TrafficPlanner tp(routes, caps);
    auto m = Nodes(g, {"AMS", "BAR", "FRA", "LAX", "LON", "NYC", "SEO", "SIN", "TYO"});
    auto flows = tp.CliqueFlows(m);
    ASSERT_EQ(flows.size(), 9u);
    for (const auto& f : flows)
    {
        EXPECT_EQ(f.receivers.size(), 8u);
        EXPECT_EQ(TotalUsage(f, g.ResourceCount()), f.down.size());
        // A tree is cheaper than unicasting to every receiver.
        double unicastHops = 0;
        double worst = 0;
        for (uint32_t r : f.receivers)
        {
            unicastHops += routes.ShortestPath(f.sources[0], r).size();
            worst = std::max(worst, routes.PathLatency(f.sources[0], r));
        }
        EXPECT_LT(f.down.size(), unicastHops);
        EXPECT_NEAR(f.latencyS, worst, 1e-9);
    }
}

TEST(TrafficPlanner, AggregationPicksAnOnPathFpgaAndChargesIt)
{
    NetworkGraph g = NineCity();
    RoutePlanner routes(g);
    NetworkCapabilities caps = NetworkCapabilities::ForPattern(ExchangePattern::AGGREGATION);
    TrafficPlanner tp(routes, caps);
    auto m = Nodes(g, {"AMS", "FRA", "LON"});
    auto flows = tp.CliqueFlows(m);
    ASSERT_EQ(flows.size(), 1u);
    const auto& f = flows[0];
    ASSERT_GE(f.aggregator, 0);
    // LON1 sits between AMS1 (1.45 ms) and FRA1 (4.96 ms); AMS1 is at 1.45 / 2.11: AMS1 wins
    // (largest member latency 2.11 ms < 4.96 ms).
    EXPECT_EQ(g.Nodes()[f.aggregator].name, "AMS1");
    std::map<uint32_t, double> usage(f.usage.usage.begin(), f.usage.usage.end());
    EXPECT_DOUBLE_EQ(usage.at(tp.FpgaResource(f.aggregator)), 3.0);
    EXPECT_EQ(f.up.size(), 3u);
    double upMax = 0;
    for (const auto& p : f.up)
    {
        upMax = std::max(upMax, routes.Latency(p));
    }
    EXPECT_GT(f.latencyS, 2 * upMax - 1e-9);

    // No FPGA on the clique's paths is a configuration error.
    NetworkCapabilities only = caps;
    only.fpgaOnAllDevices = false;
    only.fpgaDevices = {"SEO1"};
    TrafficPlanner tp2(routes, only);
    EXPECT_THROW(tp2.CliqueFlows(m), std::invalid_argument);
    only.fpgaDevices = {"NOPE1"};
    EXPECT_THROW(TrafficPlanner(routes, only), std::invalid_argument);
    NetworkCapabilities zero = caps;
    zero.aggregationSlots = 0;
    EXPECT_THROW(TrafficPlanner(routes, zero), std::invalid_argument);
}
