/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: NetworkGraph construction (metro fabric, exchanges) and RoutePlanner (Boost.Graph)
// against an independent reference of the non-transit rule; routing metrics on hand-computed
// graphs.

#include "gtest-util.h"

#include "ns3/network-graph.h"
#include "ns3/route-planner.h"
#include "ns3/synthetic-topology.h"
#include "ns3/topology-reader.h"

#include <cmath>
#include <limits>
#include <set>

using namespace ns3;

namespace
{

Topology
NineCityTopology()
{
    return TopologyReader::ReadFile(std::string(INTELLIGENT_NETWORK_DATA_DIR) +
                                    "/nine-city.topology");
}

NetworkGraph
NineCity(NetworkGraphOptions o = {})
{
    o.latencyCheck = LatencyCheckMode::OFF; // the check has its own tests
    return NetworkGraph::FromTopology(NineCityTopology(), o);
}

const double kInf = std::numeric_limits<double>::infinity();

/**
 * Independent reference of the shortest legal latencies between islands and devices, written
 * from the rule's statement rather than from the planner: devices and exchanges are the only
 * transit nodes (all-pairs by Floyd-Warshall over private and exchange edges); an island
 * reaches the transit network through its access link and one metro link of its city, or
 * another island directly: access, uplink, the public path between their cities, uplink,
 * access.
 */
class Reference
{
  public:
    explicit Reference(const NetworkGraph& g)
        : m_g(g),
          m_d(g.NodeCount(), std::vector<double>(g.NodeCount(), kInf))
    {
        const std::size_t n = g.NodeCount();
        for (std::size_t i = 0; i < n; ++i)
        {
            m_d[i][i] = 0;
        }
        for (std::size_t e = 0; e < g.EdgeCount(); ++e)
        {
            const auto& E = g.Edges()[e];
            if (!g.IsEdgeUp(e))
            {
                continue;
            }
            if (E.kind == EdgeKind::PRIVATE || E.kind == EdgeKind::EXCHANGE)
            {
                m_d[E.a][E.b] = std::min(m_d[E.a][E.b], E.latencyS);
                m_d[E.b][E.a] = m_d[E.a][E.b];
            }
        }
        for (std::size_t k = 0; k < n; ++k)
        {
            for (std::size_t i = 0; i < n; ++i)
            {
                for (std::size_t j = 0; j < n; ++j)
                {
                    m_d[i][j] = std::min(m_d[i][j], m_d[i][k] + m_d[k][j]);
                }
            }
        }
    }

    /// Shortest legal latency between two islands or devices.
    double Between(uint32_t s, uint32_t t) const
    {
        if (s == t)
        {
            return 0;
        }
        bool si = IsIsland(s);
        bool ti = IsIsland(t);
        if (!si && !ti)
        {
            return m_d[s][t];
        }
        if (si && !ti)
        {
            return Between(t, s);
        }
        // t is an island: enter it from a device of its city.
        double best = kInf;
        for (const auto& [dev, legT] : Legs(t))
        {
            if (si)
            {
                for (const auto& [devS, legS] : Legs(s))
                {
                    best = std::min(best, legS + m_d[devS][dev] + legT);
                }
            }
            else
            {
                best = std::min(best, m_d[s][dev] + legT);
            }
        }
        if (si)
        {
            best = std::min(best,
                            Access(s) + Uplink(s) + Public(s, t) + Uplink(t) + Access(t));
        }
        return best;
    }

  private:
    bool IsIsland(uint32_t n) const
    {
        return m_g.Nodes()[n].kind == NodeKind::ISLAND;
    }

    double Access(uint32_t island) const
    {
        for (const auto& e : m_g.Edges())
        {
            if (e.kind == EdgeKind::ACCESS && (e.a == island || e.b == island))
            {
                return e.latencyS;
            }
        }
        return kInf;
    }

    double Uplink(uint32_t island) const
    {
        for (const auto& e : m_g.Edges())
        {
            if (e.kind == EdgeKind::UPLINK && m_g.Nodes()[e.a].city == m_g.Nodes()[island].city)
            {
                return e.latencyS;
            }
        }
        return kInf;
    }

