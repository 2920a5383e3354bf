/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "loss-envelope.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

double
LossEnvelope::Bound(double lossFreeS) const
{
    return lossFreeS / (1.0 - pathLoss) + 4.0 * rttS;
}

LossEnvelope
LossEnvelope::ForClique(const RoutePlanner& routes,
                        const TrafficPlanner& traffic,
                        const std::vector<uint32_t>& members,
                        double linkLoss)
{
    if (!(linkLoss >= 0 && linkLoss < 1))
    {
        throw std::invalid_argument("loss envelope: link loss must be in [0, 1)");
    }
    LossEnvelope e;
    double latency = 0;
    auto path = [&](std::size_t hops, double oneWay) {
        e.hops = std::max<uint32_t>(e.hops, static_cast<uint32_t>(hops));
        latency = std::max(latency, oneWay);
    };
    for (const TrafficFlow& f : traffic.CliqueFlows(members))
    {
        for (std::size_t i = 0; i < f.sources.size(); ++i)
        {
            for (uint32_t r : f.receivers)
            {
                if (f.aggregator >= 0)
                {
                    // Contribution up to the FPGA, sum down its tree to every member.
                    auto down = routes.ShortestPath(static_cast<uint32_t>(f.aggregator), r);
                    path(f.up.at(i).size() + down.size(),
                         routes.Latency(f.up.at(i)) + routes.Latency(down));
                }
                else if (r != f.sources[i])
                {
                    auto p = routes.ShortestPath(f.sources[i], r);
                    path(p.size(), routes.Latency(p));
                }
            }
        }
    }
    e.rttS = 2 * latency;
    e.pathLoss = 1.0 - std::pow(1.0 - linkLoss, static_cast<double>(e.hops));
    return e;
}

} // namespace ns3
