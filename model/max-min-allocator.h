/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_MAX_MIN_ALLOCATOR_H
#define INTELLIGENT_NETWORK_MAX_MIN_ALLOCATOR_H

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace ns3
{

/// What one flow consumes: for each resource it uses, bit/s of resource per bit/s of flow rate.
struct FlowUsage
{
    std::vector<std::pair<uint32_t, double>> usage; ///< (resource, coefficient > 0)
    double maxRate = std::numeric_limits<double>::infinity(); ///< Cap on the flow's own rate.
};

/**
 * The course of one progressive filling (MaxMinAllocator::Allocate): the flows in the order they
 * froze, grouped by event, so that a later allocation over fewer flows can start from its first
 * events instead of from zero.
 */
struct MaxMinTrace
{
    std::vector<uint32_t> order;    ///< Flow indices in the order they froze.
    std::vector<double> rates;      ///< Their rates, aligned with order.
    std::vector<uint32_t> eventEnd; ///< Event e froze order[eventEnd[e - 1] .. eventEnd[e]).
    std::vector<double> level;      ///< The filling level after event e.

    /// Empty (the vectors keep their memory).
    void Clear()
    {
        order.clear();
        rates.clear();
        eventEnd.clear();
        level.clear();
    }
};

/**
 * \ingroup intelligent-network
 * \brief Weighted max-min fair bandwidth allocation by progressive filling. Pure C++.
 *
 * All unfrozen flows grow at the same rate until a resource saturates (sum of coefficient x
 * rate reaches its capacity) or a flow reaches its own cap; flows on a saturated resource
 * freeze; repeat. A unicast flow uses coefficient 1 on every directed link of its path; a
 * multicast flow uses 1 on every tree edge; an aggregation uses k on a link that carries k
 * members' contributions and its FPGA resource. The one allocator used by the fluid cost model
 * and by the ns-3 rate controller.
 *
 * Computed event by event (the next resource to saturate from a min-heap, the next cap from a
 * sorted list), so one allocation costs O(F L log(F L)) for F flows of L resources each,
 * rather than a pass over every flow per saturation event: the rate controller recomputes it
 * whenever a stream starts or ends, which at 64 islands is hundreds of streams. Only the
 * resources the flows use are touched (renumbered densely, in the same order), so the cost does
 * not grow with the size of the network (5030 resources on 64 synthetic cities, a few hundred
 * of them used by one round's streams).
 */
class MaxMinAllocator
{
  public:
    /// Rates (bit/s) for \p flows on resources of \p capacity (bit/s). A flow with no usage gets
    /// its maxRate (which must then be finite).
    static std::vector<double> Allocate(const std::vector<double>& capacity,
                                        const std::vector<FlowUsage>& flows);
    /// The same for flows held elsewhere (no copy of their usage): rate i is that of *flows[i].
    static std::vector<double> Allocate(const std::vector<double>& capacity,
                                        const std::vector<const FlowUsage*>& flows);
    /**
     * The same, recording the course of the filling in \p trace (if not null) and, if \p prefix
     * is not null, starting from it instead of from zero: \p prefix holds the first events of
     * the trace of an earlier allocation over the same capacities and a superset of \p flows
     * (same usages and caps, in the same relative order), renumbered to indices into \p flows,
     * and none of those events froze a flow that is gone. Such events happen alike without the
     * flows that are gone, so the rates are bit for bit those of an allocation from zero, while
     * only what follows the prefix is computed (the rate controller's case: streams end, the
     * fastest first, and the slower ones' rates stand).
     */
    static std::vector<double> Allocate(const std::vector<double>& capacity,
                                        const std::vector<const FlowUsage*>& flows,
                                        const MaxMinTrace* prefix,
                                        MaxMinTrace* trace);
    /// The same, the rates written to \p rates (resized; its memory reused), for a caller
    /// that allocates often (RateController).
    static void Allocate(const std::vector<double>& capacity,
                         const std::vector<const FlowUsage*>& flows,
                         const MaxMinTrace* prefix,
                         MaxMinTrace* trace,
                         std::vector<double>& rates);
};

} // namespace ns3

#endif