    /// (device of the island's city, latency island -> device through the metro node).
    std::vector<std::pair<uint32_t, double>> Legs(uint32_t island) const
    {
        std::vector<std::pair<uint32_t, double>> out;
        for (std::size_t i = 0; i < m_g.EdgeCount(); ++i)
        {
            const auto& e = m_g.Edges()[i];
            uint32_t dev = m_g.Nodes()[e.a].kind == NodeKind::DEVICE ? e.a : e.b;
            if (e.kind == EdgeKind::METRO && m_g.IsEdgeUp(i) &&
                m_g.Nodes()[dev].city == m_g.Nodes()[island].city)
            {
                out.emplace_back(dev, Access(island) + e.latencyS);
            }
        }
        return out;
    }

    double Public(uint32_t a, uint32_t b) const
    {
        int64_t e = m_g.FindEdgeByNames(m_g.Nodes()[a].name, m_g.Nodes()[b].name);
        return e >= 0 && m_g.Edges()[e].kind == EdgeKind::PUBLIC && m_g.IsEdgeUp(e)
                   ? m_g.Edges()[e].latencyS
                   : kInf;
    }

    const NetworkGraph& m_g;
    std::vector<std::vector<double>> m_d;
};

/// The rule, checked on a path: no island inside; a metro or internet node of city c only in
/// an unbroken run of c's access nodes right after c's island (the source) or right before it
/// (the destination). Empty string if legal.
std::string
Violation(const NetworkGraph& g, uint32_t src, const RoutePlanner::Path& path)
{
    std::vector<uint32_t> v{src};
    for (const auto& h : path)
    {
        v.push_back(h.to);
    }
    const auto& N = g.Nodes();
    auto access = [&](std::size_t i, const std::string& city) {
        return (N[v[i]].kind == NodeKind::METRO || N[v[i]].kind == NodeKind::INTERNET) &&
               N[v[i]].city == city;
    };
    for (std::size_t i = 1; i + 1 < v.size(); ++i)
    {
        const GraphNode& n = N[v[i]];
        if (n.kind == NodeKind::ISLAND)
        {
            return "island " + n.name + " is a transit node";
        }
        if (n.kind == NodeKind::METRO || n.kind == NodeKind::INTERNET)
        {
            bool first = N[v[0]].kind == NodeKind::ISLAND && N[v[0]].city == n.city;
            for (std::size_t j = 1; first && j < i; ++j)
            {
                first = access(j, n.city);
            }
            bool last = N[v.back()].kind == NodeKind::ISLAND && N[v.back()].city == n.city;
            for (std::size_t j = i + 1; last && j + 1 < v.size(); ++j)
            {
                last = access(j, n.city);
            }
            if (!first && !last)
            {
                return n.name + " is a transit node";
            }
        }
    }
    return "";
}

std::vector<std::string>
Names(const NetworkGraph& g, const RoutePlanner::Path& p)
{
    std::vector<std::string> names;
    for (const auto& h : p)
    {
        names.push_back(g.Nodes()[h.to].name);
    }
    return names;
}

/// Every island and device of \p g (the nodes traffic starts or ends at).
std::vector<uint32_t>
Endpoints(const NetworkGraph& g)
{
    std::vector<uint32_t> out;
    for (uint32_t n = 0; n < g.NodeCount(); ++n)
    {
        NodeKind k = g.Nodes()[n].kind;
        if (k == NodeKind::ISLAND || k == NodeKind::DEVICE)
        {
            out.push_back(n);
        }
    }
    return out;
}

} // namespace

