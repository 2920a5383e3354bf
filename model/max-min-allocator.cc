/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "max-min-allocator.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

std::vector<double>
MaxMinAllocator::Allocate(const std::vector<double>& capacity, const std::vector<FlowUsage>& flows)
{
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> rate(flows.size(), 0.0);
    std::vector<bool> active(flows.size(), true);
    std::vector<double> residual = capacity;
    std::size_t nActive = flows.size();

    for (std::size_t f = 0; f < flows.size(); ++f)
    {
        for (const auto& [r, a] : flows[f].usage)
        {
            if (r >= capacity.size() || !(a > 0))
            {
                throw std::invalid_argument("max-min allocation: bad resource or coefficient");
            }
        }
        if (flows[f].usage.empty())
        {
            if (!std::isfinite(flows[f].maxRate))
            {
                throw std::invalid_argument("max-min allocation: unconstrained flow");
            }
            rate[f] = flows[f].maxRate;
            active[f] = false;
            --nActive;
        }
    }

    std::vector<double> load(capacity.size());
    while (nActive > 0)
    {
        // Total coefficient of active flows on each resource.
        std::fill(load.begin(), load.end(), 0.0);
        for (std::size_t f = 0; f < flows.size(); ++f)
        {
            if (active[f])
            {
                for (const auto& [r, a] : flows[f].usage)
                {
                    load[r] += a;
                }
            }
        }
        double delta = inf;
        for (std::size_t r = 0; r < capacity.size(); ++r)
        {
            if (load[r] > 0)
            {
                delta = std::min(delta, std::max(0.0, residual[r]) / load[r]);
            }
        }
        for (std::size_t f = 0; f < flows.size(); ++f)
        {
            if (active[f])
            {
                delta = std::min(delta, flows[f].maxRate - rate[f]);
            }
        }
        if (!std::isfinite(delta))
        {
            throw std::invalid_argument("max-min allocation: unbounded flow");
        }
        for (std::size_t r = 0; r < capacity.size(); ++r)
        {
            residual[r] -= delta * load[r];
        }
        std::size_t frozen = 0;
        for (std::size_t f = 0; f < flows.size(); ++f)
        {
            if (!active[f])
            {
                continue;
            }
            rate[f] += delta;
            bool freeze = rate[f] >= flows[f].maxRate * (1 - 1e-12);
            for (const auto& [r, a] : flows[f].usage)
            {
                freeze = freeze || residual[r] <= 1e-9 * std::max(1.0, capacity[r]);
            }
            if (freeze)
            {
                active[f] = false;
                ++frozen;
            }
        }
        if (frozen == 0)
        {
            throw std::logic_error("max-min allocation made no progress");
        }
        nActive -= frozen;
    }
    return rate;
}

} // namespace ns3
