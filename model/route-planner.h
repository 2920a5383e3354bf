/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_ROUTE_PLANNER_H
#define INTELLIGENT_NETWORK_ROUTE_PLANNER_H

#include "network-graph.h"

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Shortest paths and multicast trees over a NetworkGraph, computed with Boost.Graph.
 *
 * Routes minimise the graph's routing metric (NetworkGraph::Routing(): latency by default, or
 * latency plus a per-hop or a capacity term; ties broken towards fewer hops, then
 * deterministically by Boost's Dijkstra over the graph's insertion order). Edges that are
 * down are ignored. This is the only routing logic of the module: the ns-3 helpers install
 * unicast and multicast routes from it and the fluid cost model charges traffic along the
 * same paths.
 *
 * Non-transit rule: islands are hosts, and a city's metro and internet nodes are its island's
 * access region, not transit routers. A path never passes through an island, and passes
 * through the access region of city c only right after leaving c's island (island, metro,
 * then a device or the internet node: the first-hop region of its source) or right before
 * reaching it (the last-hop region of its destination). So a metro node never forwards
 * between two of its devices, and no city's metro or internet node forwards between other
 * cities: the devices, intra-city private links and exchange nodes carry that. The rule is
 * symmetric (a path reversed is a path), and it is enforced per destination on the arcs
 * Dijkstra may relax, so routes stay destination-based.
 *
 * Unicast paths are hop-by-hop consistent: ShortestPath(s, d) follows NextHop(v, d) from every
 * node v on it (both come from the shortest-path tree rooted at d), so per-destination
 * forwarding tables reproduce it exactly.
 */
class RoutePlanner
{
  public:
    /// One traversal of an edge.
    struct Hop
    {
        uint32_t edge;
        uint32_t from;
        uint32_t to;
    };

    using Path = std::vector<Hop>;

    /// Plan over a snapshot of \p graph (later changes to the graph are not seen).
    explicit RoutePlanner(const NetworkGraph& graph);

    const NetworkGraph& Graph() const;

    /// True if \p dst can be reached from \p src.
    bool Reachable(uint32_t src, uint32_t dst) const;
    /// Shortest path; throws std::runtime_error naming both nodes if unreachable.
    Path ShortestPath(uint32_t src, uint32_t dst) const;
    /// First hop from \p node towards \p dst; false if \p node == \p dst or unreachable.
    bool NextHop(uint32_t node, uint32_t dst, Hop& hop) const;
    /// Sum of latencies along \p path.
    double Latency(const Path& path) const;
    /// Routing metric of one edge (its latency plus the metric's per-hop or capacity term).
    double EdgeCost(uint32_t edge) const;
    /// Routing metric of \p path (the sum of EdgeCost over its hops).
    double Cost(const Path& path) const;
    /// Smallest capacity along \p path (infinity for an empty path).
    double Bottleneck(const Path& path) const;
    /// Latency of the shortest path (throws if unreachable).
    double PathLatency(uint32_t src, uint32_t dst) const;

    /**
     * Source-rooted shortest-path tree from \p root to every node of \p receivers: the union
     * of the shortest paths, each tree edge once, directed away from the root and ordered so
     * that a hop comes after the hop that reaches its \c from node. Throws if a receiver is
     * unreachable.
     */
    Path Tree(uint32_t root, const std::vector<uint32_t>& receivers) const;

    /// True if every island can reach every other island.
    bool IslandsConnected() const;

  private:
    /// Predecessor edges of the shortest-path tree rooted at \p root (-1 for none).
    const std::vector<int64_t>& TreeOf(uint32_t root) const;
    /// Non-transit rule: may \p w forward to its neighbour \p u on its way to \p dst?
    bool MayForward(uint32_t w, uint32_t u, uint32_t dst) const;

    NetworkGraph m_graph;
    std::vector<int64_t> m_islandOf; ///< Island of each node's city (-1: none).
    mutable std::map<uint32_t, std::vector<int64_t>> m_trees;
};

} // namespace ns3

#endif