TEST(NetworkGraph, NineCityShape)
{
    NetworkGraph g = NineCity();
    const std::size_t exchanges = 6; // FRA, LAX, LON, NYC, SIN, TYO have two devices or more
    EXPECT_EQ(g.IslandCount(), 9u);
    EXPECT_EQ(g.NodeCount(), 9u + 9u + 17u + exchanges + 9u /*internet*/);
    std::map<EdgeKind, std::size_t> count;
    std::vector<std::size_t> degree(g.NodeCount(), 0);
    for (const auto& e : g.Edges())
    {
        ++count[e.kind];
        ++degree[e.a];
        ++degree[e.b];
        if (e.kind == EdgeKind::ACCESS)
        {
            EXPECT_LT(e.a, g.IslandCount());
            EXPECT_EQ(g.Nodes()[e.b].kind, NodeKind::METRO);
            EXPECT_EQ(g.Nodes()[e.b].city, g.Nodes()[e.a].city);
            EXPECT_DOUBLE_EQ(e.latencyS, 10e-6);
        }
        if (e.kind == EdgeKind::METRO || e.kind == EdgeKind::EXCHANGE)
        {
            EXPECT_EQ(g.Nodes()[e.a].kind, NodeKind::DEVICE);
            EXPECT_EQ(g.Nodes()[e.b].city, g.Nodes()[e.a].city);
            EXPECT_DOUBLE_EQ(e.capacityBps, 10e9); // the device's edge capacity
            EXPECT_DOUBLE_EQ(e.latencyS, e.kind == EdgeKind::METRO ? 50e-6 : 0.25e-3);
        }
        if (e.kind == EdgeKind::PUBLIC)
        {
            EXPECT_EQ(g.Nodes()[e.a].kind, NodeKind::INTERNET);
            EXPECT_EQ(g.Nodes()[e.b].kind, NodeKind::INTERNET);
        }
        if (e.kind == EdgeKind::UPLINK)
        {
            EXPECT_EQ(g.Nodes()[e.a].kind, NodeKind::METRO);
            EXPECT_EQ(g.Nodes()[e.b].kind, NodeKind::INTERNET);
            EXPECT_EQ(g.Nodes()[e.b].city, g.Nodes()[e.a].city);
            EXPECT_DOUBLE_EQ(e.capacityBps, 8e9); // the city's eight 1 Gbps public paths
            EXPECT_DOUBLE_EQ(e.latencyS, 1e-6);
        }
    }
    EXPECT_EQ(count[EdgeKind::ACCESS], 9u);
    EXPECT_EQ(count[EdgeKind::METRO], 17u);
    EXPECT_EQ(count[EdgeKind::PRIVATE], 17u);
    EXPECT_EQ(count[EdgeKind::EXCHANGE], 2u + 2u + 2u + 4u + 2u + 2u);
    EXPECT_EQ(count[EdgeKind::PUBLIC], 36u);
    EXPECT_EQ(count[EdgeKind::UPLINK], 9u);
    for (uint32_t i = 0; i < g.IslandCount(); ++i)
    {
        EXPECT_EQ(degree[i], 1u) << g.Nodes()[i].name << ": an island has exactly one link";
    }
    EXPECT_EQ(g.IslandNode("SEO"), 6u);
    EXPECT_EQ(g.MetroNode("SEO"), 9 + 6);
    EXPECT_EQ(g.Nodes()[9 + 6].name, "SEO-metro");
    EXPECT_EQ(g.NodeByName("LON-exchange"), 9 + 9 + 17 + 2); // FRA LAX LON NYC SIN TYO
    EXPECT_EQ(g.InternetNode("SEO"), static_cast<int64_t>(g.NodeCount() - 9 + 6));
    for (uint32_t n = 9; n < g.NodeCount(); ++n)
    {
        if (g.Nodes()[n].kind == NodeKind::METRO) // island, devices, uplink: not one per city
        {
            std::size_t devices = 0;
            for (const auto& m : g.Nodes())
            {
                devices += m.kind == NodeKind::DEVICE && m.city == g.Nodes()[n].city ? 1 : 0;
            }
            EXPECT_EQ(degree[n], 2u + devices) << g.Nodes()[n].name;
        }
        if (g.Nodes()[n].kind == NodeKind::INTERNET) // the uplink and eight public paths
        {
            EXPECT_EQ(degree[n], 1u + 8u) << g.Nodes()[n].name;
        }
    }
    EXPECT_EQ(g.IslandOf(g.NodeByName("NYC4")), g.IslandNode("NYC"));
    EXPECT_EQ(g.ResourceCount(), 2 * g.EdgeCount());

    // Named lookups: a public path by its two cities, other links by their nodes.
    int64_t pub = g.FindEdgeByNames("SEO", "TYO");
    ASSERT_GE(pub, 0);
    EXPECT_EQ(g.Edges()[pub].kind, EdgeKind::PUBLIC);
    EXPECT_EQ(g.EdgeName(pub), "SEO-TYO");
    EXPECT_DOUBLE_EQ(g.Edges()[pub].latencyS, 15.41e-3);
    EXPECT_EQ(g.Edges()[g.FindEdgeByNames("SEO1", "TYO2")].kind, EdgeKind::PRIVATE);
    EXPECT_EQ(g.Edges()[g.FindEdgeByNames("AMS", "AMS-metro")].kind, EdgeKind::ACCESS);
    EXPECT_EQ(g.FindEdgeByNames("AMS", "AMS1"), -1);
    EXPECT_EQ(g.FindEdgeByNames("AMS", "nowhere"), -1);

    NetworkGraphOptions o;
    o.exchange = false;
    o.includePublic = false;
    EXPECT_EQ(NineCity(o).NodeCount(), 9u + 9u + 17u);
}

