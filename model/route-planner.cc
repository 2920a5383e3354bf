/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "route-planner.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/visitors.hpp>
#include <boost/property_map/property_map.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Added to every edge weight so that, among equal-latency paths, fewer hops win.
const double kHopPenaltyS = 1e-9;

using BoostGraph = boost::adjacency_list<boost::vecS,
                                         boost::vecS,
                                         boost::directedS,
                                         boost::no_property,
                                         boost::property<boost::edge_weight_t,
                                                         double,
                                                         boost::property<boost::edge_index_t,
                                                                         uint32_t>>>;

/// Dijkstra visitor recording, for every vertex, the tree edge that last relaxed it.
struct PredecessorEdgeRecorder : public boost::base_visitor<PredecessorEdgeRecorder>
{
    using EdgeDesc = boost::graph_traits<BoostGraph>::edge_descriptor;
    using event_filter = boost::on_edge_relaxed;
    std::vector<EdgeDesc>* pred;
    std::vector<bool>* has;

    void operator()(EdgeDesc e, const BoostGraph& gr)
    {
        auto v = boost::target(e, gr);
        (*pred)[v] = e;
        (*has)[v] = true;
    }
};

} // namespace

RoutePlanner::RoutePlanner(const NetworkGraph& graph)
    : m_graph(graph)
{
    m_graph.Routing().Validate();
    for (uint32_t n = 0; n < m_graph.NodeCount(); ++n)
    {
        m_islandOf.push_back(m_graph.IslandOf(n));
    }
}

bool
RoutePlanner::MayForward(uint32_t w, uint32_t u, uint32_t dst) const
{
    if (u == dst)
    {
        return true;
    }
    const auto& nodes = m_graph.Nodes();
    const NodeKind ku = nodes[u].kind;
    const NodeKind kw = nodes[w].kind;
    // Islands are hosts: never an intermediate node.
    if (ku == NodeKind::ISLAND)
    {
        return false;
    }
    auto access = [](NodeKind k) { return k == NodeKind::METRO || k == NodeKind::INTERNET; };
    const bool toIsland = nodes[dst].kind == NodeKind::ISLAND;
    // In the last-hop region of an island: internet node -> metro node -> island, nothing else.
    if (access(kw) && toIsland && m_islandOf[w] == dst)
    {
        return kw == NodeKind::INTERNET && ku == NodeKind::METRO && m_islandOf[u] == dst;
    }
    if (access(ku))
    {
        if (toIsland && m_islandOf[u] == dst)
        {
            return true; // entering the destination's last-hop region
        }
        if (kw == NodeKind::ISLAND)
        {
            return m_islandOf[u] == w; // the island's first hop
        }
        // Its metro node hands an island's traffic to the internet node (first-hop region).
        return kw == NodeKind::METRO && ku == NodeKind::INTERNET && m_islandOf[u] == m_islandOf[w];
    }
    return true;
}

double
RoutePlanner::EdgeCost(uint32_t edge) const
{
    const GraphEdge& e = m_graph.Edges().at(edge);
    const RoutingOptions& r = m_graph.Routing();
    switch (r.metric)
    {
    case RoutingMetric::LATENCY:
        return e.latencyS;
    case RoutingMetric::LATENCY_HOPS:
        return e.latencyS + r.hopCostS;
    case RoutingMetric::LATENCY_CAPACITY:
        return e.latencyS + r.capacityCostBits / e.capacityBps;
    }
    return e.latencyS;
}

double
RoutePlanner::Cost(const Path& path) const
{
    double s = 0;
    for (const auto& h : path)
    {
        s += EdgeCost(h.edge);
    }
    return s;
}

const NetworkGraph&
RoutePlanner::Graph() const
{
    return m_graph;
}

