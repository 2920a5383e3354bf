/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_NETWORK_GRAPH_H
#define INTELLIGENT_NETWORK_NETWORK_GRAPH_H

#include "topology-latency-check.h"
#include "topology.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/// Kind of a node of the NetworkGraph.
enum class NodeKind
{
    ISLAND, ///< The training island (compute cluster) of a city: a host, never a transit router.
    DEVICE,  ///< A WAN router/switch.
    METRO,    ///< A city's access fabric: joins its island to its devices and to the internet.
    EXCHANGE, ///< A city's exchange (DoubleZero's DZX): joins its devices to each other.
    INTERNET  ///< A city's public-internet edge: its public paths end there.
};

/// A node of the NetworkGraph.
struct GraphNode
{
    std::string name; ///< City code (island), device name, "<city>-metro|exchange|internet".
    NodeKind kind;
    std::string city; ///< City code the node stands in.
};

/// Kind of an edge of the NetworkGraph.
enum class EdgeKind
{
    PRIVATE, ///< Private WAN link between two devices.
    PUBLIC,   ///< Public-internet path between two cities (their internet nodes).
    ACCESS,   ///< The island's one link, to its city's metro node.
    METRO,    ///< A device attached to its city's metro node.
    EXCHANGE, ///< A device attached to its city's exchange node.
    UPLINK    ///< A city's metro node to its internet node.
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

/// What routes minimise (RoutePlanner); every metric is summed over the hops of a path.
enum class RoutingMetric
{
    LATENCY,         ///< One-way latency (the default).
    LATENCY_HOPS,    ///< Latency + RoutingOptions::hopCostS per hop.
    LATENCY_CAPACITY ///< Latency + RoutingOptions::capacityCostBits / capacity per hop.
};

/// The routing metric and its constants (see doc/intelligent-network.rst, "Routing").
struct RoutingOptions
{
    RoutingMetric metric = RoutingMetric::LATENCY;
    /// Per-hop term of LATENCY_HOPS: 0.1 ms, a conservative per-router cost (forwarding,
    /// queueing at moderate load) that makes a path of ten extra hops cost 1 ms.
    double hopCostS = 1e-4;
    /// Capacity term of LATENCY_CAPACITY, in bits: a hop costs the time to serialise this many
    /// bits on it, so the metric of a path is the time a message of this size takes over it
    /// with store-and-forward at every hop. 8 Mbit (1 MB): +0.8 ms per 10 Gbps hop, +8 ms per
    /// 1 Gbps hop.
    double capacityCostBits = 8e6;

    /// Throws std::invalid_argument naming the option on a negative or non-finite constant.
    void Validate() const;
    /// "latency" | "latency+hops" | "latency+capacity"; throws std::invalid_argument otherwise.
    static RoutingMetric ParseMetric(const std::string& text);
    static std::string MetricName(RoutingMetric metric);
};

/// Knobs applied when turning a Topology into a NetworkGraph (defaults: see the doc's
/// "Metro fabric" section for their sources).
struct NetworkGraphOptions
{
    /// Island access link (island - metro node) rate; 0 = the sum of the capacities of the
    /// metro node's other links (metro links and the city's public paths), so the host link is
    /// never the bottleneck of what the city's network can carry.
    double accessRateBps = 0;
    /// One-way latency of the island access link: 10 us, about 2 km of fibre (a campus or
    /// in-building cross-connect).
    double accessLatencyS = 10e-6;
    /// Rate of each device's metro link (device - metro node); 0 = the device's edge
    /// capacity from the topology (its capacity towards the city).
    double metroRateBps = 0;
    /// One-way latency of a metro link: 50 us, about 10 km of metro fibre at 4.9 us/km
    /// (a data centre to a carrier hotel of the same metro area).
    double metroLatencyS = 50e-6;
    /// Join the devices of every city that has two or more through an exchange node (a
    /// cross-connect site, DoubleZero's DZX), which forwards between them like a router. Off:
    /// devices of one city meet only over the private links of the topology.
    bool exchange = true;
    /// Rate of each device's exchange link; 0 = the device's edge capacity.
    double exchangeRateBps = 0;
    /// One-way latency of an exchange link: 0.25 ms, about 50 km of metro fibre (sites across
    /// a metro area). Two of them (0.5 ms) exceed every intra-city private link of the
    /// nine-city sample (0.1-0.4 ms), so dedicated intra-city links are preferred.
    double exchangeLatencyS = 0.25e-3;
    /// One-way latency of the uplink from a metro node to its city's internet node (which
    /// holds the city's public paths, so that the metro node has a few interfaces, not one
    /// per other city): 1 us, a cross-connect in the same building. Its rate is the sum of
    /// the city's public paths, so it never limits them.
    double uplinkLatencyS = 1e-6;
    double privateRateBps = 0; ///< Override the rate of every private link; 0 = topology's.
    double publicRateBps = 0;  ///< Override the rate of every public path; 0 = topology's.
    bool includePublic = true; ///< Include the public-internet paths at all.
    /// Links faster than light in fibre over their great-circle distance: warn (default),
    /// raise them to the bound (fix), or ignore (off). See TopologyLatencyCheck.
    LatencyCheckMode latencyCheck = LatencyCheckMode::WARN;
    RoutingOptions routing; ///< What routes minimise.