TEST(NetworkGraph, AccessLinkCarriesEverythingItsMetroCan)
{
    // Default: the sum of the metro node's other links, so the host is never the bottleneck.
    NetworkGraph g = NineCity();
    auto access = [](const NetworkGraph& h, const std::string& city) {
        return h.Edges()[h.FindEdgeByNames(city, city + "-metro")].capacityBps;
    };
    EXPECT_DOUBLE_EQ(access(g, "AMS"), 10e9 + 8 * 1e9);     // one device, eight public paths
    EXPECT_DOUBLE_EQ(access(g, "NYC"), 4 * 10e9 + 8 * 1e9); // four devices
    NetworkGraphOptions o;
    o.includePublic = false;
    o.metroRateBps = 25e9;
    NetworkGraph h = NineCity(o);
    EXPECT_DOUBLE_EQ(access(h, "NYC"), 4 * 25e9);
    EXPECT_DOUBLE_EQ(h.Edges()[h.FindEdgeByNames("NYC-metro", "NYC3")].capacityBps, 25e9);
    o.accessRateBps = 100e9;
    o.privateRateBps = 100e9;
    o.exchangeRateBps = 40e9;
    NetworkGraph k = NineCity(o);
    EXPECT_DOUBLE_EQ(access(k, "NYC"), 100e9);
    EXPECT_EQ(k.EdgeCount(), 9u + 17u + 17u + 14u); // no uplinks without public paths
    for (const auto& e : k.Edges())
    {
        if (e.kind == EdgeKind::PRIVATE)
        {
            EXPECT_DOUBLE_EQ(e.capacityBps, 100e9);
        }
        if (e.kind == EdgeKind::EXCHANGE)
        {
            EXPECT_DOUBLE_EQ(e.capacityBps, 40e9);
        }
    }
}

TEST(NetworkGraph, BadOptionsAreRejectedByName)
{
    auto expectBad = [](const std::function<void(NetworkGraphOptions&)>& set,
                        const std::string& name) {
        NetworkGraphOptions o;
        set(o);
        testutil::ExpectThrowContaining<std::invalid_argument>([&] { o.Validate(); }, name);
        testutil::ExpectThrowContaining<std::invalid_argument>([&] { NineCity(o); }, name);
    };
    expectBad([](NetworkGraphOptions& o) { o.metroLatencyS = 0; }, "metroLatency");
    expectBad([](NetworkGraphOptions& o) { o.accessLatencyS = -1; }, "accessLatency");
    expectBad([](NetworkGraphOptions& o) { o.exchangeLatencyS = std::nan(""); }, "exchangeLatency");
    expectBad([](NetworkGraphOptions& o) { o.metroRateBps = -1; }, "metroRate");
    expectBad([](NetworkGraphOptions& o) { o.uplinkLatencyS = 0; }, "uplinkLatency");
    expectBad([](NetworkGraphOptions& o) { o.accessRateBps = kInf; }, "accessRate");
    expectBad([](NetworkGraphOptions& o) { o.routing.hopCostS = -1e-3; }, "hopCost");
    expectBad([](NetworkGraphOptions& o) { o.routing.capacityCostBits = kInf; }, "capacityCost");
    EXPECT_NO_THROW(NetworkGraphOptions().Validate());
}

