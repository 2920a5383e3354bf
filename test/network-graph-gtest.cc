/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: NetworkGraph construction and RoutePlanner (Boost.Graph) against an independent
// Floyd-Warshall check.

#include "gtest-util.h"

#include "ns3/network-graph.h"
#include "ns3/route-planner.h"
#include "ns3/topology-reader.h"

#include <cmath>
#include <limits>
#include <set>

using namespace ns3;

namespace
{

NetworkGraph
NineCity(const NetworkGraphOptions& o = {})
{
    return NetworkGraph::FromTopology(
        TopologyReader::ReadFile(std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology"),
        o);
}

/// All-pairs shortest latencies (with the planner's per-hop tie-break) by Floyd-Warshall.
std::vector<std::vector<double>>
FloydWarshall(const NetworkGraph& g)
{
    const double inf = std::numeric_limits<double>::infinity();
    std::size_t n = g.NodeCount();
    std::vector<std::vector<double>> d(n, std::vector<double>(n, inf));
    for (std::size_t i = 0; i < n; ++i)
    {
        d[i][i] = 0;
    }
    for (std::size_t e = 0; e < g.EdgeCount(); ++e)
    {
        if (!g.IsEdgeUp(e))
        {
            continue;
        }
        const auto& E = g.Edges()[e];
        d[E.a][E.b] = std::min(d[E.a][E.b], E.latencyS);
        d[E.b][E.a] = d[E.a][E.b];
    }
    for (std::size_t k = 0; k < n; ++k)
    {
        for (std::size_t i = 0; i < n; ++i)
        {
            for (std::size_t j = 0; j < n; ++j)
            {
                d[i][j] = std::min(d[i][j], d[i][k] + d[k][j]);
            }
        }
    }
    return d;
}

} // namespace

TEST(NetworkGraph, NineCityShape)
{
    NetworkGraph g = NineCity();
    EXPECT_EQ(g.IslandCount(), 9u);
    EXPECT_EQ(g.NodeCount(), 9u + 17u);
    EXPECT_EQ(g.EdgeCount(), 17u /*access*/ + 17u /*private*/ + 36u /*public*/);
    std::size_t access = 0;
    for (const auto& e : g.Edges())
    {
        if (e.kind == EdgeKind::ACCESS)
        {
            ++access;
            EXPECT_LT(e.a, g.IslandCount());
            EXPECT_DOUBLE_EQ(e.capacityBps, 10e9); // device edge capacity
        }
    }
    EXPECT_EQ(access, 17u);
    EXPECT_EQ(g.IslandNode("SEO"), 6u);
    EXPECT_EQ(g.ResourceCount(), 140u);

    NetworkGraphOptions o;
    o.accessRateBps = 100e9;
    o.privateRateBps = 100e9;
    o.includePublic = false;
    NetworkGraph h = NineCity(o);
    EXPECT_EQ(h.EdgeCount(), 34u);
    for (const auto& e : h.Edges())
    {
        EXPECT_DOUBLE_EQ(e.capacityBps, 100e9);
    }
}

TEST(RoutePlanner, ShortestPathsMatchFloydWarshall)
{
    NetworkGraph g = NineCity();
    RoutePlanner planner(g);
    auto d = FloydWarshall(g);
    for (uint32_t s = 0; s < g.NodeCount(); ++s)
    {
        for (uint32_t t = 0; t < g.NodeCount(); ++t)
        {
            auto path = planner.ShortestPath(s, t);
            EXPECT_NEAR(planner.Latency(path), d[s][t], 1e-7) << g.Nodes()[s].name << "->"
                                                                << g.Nodes()[t].name;
            // A path is connected and ends at t.
            uint32_t at = s;
            for (const auto& h : path)
            {
                EXPECT_EQ(h.from, at);
                at = h.to;
            }
            EXPECT_EQ(at, t);
        }
    }
    // Known route: SEO reaches the rest only through TYO2, the TYO island and TYO1.
    auto p = planner.ShortestPath(g.IslandNode("SEO"), g.IslandNode("LAX"));
    std::vector<std::string> names;
    for (const auto& h : p)
    {
        names.push_back(g.Nodes()[h.to].name);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"SEO1", "TYO2", "TYO", "TYO1", "LAX1", "LAX"}));
    EXPECT_NEAR(planner.Latency(p), 4.5e-3 + 57.62e-3 + 4 * 10e-6, 1e-9);
    EXPECT_TRUE(planner.IslandsConnected());
}