    /// Throws std::invalid_argument naming the option on a bad value.
    void Validate() const;
};

/**
 * \ingroup intelligent-network
 * \brief The graph every other piece works on: islands, metro fabrics, devices, and links.
 *
 * Built once from a Topology: node i < CityCount() is the island of city i (same order as
 * Topology::Cities()); the metro node of city i ("<city>-metro") is node CityCount() + i;
 * devices follow, then the exchange nodes ("<city>-exchange", one per city with two or more
 * devices, if NetworkGraphOptions::exchange), then the internet nodes ("<city>-internet", one
 * per city with public paths). Edges: one access edge from each island to its metro node (the
 * island's only link: islands are hosts), one metro edge from each device to its city's metro
 * node, the private links (device - device), one exchange edge from each device to its city's
 * exchange node, one uplink from each metro node to its internet node, and the public paths
 * (internet node - internet node). RoutePlanner never routes transit traffic through an
 * island or through a city's metro or internet node (the access region of its island). The
 * ns-3 network helper creates one ns-3 node per graph node and one point-to-point link per
 * edge; the fluid cost model uses the same graph, so both see the same network. Pure C++.
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

    /// Add a node (for hand-built graphs); island nodes must be added before any other node.
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
    /// Node of the metro fabric of \p city, or -1 if it has none (hand-built graphs).
    int64_t MetroNode(const std::string& city) const;
    /// Internet node of \p city (where its public paths end), or -1 if it has none.
    int64_t InternetNode(const std::string& city) const;
    /// The island of the city \p node stands in, or -1 if that city has no island.
    int64_t IslandOf(uint32_t node) const;
    /// City codes of the islands, in node order.
    std::vector<std::string> IslandCities() const;
    /// Node named \p name; throws std::out_of_range if none.
    uint32_t NodeByName(const std::string& name) const;
    /// The edge joining \p a and \p b (either orientation), or -1.
    int64_t FindEdge(uint32_t a, uint32_t b) const;
    /// The endpoint of \p edge that is not \p node.
    uint32_t OtherEnd(uint32_t edge, uint32_t node) const;
    /// Readable edge name, e.g. "LON1-FRA1", "AMS-AMS-metro"; a public path is named by its
    /// cities ("AMS-FRA").
    std::string EdgeName(uint32_t edge) const;
    /// The edge named by its two endpoints: node names, or two city codes for the public path
    /// between them (FindEdge on their internet nodes). -1 if there is none.
    int64_t FindEdgeByNames(const std::string& a, const std::string& b) const;

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
    static std::string KindName(NodeKind kind);

    /// The routing metric routes over this graph minimise (NetworkGraphOptions::routing).
    const RoutingOptions& Routing() const;
    /// Replace the routing metric (validated).
    void SetRouting(const RoutingOptions& routing);
    /// Links of the topology whose latency was below the fibre bound (any check mode but off).
    const std::vector<LatencyFinding>& LatencyFindings() const;

  private:
    int64_t NodeOfCity(const std::string& city, NodeKind kind) const;

    std::vector<GraphNode> m_nodes;
    std::vector<GraphEdge> m_edges;
    std::vector<bool> m_up;
    std::size_t m_islands = 0;
    std::unordered_map<std::string, uint32_t> m_byName;
    RoutingOptions m_routing;
    std::vector<LatencyFinding> m_latencyFindings;
};

} // namespace ns3

#endif
