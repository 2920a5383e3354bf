/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "max-min-allocator.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>
#include <stdexcept>

namespace ns3
{

std::vector<double>
MaxMinAllocator::Allocate(const std::vector<double>& capacity, const std::vector<FlowUsage>& flows)
{
    // Progressive filling, event by event: every unfrozen flow sits at the same level; the next
    // event is the lowest level at which a resource saturates or a flow reaches its cap. A
    // resource r saturates at level (capacity[r] - fixed[r]) / load[r], fixed being what frozen
    // flows consume and load the summed coefficients of unfrozen ones. Resources wait in a
    // min-heap keyed by that level (an entry whose version is stale is skipped), caps in a
    // sorted list, so a computation costs O(F L log R) for F flows of L resources each, not
    // one pass over all flows per event.
    const double inf = std::numeric_limits<double>::infinity();
    const std::size_t nFlows = flows.size();
    const std::size_t nRes = capacity.size();
    std::vector<double> rate(nFlows, 0.0);
    std::vector<char> active(nFlows, 1);
    std::vector<double> fixed(nRes, 0.0);
    std::vector<double> load(nRes, 0.0);
    std::vector<uint32_t> version(nRes, 0);
    std::vector<uint32_t> activeOn(nRes, 0); // usage entries of unfrozen flows
    // Flows on each resource (a flow appears once per usage entry).
    std::vector<uint32_t> start(nRes + 1, 0);
    std::size_t nActive = nFlows;

    for (std::size_t f = 0; f < nFlows; ++f)
    {
        for (const auto& [r, a] : flows[f].usage)
        {
            if (r >= nRes || !(a > 0))
            {
                throw std::invalid_argument("max-min allocation: bad resource or coefficient");
            }
            ++start[r + 1];
            load[r] += a;
            ++activeOn[r];
        }
        if (flows[f].usage.empty())
        {
            if (!std::isfinite(flows[f].maxRate))
            {
                throw std::invalid_argument("max-min allocation: unconstrained flow");
            }
            rate[f] = flows[f].maxRate;
            active[f] = 0;
            --nActive;
        }
    }
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<uint32_t> members(start[nRes]);
    {
        std::vector<uint32_t> fill(start.begin(), start.end() - 1);
        for (std::size_t f = 0; f < nFlows; ++f)
        {
            for (const auto& usageEntry : flows[f].usage)
            {
                members[fill[usageEntry.first]++] = static_cast<uint32_t>(f);
            }
        }
    }

    using Entry = std::pair<double, std::pair<uint32_t, uint32_t>>; // level, (resource, version)
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
    auto saturation = [&](std::size_t r) {
        return std::max(0.0, capacity[r] - fixed[r]) / load[r];
    };
    for (std::size_t r = 0; r < nRes; ++r)
    {
        if (load[r] > 0)
        {
            heap.push({saturation(r), {static_cast<uint32_t>(r), 0}});
        }
    }
    std::vector<uint32_t> byCap;
    for (std::size_t f = 0; f < nFlows; ++f)
    {
        if (active[f] && std::isfinite(flows[f].maxRate))
        {
            byCap.push_back(static_cast<uint32_t>(f));
        }
    }
    std::sort(byCap.begin(), byCap.end(), [&](uint32_t a, uint32_t b) {
        return flows[a].maxRate < flows[b].maxRate;
    });
    std::size_t nextCap = 0;

    std::vector<uint32_t> touched;
    double level = 0;
    auto freeze = [&](uint32_t f, double at) {
        active[f] = 0;
        rate[f] = at;
        --nActive;
        for (const auto& [r, a] : flows[f].usage)
        {
            fixed[r] += a * at;
            load[r] -= a;
            if (--activeOn[r] == 0)
            {
                load[r] = 0; // no rounding residue on a resource nothing active uses
            }
            touched.push_back(r);
        }
    };
    while (nActive > 0)
    {
        while (!heap.empty() && (heap.top().second.second != version[heap.top().second.first] ||
                                 activeOn[heap.top().second.first] == 0))
        {
            heap.pop();
        }
        while (nextCap < byCap.size() && !active[byCap[nextCap]])
        {
            ++nextCap;
        }
        double resLevel = heap.empty() ? inf : heap.top().first;
        double capLevel = nextCap < byCap.size() ? flows[byCap[nextCap]].maxRate : inf;
        if (!std::isfinite(resLevel) && !std::isfinite(capLevel))
        {
            throw std::invalid_argument("max-min allocation: unbounded flow");
        }
        touched.clear();
        if (capLevel <= resLevel)
        {
            level = std::max(level, capLevel);
            // Every flow whose cap is reached at this level freezes at its cap.
            while (nextCap < byCap.size() &&
                   (!active[byCap[nextCap]] ||
                    flows[byCap[nextCap]].maxRate <= level * (1 + 1e-12)))
            {
                uint32_t f = byCap[nextCap++];
                if (active[f])
                {
                    freeze(f, std::min(level, flows[f].maxRate));
                }
            }
        }
        else
        {
            uint32_t r = heap.top().second.first;
            heap.pop();
            level = std::max(level, resLevel);
            for (uint32_t i = start[r]; i < start[r + 1]; ++i)
            {
                uint32_t f = members[i];
                if (active[f])
                {
                    freeze(f, level);
                }
            }
        }
        std::sort(touched.begin(), touched.end());
        touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
        for (uint32_t t : touched)
        {
            ++version[t];
            if (activeOn[t] > 0)
            {
                heap.push({std::max(level, saturation(t)), {t, version[t]}});
            }
        }
    }
    return rate;
}

} // namespace ns3
