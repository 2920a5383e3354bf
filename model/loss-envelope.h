/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_LOSS_ENVELOPE_H
#define INTELLIGENT_NETWORK_LOSS_ENVELOPE_H

#include "route-planner.h"
#include "traffic-planner.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief The loss envelope of one clique's exchange (issue 15): with independent random loss
 * \c p on every link, a clique-round should take at most
 * <tt>lossFree / (1 - pPath) + 4 rtt</tt>, where \c pPath = 1 - (1 - p)^hops is the
 * end-to-end loss of the clique's longest path (most links) and \c rtt the round-trip
 * propagation time of its slowest path (twice the largest one-way latency). The end-to-end
 * paths of a clique: every source to every receiver of its flows (unicast: the route;
 * multicast: source tree; aggregation: member -> FPGA -> member). Pure C++.
 */
struct LossEnvelope
{
    uint32_t hops = 0;   ///< Links on the longest end-to-end path.
    double rttS = 0;     ///< Twice the largest one-way propagation latency.
    double pathLoss = 0; ///< 1 - (1 - p)^hops.

    /// The envelope of a clique-round that takes \p lossFreeS without loss.
    double Bound(double lossFreeS) const;

    /// The envelope of the clique \p members (island nodes) under \p traffic's capabilities,
    /// with loss \p linkLoss in [0, 1) on every link; throws std::invalid_argument otherwise.
    static LossEnvelope ForClique(const RoutePlanner& routes,
                                  const TrafficPlanner& traffic,
                                  const std::vector<uint32_t>& members,
                                  double linkLoss);
};

} // namespace ns3

#endif