TEST(NetworkGraph, SummedCapacityBeyondNs3sLargestRateIsRefused)
{
    // Every public path in range (3e18 bit/s), but AMS's uplink and access link carry the sum
    // of its eight: 2.4e19, beyond the 64-bit integer of ns-3's DataRate (before: SIGFPE at
    // the first packet). Refused by name at graph construction, before any simulation.
    NetworkGraphOptions o;
    o.publicRateBps = 3e18;
    testutil::ExpectThrowContaining<std::invalid_argument>([&] { NineCity(o); },
                                                           "is not below 1.8e19 bit/s");
    o.publicRateBps = 1e18; // 8e18 at AMS: fine
    EXPECT_NO_THROW(NineCity(o));
}

TEST(RoutePlanner, ShortestPathsMatchTheIndependentReference)
{
    for (bool exchange : {true, false})
    {
        NetworkGraphOptions o;
        o.exchange = exchange;
        NetworkGraph g = NineCity(o);
        RoutePlanner planner(g);
        Reference ref(g);
        for (uint32_t s : Endpoints(g))
        {
            for (uint32_t t : Endpoints(g))
            {
                double expected = ref.Between(s, t);
                std::string what = g.Nodes()[s].name + "->" + g.Nodes()[t].name;
                ASSERT_EQ(planner.Reachable(s, t), std::isfinite(expected)) << what;
                if (!std::isfinite(expected))
                {
                    continue;
                }
                auto path = planner.ShortestPath(s, t);
                EXPECT_NEAR(planner.Latency(path), expected, 1e-7) << what;
                EXPECT_EQ(Violation(g, s, path), "") << what;
                uint32_t at = s;
                for (const auto& h : path)
                {
                    EXPECT_EQ(h.from, at);
                    at = h.to;
                }
                EXPECT_EQ(at, t);
            }
        }
    }
}

TEST(RoutePlanner, KnownRoutesThroughTheMetroFabric)
{
    NetworkGraph g = NineCity();
    RoutePlanner planner(g);
    // SEO's one private link ends at TYO2; TYO's exchange (not TYO's island, not its metro)
    // joins it to TYO1.
    auto p = planner.ShortestPath(g.IslandNode("SEO"), g.IslandNode("LAX"));
    EXPECT_EQ(Names(g, p), (std::vector<std::string>{"SEO-metro", "SEO1", "TYO2", "TYO-exchange",
                                                     "TYO1", "LAX1", "LAX-metro", "LAX"}));
    EXPECT_NEAR(planner.Latency(p), 4.5e-3 + 57.62e-3 + 2 * 10e-6 + 2 * 50e-6 + 2 * 0.25e-3, 1e-9);
    // Intra-city private links carry what crosses their city: FRA1-FRA2 and SIN1-SIN2 ...
    p = planner.ShortestPath(g.IslandNode("AMS"), g.IslandNode("TYO"));
    EXPECT_EQ(Names(g, p), (std::vector<std::string>{"AMS-metro", "AMS1", "FRA1", "FRA2", "SIN2",
                                                     "SIN1", "TYO1", "TYO-metro", "TYO"}));
    // ... and NYC4 joins NYC1, NYC2 and NYC3.
    p = planner.ShortestPath(g.IslandNode("LAX"), g.IslandNode("LON"));
    EXPECT_EQ(Names(g, p), (std::vector<std::string>{"LAX-metro", "LAX1", "NYC1", "NYC4", "NYC2",
                                                     "LON2", "LON-metro", "LON"}));
    EXPECT_TRUE(planner.IslandsConnected());
}