TEST(RoutePlanner, HopByHopConsistency)
{
    NetworkGraph g = NineCity();
    RoutePlanner planner(g);
    for (uint32_t s = 0; s < g.IslandCount(); ++s)
    {
        for (uint32_t t = 0; t < g.IslandCount(); ++t)
        {
            auto path = planner.ShortestPath(s, t);
            for (std::size_t i = 0; i < path.size(); ++i)
            {
                RoutePlanner::Hop hop;
                ASSERT_TRUE(planner.NextHop(path[i].from, t, hop));
                EXPECT_EQ(hop.edge, path[i].edge);
            }
        }
    }
}

TEST(RoutePlanner, TreesHaveEachEdgeOnceAndReachEveryReceiver)
{
    NetworkGraph g = NineCity();
    RoutePlanner planner(g);
    auto d = FloydWarshall(g);
    std::vector<uint32_t> receivers;
    for (uint32_t i = 1; i < g.IslandCount(); ++i)
    {
        receivers.push_back(i);
    }
    auto tree = planner.Tree(0, receivers);
    std::set<uint32_t> edges;
    std::set<uint32_t> reached = {0};
    std::vector<double> depth(g.NodeCount(), 0);
    for (const auto& h : tree)
    {
        EXPECT_TRUE(edges.insert(h.edge).second) << "edge twice";
        EXPECT_TRUE(reached.count(h.from)) << "parent not reached before child";
        EXPECT_TRUE(reached.insert(h.to).second) << "node reached twice";
        depth[h.to] = depth[h.from] + g.Edges()[h.edge].latencyS;
    }
    for (uint32_t r : receivers)
    {
        EXPECT_TRUE(reached.count(r));
        EXPECT_NEAR(depth[r], d[0][r], 1e-7);
    }
    // A tree to one receiver is its shortest path.
    auto one = planner.Tree(0, {5});
    EXPECT_NEAR(planner.Latency(one), d[0][5], 1e-7);
}

TEST(RoutePlanner, DownEdgesAreAvoidedAndDisconnectionIsReported)
{
    NetworkGraph g = NineCity();
    uint32_t seo1 = g.NodeByName("SEO1");
    uint32_t tyo2 = g.NodeByName("TYO2");
    auto e = g.FindEdge(seo1, tyo2);
    ASSERT_GE(e, 0);
    g.SetEdgeUp(static_cast<uint32_t>(e), false);
    RoutePlanner planner(g);
    auto p = planner.ShortestPath(g.IslandNode("SEO"), g.IslandNode("TYO"));
    ASSERT_EQ(p.size(), 1u); // the public path SEO-TYO
    EXPECT_EQ(g.Edges()[p[0].edge].kind, EdgeKind::PUBLIC);
    EXPECT_NEAR(planner.Latency(p), 15.41e-3, 1e-12);

    NetworkGraphOptions o;
    o.includePublic = false;
    NetworkGraph h = NineCity(o);
    h.SetEdgeUp(static_cast<uint32_t>(h.FindEdge(h.NodeByName("SEO1"), h.NodeByName("TYO2"))),
                false);
    RoutePlanner cut(h);
    EXPECT_FALSE(cut.IslandsConnected());
    EXPECT_THROW(cut.ShortestPath(h.IslandNode("SEO"), h.IslandNode("AMS")), std::runtime_error);
}