const std::vector<int64_t>&
RoutePlanner::TreeOf(uint32_t root) const
{
    auto it = m_trees.find(root);
    if (it != m_trees.end())
    {
        return it->second;
    }
    const std::size_t n = m_graph.NodeCount();
    BoostGraph g(n);
    // Arcs u -> w that Dijkstra from the root relaxes: w may use u as its next hop.
    for (uint32_t i = 0; i < m_graph.EdgeCount(); ++i)
    {
        if (!m_graph.IsEdgeUp(i))
        {
            continue;
        }
        const auto& e = m_graph.Edges()[i];
        double w = EdgeCost(i) + kHopPenaltyS;
        if (MayForward(e.b, e.a, root))
        {
            boost::add_edge(e.a, e.b, BoostGraph::edge_property_type(w, i), g);
        }
        if (MayForward(e.a, e.b, root))
        {
            boost::add_edge(e.b, e.a, BoostGraph::edge_property_type(w, i), g);
        }
    }
    using EdgeDesc = boost::graph_traits<BoostGraph>::edge_descriptor;
    std::vector<EdgeDesc> predEdge(n);
    std::vector<bool> hasPred(n, false);
    std::vector<double> dist(n, std::numeric_limits<double>::infinity());
    auto edgeIndex = boost::get(boost::edge_index, g);

    PredecessorEdgeRecorder rec;
    rec.pred = &predEdge;
    rec.has = &hasPred;
    boost::dijkstra_shortest_paths(
        g,
        root,
        boost::distance_map(boost::make_iterator_property_map(dist.begin(),
                                                              boost::get(boost::vertex_index, g)))
            .visitor(boost::make_dijkstra_visitor(rec)));
    std::vector<int64_t> tree(n, -1);
    for (std::size_t v = 0; v < n; ++v)
    {
        if (v != root && hasPred[v] && std::isfinite(dist[v]))
        {
            tree[v] = edgeIndex[predEdge[v]];
        }
    }
    return m_trees.emplace(root, std::move(tree)).first->second;
}

bool
RoutePlanner::Reachable(uint32_t src, uint32_t dst) const
{
    return src == dst || TreeOf(dst).at(src) >= 0;
}

bool
RoutePlanner::NextHop(uint32_t node, uint32_t dst, Hop& hop) const
{
    if (node == dst)
    {
        return false;
    }
    int64_t e = TreeOf(dst).at(node);
    if (e < 0)
    {
        return false;
    }
    hop = Hop{static_cast<uint32_t>(e), node, m_graph.OtherEnd(static_cast<uint32_t>(e), node)};
    return true;
}

RoutePlanner::Path
RoutePlanner::ShortestPath(uint32_t src, uint32_t dst) const
{
    Path path;
    uint32_t at = src;
    Hop hop;
    while (at != dst)
    {
        if (!NextHop(at, dst, hop) || path.size() > m_graph.NodeCount())
        {
            throw std::runtime_error("no route from " + m_graph.Nodes().at(src).name + " to " +
                                     m_graph.Nodes().at(dst).name);
        }
        path.push_back(hop);
        at = hop.to;
    }
    return path;
}

double
RoutePlanner::Latency(const Path& path) const
{
    double s = 0;
    for (const auto& h : path)
    {
        s += m_graph.Edges()[h.edge].latencyS;
    }
    return s;
}

double
RoutePlanner::Bottleneck(const Path& path) const
{
    double c = std::numeric_limits<double>::infinity();
    for (const auto& h : path)
    {
        c = std::min(c, m_graph.Edges()[h.edge].capacityBps);
    }
    return c;
}

double
RoutePlanner::PathLatency(uint32_t src, uint32_t dst) const
{
    return Latency(ShortestPath(src, dst));
}

RoutePlanner::Path
RoutePlanner::Tree(uint32_t root, const std::vector<uint32_t>& receivers) const
{
    const auto& tree = TreeOf(root);
    // Walk each receiver up to the root; collect every tree edge once.
    std::vector<bool> inTree(m_graph.NodeCount(), false);
    inTree[root] = true;
    std::vector<uint32_t> order; // nodes in the order they join, each after its parent
    for (uint32_t r : receivers)
    {
        std::vector<uint32_t> chain;
        uint32_t at = r;
        while (!inTree[at])
        {
            int64_t e = tree.at(at);
            if (e < 0)
            {
                throw std::runtime_error("no route from " + m_graph.Nodes().at(root).name +
                                         " to " + m_graph.Nodes().at(r).name);
            }
            chain.push_back(at);
            at = m_graph.OtherEnd(static_cast<uint32_t>(e), at);
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it)
        {
            inTree[*it] = true;
            order.push_back(*it);
        }
    }
    Path hops;
    for (uint32_t v : order)
    {
        auto e = static_cast<uint32_t>(tree[v]);
        hops.push_back(Hop{e, m_graph.OtherEnd(e, v), v});
    }
    return hops;
}

bool
RoutePlanner::IslandsConnected() const
{
    if (m_graph.IslandCount() == 0)
    {
        return true;
    }
    for (uint32_t i = 1; i < m_graph.IslandCount(); ++i)
    {
        if (!Reachable(i, 0))
        {
            return false;
        }
    }
    return true;
}

} // namespace ns3