TEST(RoutePlanner, HopByHopConsistency)
{
    NetworkGraph g = NineCity();
    RoutePlanner planner(g);
    for (uint32_t t = 0; t < g.NodeCount(); ++t)
    {
        for (uint32_t s = 0; s < g.NodeCount(); ++s)
        {
            if (!planner.Reachable(s, t))
            {
                continue;
            }
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

TEST(RoutePlanner, NoIslandOrMetroIsTransitOnLargeSyntheticNetworks)
{
    SyntheticTopologyOptions so;
    so.cities = 32;
    so.maxDevicesPerCity = 3;
    NetworkGraph g = NetworkGraph::FromTopology(SyntheticTopology::Generate(so));
    RoutePlanner planner(g);
    std::size_t checked = 0;
    for (uint32_t s : Endpoints(g))
    {
        for (uint32_t t : Endpoints(g))
        {
            if (s != t && planner.Reachable(s, t))
            {
                ASSERT_EQ(Violation(g, s, planner.ShortestPath(s, t)), "")
                    << g.Nodes()[s].name << "->" << g.Nodes()[t].name;
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 1000u);
    EXPECT_TRUE(planner.IslandsConnected());
}

/// Where transit through an island, a foreign metro node or a metro node between its own
/// devices would be cheapest, the planner takes the long legal way, or none.
TEST(RoutePlanner, TransitThatWouldBeCheapestIsNotTaken)
{
    Topology t("hand");
    for (const char* c : {"A", "B", "C"})
    {
        t.AddCity(City{c, c, std::nan(""), std::nan("")});
    }
    t.AddDevice(Device{"A1", "A", 10e9, ""});
    t.AddDevice(Device{"B1", "B", 10e9, ""});
    t.AddDevice(Device{"B2", "B", 10e9, ""});
    t.AddDevice(Device{"C1", "C", 10e9, ""});
    t.AddLink(TopologyLink{LinkKind::PRIVATE, "A1", "B1", 1e-3, 10e9});
    t.AddLink(TopologyLink{LinkKind::PRIVATE, "B2", "C1", 1e-3, 10e9});
    t.AddLink(TopologyLink{LinkKind::PRIVATE, "A1", "C1", 90e-3, 10e9});
    t.AddLink(TopologyLink{LinkKind::PUBLIC, "A", "B", 2e-3, 1e9});
    t.AddLink(TopologyLink{LinkKind::PUBLIC, "B", "C", 2e-3, 1e9});
    t.AddLink(TopologyLink{LinkKind::PUBLIC, "A", "C", 50e-3, 1e9});
    NetworkGraphOptions o;
    o.exchange = false;
    NetworkGraph g = NetworkGraph::FromTopology(t, o);
    RoutePlanner planner(g);
    // A -> C: through B's metro (A1 B1 B-metro B2 C1) or B's internet node (public A-B then
    // B-C) would take ~4 ms; the legal routes are the direct public path (50 ms) or A1-C1
    // (90 ms).
    auto p = planner.ShortestPath(g.IslandNode("A"), g.IslandNode("C"));
    EXPECT_EQ(Names(g, p),
              (std::vector<std::string>{"A-metro", "A-internet", "C-internet", "C-metro", "C"}));
    EXPECT_NEAR(planner.Latency(p), 50e-3 + 2 * 10e-6 + 2 * 1e-6, 1e-9);
    // B1 -> B2 may not cross B's metro node: the only legal way is around through A and C.
    auto q = planner.ShortestPath(g.NodeByName("B1"), g.NodeByName("B2"));
    EXPECT_EQ(Names(g, q), (std::vector<std::string>{"A1", "C1", "B2"}));
    // With an exchange, B's devices meet there (0.5 ms) instead.
    o.exchange = true;
    NetworkGraph h = NetworkGraph::FromTopology(t, o);
    RoutePlanner withExchange(h);
    EXPECT_EQ(Names(h, withExchange.ShortestPath(h.NodeByName("B1"), h.NodeByName("B2"))),
              (std::vector<std::string>{"B-exchange", "B2"}));
    EXPECT_EQ(Names(h, withExchange.ShortestPath(h.IslandNode("A"), h.IslandNode("C"))),
              (std::vector<std::string>{"A-metro", "A1", "B1", "B-exchange", "B2", "C1",
                                        "C-metro", "C"}));

    // Islands that could only meet through another island are not connected.
    NetworkGraph hosts;
    for (const char* n : {"X", "Y", "Z"})
    {
        hosts.AddNode(GraphNode{n, NodeKind::ISLAND, n});
    }
    hosts.AddEdge(GraphEdge{0, 1, 1e-3, 1e9, EdgeKind::PUBLIC});
    hosts.AddEdge(GraphEdge{1, 2, 1e-3, 1e9, EdgeKind::PUBLIC});
    RoutePlanner alone(hosts);
    EXPECT_TRUE(alone.Reachable(0, 1));
    EXPECT_FALSE(alone.Reachable(0, 2));
    EXPECT_FALSE(alone.IslandsConnected());
    EXPECT_THROW(alone.ShortestPath(0, 2), std::runtime_error);
}

TEST(RoutePlanner, TreesHaveEachEdgeOnceAndReachEveryReceiver)
{
    NetworkGraph g = NineCity();
    RoutePlanner planner(g);
    Reference ref(g);
    for (uint32_t root : {0u, 6u, g.NodeByName("FRA2")})
    {
        std::vector<uint32_t> receivers;
        for (uint32_t i = 0; i < g.IslandCount(); ++i)
        {
            if (i != root)
            {
                receivers.push_back(i);
            }
        }
        auto tree = planner.Tree(root, receivers);
        std::set<uint32_t> edges;
        std::set<uint32_t> reached = {root};
        std::vector<double> depth(g.NodeCount(), 0);
        for (const auto& h : tree)
        {
            EXPECT_TRUE(edges.insert(h.edge).second) << "edge twice";
            EXPECT_TRUE(reached.count(h.from)) << "parent not reached before child";
            EXPECT_TRUE(reached.insert(h.to).second) << "node reached twice";
            EXPECT_NE(g.Nodes()[h.from].kind == NodeKind::ISLAND && h.from != root, true)
                << "an island forwards";
            depth[h.to] = depth[h.from] + g.Edges()[h.edge].latencyS;
        }
        for (uint32_t r : receivers)
        {
            EXPECT_TRUE(reached.count(r));
            EXPECT_NEAR(depth[r], ref.Between(root, r), 1e-7) << g.Nodes()[r].name;
        }
    }
    // A tree to one receiver is its shortest path.
    auto one = planner.Tree(0, {5});
    EXPECT_NEAR(planner.Latency(one), ref.Between(0, 5), 1e-7);
}

TEST(RoutePlanner, DownEdgesAreAvoidedAndDisconnectionIsReported)
{
    NetworkGraph g = NineCity();
    auto e = g.FindEdgeByNames("SEO1", "TYO2");
    ASSERT_GE(e, 0);
    g.SetEdgeUp(static_cast<uint32_t>(e), false);
    RoutePlanner planner(g);
    auto p = planner.ShortestPath(g.IslandNode("SEO"), g.IslandNode("TYO"));
    EXPECT_EQ(Names(g, p), (std::vector<std::string>{"SEO-metro", "SEO-internet", "TYO-internet",
                                                     "TYO-metro", "TYO"}));
    EXPECT_EQ(g.Edges()[p[2].edge].kind, EdgeKind::PUBLIC);
    EXPECT_NEAR(planner.Latency(p), 15.41e-3 + 2 * 10e-6 + 2 * 1e-6, 1e-12);

    NetworkGraphOptions o;
    o.includePublic = false;
    NetworkGraph h = NineCity(o);
    h.SetEdgeUp(static_cast<uint32_t>(h.FindEdgeByNames("SEO1", "TYO2")), false);
    RoutePlanner cut(h);
    EXPECT_FALSE(cut.IslandsConnected());
    EXPECT_THROW(cut.ShortestPath(h.IslandNode("SEO"), h.IslandNode("AMS")), std::runtime_error);
}

namespace
{

/// P - T directly (10 ms, 1 Gbps) or P - Q - R - T (three 10 Gbps hops of \p hopLatencyS).
NetworkGraph
TwoRoutes(double hopLatencyS, const RoutingOptions& routing)
{
    NetworkGraph g;
    for (const char* n : {"P", "Q", "R", "T"})
    {
        g.AddNode(GraphNode{n, NodeKind::DEVICE, n});
    }
    g.AddEdge(GraphEdge{0, 3, 10e-3, 1e9, EdgeKind::PRIVATE});
    g.AddEdge(GraphEdge{0, 1, hopLatencyS, 10e9, EdgeKind::PRIVATE});
    g.AddEdge(GraphEdge{1, 2, hopLatencyS, 10e9, EdgeKind::PRIVATE});
    g.AddEdge(GraphEdge{2, 3, hopLatencyS, 10e9, EdgeKind::PRIVATE});
    g.SetRouting(routing);
    return g;
}

std::size_t
HopsFromPToT(double hopLatencyS, RoutingMetric metric)
{
    RoutingOptions r;
    r.metric = metric;
    r.hopCostS = 1e-3;
    r.capacityCostBits = 8e6;
    RoutePlanner planner(TwoRoutes(hopLatencyS, r));
    return planner.ShortestPath(0, 3).size();
}

} // namespace

TEST(RoutePlanner, RoutingMetricsChooseTheHandComputedPath)
{
    // Three 3 ms hops (9 ms) against one 10 ms hop.
    //   latency:          9 < 10                                   -> three hops
    //   latency+hops:     9 + 3 x 1 = 12 > 10 + 1 = 11             -> one hop
    //   latency+capacity: 9 + 3 x 8e6/10e9 = 11.4 < 10 + 8e6/1e9 = 18 -> three hops
    EXPECT_EQ(HopsFromPToT(3e-3, RoutingMetric::LATENCY), 3u);
    EXPECT_EQ(HopsFromPToT(3e-3, RoutingMetric::LATENCY_HOPS), 1u);
    EXPECT_EQ(HopsFromPToT(3e-3, RoutingMetric::LATENCY_CAPACITY), 3u);
    // 3.5 ms hops (10.5 ms): latency alone now throws the flow onto the 1 Gbps hop; with the
    // capacity term it stays on 10 Gbps (10.5 + 2.4 = 12.9 < 18).
    EXPECT_EQ(HopsFromPToT(3.5e-3, RoutingMetric::LATENCY), 1u);
    EXPECT_EQ(HopsFromPToT(3.5e-3, RoutingMetric::LATENCY_CAPACITY), 3u);

    RoutingOptions r;
    r.metric = RoutingMetric::LATENCY_CAPACITY;
    r.capacityCostBits = 8e6;
    RoutePlanner planner(TwoRoutes(3.5e-3, r));
    auto p = planner.ShortestPath(0, 3);
    EXPECT_NEAR(planner.Cost(p), 10.5e-3 + 3 * 0.8e-3, 1e-12);
    EXPECT_NEAR(planner.Latency(p), 10.5e-3, 1e-12);
    EXPECT_NEAR(planner.EdgeCost(0), 18e-3, 1e-12);
    r.metric = RoutingMetric::LATENCY_HOPS;
    r.hopCostS = 1e-3;
    EXPECT_NEAR(RoutePlanner(TwoRoutes(3.5e-3, r)).EdgeCost(0), 11e-3, 1e-12);
}

TEST(RoutePlanner, RoutingMetricNamesAndDefaults)
{
    const RoutingOptions d;
    EXPECT_EQ(d.metric, RoutingMetric::LATENCY);
    EXPECT_DOUBLE_EQ(d.hopCostS, 1e-4);
    EXPECT_DOUBLE_EQ(d.capacityCostBits, 8e6);
    for (RoutingMetric m :
         {RoutingMetric::LATENCY, RoutingMetric::LATENCY_HOPS, RoutingMetric::LATENCY_CAPACITY})
    {
        EXPECT_EQ(RoutingOptions::ParseMetric(RoutingOptions::MetricName(m)), m);
    }
    EXPECT_EQ(RoutingOptions::ParseMetric("latency+capacity"), RoutingMetric::LATENCY_CAPACITY);
    testutil::ExpectThrowContaining<std::invalid_argument>(
        [] { RoutingOptions::ParseMetric("hops"); },
        "routingMetric");
    // The graph carries the metric to every planner built on it.
    NetworkGraphOptions o;
    o.routing.metric = RoutingMetric::LATENCY_HOPS;
    EXPECT_EQ(NineCity(o).Routing().metric, RoutingMetric::LATENCY_HOPS);
    NetworkGraph g = NineCity();
    RoutingOptions bad;
    bad.hopCostS = -1;
    EXPECT_THROW(g.SetRouting(bad), std::invalid_argument);
}
