/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TRAFFIC_PLANNER_H
#define INTELLIGENT_NETWORK_TRAFFIC_PLANNER_H

#include "max-min-allocator.h"
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
