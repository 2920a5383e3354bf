/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TRAFFIC_PLANNER_H
#define INTELLIGENT_NETWORK_TRAFFIC_PLANNER_H

#include "max-min-allocator.h"
#include "exchange-pattern.h"
#include "network-capabilities.h"
#include "route-planner.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \brief One model exchange stream of a clique, with its route and what it consumes.
 *
 * - unicast: one source, one receiver, \c down is the path;
 * - multicast: one source, the other members as receivers, \c down is the source tree;
 * - aggregation: every member is a source (its contribution travels \c up[i] to the FPGA on
 *   \c aggregator), every member a receiver (the sum travels the FPGA's tree \c down).
 * The stream carries the model once per source at its (single) rate.
 */
struct TrafficFlow
{
    ExchangePattern kind;
    std::vector<uint32_t> sources;   ///< Island nodes.
    std::vector<uint32_t> receivers; ///< Island nodes.
    RoutePlanner::Path down;         ///< Path or tree towards the receivers.
    std::vector<RoutePlanner::Path> up; ///< Aggregation: member -> FPGA paths (sources order).
    int64_t aggregator = -1;         ///< Aggregation: the FPGA's device node.
    FlowUsage usage;                 ///< Resources per unit rate (links, FPGA).
    double latencyS = 0;             ///< Propagation until the last receiver has a byte's result.
    double fraction = 1.0;           ///< Share of the model it carries (ring chunks, trees).
};

/**
 * \brief One FPGA of a clique's aggregation (reduction) tree.
 *
 * The FPGA on \c device sums, per slot, the contributions of \c members (islands whose
 * contribution reaches it first) and the partial sums of \c children (FPGA devices), and
 * sends one partial sum to \c parent (the root, parent -1, has the clique's sum and sends it
 * down the result tree by multicast). Each edge of the reduction tree carries exactly one
 * (partial) copy of the model up and one copy of the result down.
 */
struct AggregationNode
{
    uint32_t device;                ///< Device node carrying the FPGA.
    int64_t parent = -1;            ///< Device node of the parent FPGA; -1 for the root.
    std::vector<uint32_t> members;  ///< Island nodes whose contributions it sums directly.
    std::vector<uint32_t> children; ///< Device nodes of the child FPGAs it sums.
    RoutePlanner::Path up;          ///< Hops its partial sum travels to the parent (empty: root).
};

/**
 * \brief The structure of one clique's exchange under one pattern: who sends what to whom.
 *
 * Produced by TrafficPlanner::Exchange and read by both the fluid CostModel (\c phases) and
 * the ns-3 exchange classes (the structural fields), so that both simulate the same exchange.
 * Member indices below index \c members.
 *
 * - ALL_TO_ALL: one phase, one unicast flow per ordered pair, whole model each.
 * - MULTICAST: one phase, one multicast flow per member (its source tree), whole model each.
 * - RING: \c members is the ring order (member i sends to member i+1 mod k). The model is cut
 *   into k chunks; 2(k-1) phases (k-1 reduce-scatter steps, then k-1 all-gather steps), each
 *   with k flows i -> i+1 of one chunk (fraction 1/k).
 * - TREE: \c trees holds the parent (member index, -1 for the root) of every member in each
 *   tree (a double binary tree has two, each carrying fraction 1/trees.size() of the model,
 *   every member interior in at most one). Reduction up then broadcast down, pipelined in
 *   \c chunkBytes chunks: a member forwards chunk c as soon as it has it from all children.
 * - PARAMETER_SERVER: \c server is the member index of the server; two phases: every other
 *   member pushes its whole model to the server, then the server sends the average back.
 * - AGGREGATION: \c aggregation is the reduction tree over FPGAs (root first; a single node
 *   for the one-point design); one phase with one flow (the contributions up and the result
 *   down, see TrafficFlow).
 */
struct CliqueExchange
{
    ExchangePattern pattern = ExchangePattern::ALL_TO_ALL;
    std::vector<uint32_t> members; ///< Island nodes, in the pattern's order (see above).
    /// Fluid phases: the flows of phase p+1 start when every flow of phase p has finished
    /// (its last bit arrived). TrafficFlow::fraction scales the model bytes a flow carries.
    std::vector<std::vector<TrafficFlow>> phases;
    std::vector<std::vector<int32_t>> trees; ///< TREE: parent member index per tree.
    double chunkBytes = 0;                   ///< TREE: pipelining chunk (payload bytes).
    int32_t server = -1;                     ///< PARAMETER_SERVER: member index of the server.
    std::vector<AggregationNode> aggregation; ///< AGGREGATION: reduction tree, root first.
    RoutePlanner::Path resultTree; ///< AGGREGATION: the root's multicast tree to the members.
};

/**
 * \ingroup intelligent-network
 * \brief Turns a clique into its traffic: routes, trees, aggregator choice, resource usage.
 *
 * The single place where "what does a clique exchange cost the network" is decided; used by
 * the fluid CostModel and by the ns-3 layer (rate controller, multicast routes, FPGA
 * placement). Resources are the NetworkGraph's directed links (0 .. 2E-1) followed by one
 * resource per FPGA device (capacity NetworkCapabilities::fpgaThroughputBps). Pure C++.
 *
 * Aggregator choice: among the FPGA devices lying on the clique's paths (the shortest paths
 * between its members), the one minimising the largest member latency (ties: smallest sum,
 * then lowest node). No such device is a configuration error.
 */
class TrafficPlanner
{
  public:
    /// Keeps references: \p routes and \p caps must outlive the planner.
    TrafficPlanner(const RoutePlanner& routes, const NetworkCapabilities& caps);

    /// Streams of one clique (island nodes) in the capabilities' mode.
    std::vector<TrafficFlow> CliqueFlows(const std::vector<uint32_t>& members) const;
    /// Streams of one clique in an explicit mode.
    std::vector<TrafficFlow> CliqueFlows(const std::vector<uint32_t>& members,
                                         ExchangePattern mode) const;

    /// One unicast stream \p source -> \p receiver.
    TrafficFlow UnicastFlow(uint32_t source, uint32_t receiver) const;
    /// One multicast stream from \p source to \p receivers along its source tree.
    TrafficFlow MulticastFlow(uint32_t source, const std::vector<uint32_t>& receivers) const;
    /// The aggregation stream of \p members (all send to the aggregator, the sum comes back).
    TrafficFlow AggregationFlow(const std::vector<uint32_t>& members) const;
    /// The same through a given FPGA device node (e.g. the one chosen before a reroute).
    TrafficFlow AggregationFlow(const std::vector<uint32_t>& members, uint32_t aggregator) const;

    /// The FPGA device node that aggregates for \p members; throws std::invalid_argument if none.
    uint32_t Aggregator(const std::vector<uint32_t>& members) const;

    /// Capacities of all resources (links then FPGAs), bit/s.
    std::vector<double> Capacities() const;
    /// Resource of the FPGA on device node \p device; throws if it has none.
    uint32_t FpgaResource(uint32_t device) const;
    std::size_t ResourceCount() const;

    const RoutePlanner& Routes() const;
    const NetworkCapabilities& Capabilities() const;

  private:
    const RoutePlanner& m_routes;
    const NetworkCapabilities& m_caps;
    std::vector<uint32_t> m_fpgaNodes; ///< Device nodes with an FPGA, in node order.
};

} // namespace ns3

#endif
