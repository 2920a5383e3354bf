/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_NETWORK_GRAPH_H
#define INTELLIGENT_NETWORK_NETWORK_GRAPH_H

#include "topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// Kind of a node of the NetworkGraph.
enum class NodeKind
{
    ISLAND, ///< The training island (compute cluster) of a city; also the city's metro hub.
    DEVICE  ///< A WAN router/switch.
};

/// A node of the NetworkGraph.
struct GraphNode
{
    std::string name; ///< City code for islands, device name for devices.
    NodeKind kind;
    std::string city; ///< City code the node stands in.
};

/// Kind of an edge of the NetworkGraph.
enum class EdgeKind
{
    PRIVATE, ///< Private WAN link between two devices.
    PUBLIC,  ///< Public-internet path between two islands (cities).
    ACCESS   ///< An island attached to one of its city's devices.
};

/// A full-duplex edge of the NetworkGraph; the capacity applies to each direction.
struct GraphEdge
{
    uint32_t a;
    uint32_t b;
    double latencyS;
    double capacityBps;
    EdgeKind kind;
};

/// Knobs applied when turning a Topology into a NetworkGraph.
struct NetworkGraphOptions
{
    double accessRateBps = 0;     ///< Island access link rate; 0 = the device's edge capacity.
    double accessLatencyS = 10e-6; ///< One-way latency of an access link (metro cross-connect).
    double privateRateBps = 0;    ///< Override the rate of every private link; 0 = topology's.
    double publicRateBps = 0;     ///< Override the rate of every public path; 0 = topology's.
    bool includePublic = true;    ///< Include the public-internet paths at all.
};

/**
 * \ingroup intelligent-network
 * \brief The graph every other piece works on: islands, devices and the edges between them.
 *
 * Built once from a Topology: node i < CityCount() is the island of city i (same order as
 * Topology::Cities()); devices follow. Edges: private links (device-device), public paths
 * (island-island), and one access edge from each island to each device of its city. The ns-3
 * network helper creates one ns-3 node per graph node and one point-to-point link per edge;
 * the fluid cost model uses the same graph, so both see the same network. Pure C++.
 *
 * Every edge has two directed "resources" (one per direction), numbered 2*edge (a->b) and
 * 2*edge+1 (b->a); bandwidth allocation works on resources.
 */
class NetworkGraph
{
  public:
    NetworkGraph() = default;

    /// Build the graph of \p topology.
    static NetworkGraph FromTopology(const Topology& topology,
                                     const NetworkGraphOptions& options = {});

    /// Add a node (for synthetic graphs); island nodes must be added before device nodes.
    uint32_t AddNode(const GraphNode& node);
    /// Add an edge; throws std::invalid_argument on unknown nodes or non-positive values.
    uint32_t AddEdge(const GraphEdge& edge);

    const std::vector<GraphNode>& Nodes() const;
    const std::vector<GraphEdge>& Edges() const;
    std::size_t NodeCount() const;
    std::size_t EdgeCount() const;

    /// Number of island nodes (they are nodes 0 .. IslandCount()-1).
    std::size_t IslandCount() const;
    /// Node of the island of \p city; throws InputError (field `city`) if unknown.
    uint32_t IslandNode(const std::string& city) const;
    /// City codes of the islands, in node order.
    std::vector<std::string> IslandCities() const;
    /// Node named \p name; throws std::out_of_range if none.
    uint32_t NodeByName(const std::string& name) const;
    /// The edge joining \p a and \p b (either orientation), or -1.
    int64_t FindEdge(uint32_t a, uint32_t b) const;
    /// The endpoint of \p edge that is not \p node.
    uint32_t OtherEnd(uint32_t edge, uint32_t node) const;
    /// Readable edge name, e.g. "LON1-FRA1".
    std::string EdgeName(uint32_t edge) const;

    /// Mark an edge up or down (a down edge is ignored by routing and allocation).
    void SetEdgeUp(uint32_t edge, bool up);
    bool IsEdgeUp(uint32_t edge) const;

    /// Directed resource of traversing \p edge starting at node \p from.
    static uint32_t Resource(const GraphEdge& e, uint32_t edge, uint32_t from);
    uint32_t Resource(uint32_t edge, uint32_t from) const;
    /// Number of directed resources (2 per edge).
    std::size_t ResourceCount() const;
    /// Capacities (bit/s) of all directed resources; 0 for a down edge.
    std::vector<double> ResourceCapacities() const;

    static std::string KindName(EdgeKind kind);

  private:
    std::vector<GraphNode> m_nodes;
    std::vector<GraphEdge> m_edges;
    std::vector<bool> m_up;
    std::size_t m_islands = 0;
};

} // namespace ns3

#endif
