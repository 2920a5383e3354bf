/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "max-min-allocator.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

namespace
{

constexpr uint32_t kUnset = ~0u;

/// What one allocation works in, one per thread, kept across calls: once it has grown, an
/// allocation allocates no memory. (A rate controller of hundreds of streams recomputes often,
/// and every malloc of a KiB or more makes glibc first consolidate its fast bins: a walk over
/// freed chunks spread over a large simulation's heap.)
struct Workspace
{
    /// Global resource -> dense index of the resources one allocation uses (kUnset elsewhere):
    /// reset entry by entry after each allocation, so that an allocation costs nothing per
    /// resource it does not use.
    std::vector<uint32_t> dense;
    std::vector<char> active;
    std::vector<uint32_t> used;
    std::vector<uint32_t> flowStart;
    std::vector<uint32_t> entryRes;
    std::vector<double> entryCoef;
    std::vector<double> load;
    std::vector<uint32_t> activeOn;
    std::vector<double> fixed;
    std::vector<uint32_t> start;
    std::vector<uint32_t> members;
    std::vector<uint32_t> fill;
    std::vector<double> key;
    std::vector<uint32_t> heap;
    std::vector<uint32_t> at;
    std::vector<uint32_t> byCap;
    std::vector<uint32_t> touched;
    std::vector<uint32_t> touchedAt;
    std::vector<double> touchLevel;
};

Workspace&
ThisThreadsWorkspace()
{
    thread_local Workspace w;
    return w;
}

/// The filling; the rates are written to \p rate.
template <typename FlowAt>
void
AllocateFlows(const std::vector<double>& capacity,
              std::size_t nFlows,
              FlowAt flowAt,
              const MaxMinTrace* prefix,
              MaxMinTrace* trace,
              std::vector<double>& rate)
{
    // Progressive filling, event by event: every unfrozen flow sits at the same level; the next
    // event is the lowest level at which a resource saturates or a flow reaches its cap. A
    // resource r saturates at level (capacity[r] - fixed[r]) / load[r], fixed being what frozen
    // flows consume and load the summed coefficients of unfrozen ones. Resources wait in an
    // indexed min-heap keyed by (that level, r), a resource's key updated in place when a flow
    // on it freezes; caps wait in a sorted list. A computation costs O(F L log R') for F flows
    // of L resources each on the R' resources they use, not one pass over all flows per event,
    // and nothing in it is proportional to the size of the network: resources are numbered
    // densely, in the order first seen (the heap breaks ties by global index).
    //
    // A warm start (prefix) replays the first events of an earlier filling over a superset of
    // these flows, none of which froze a flow that is gone: those events happen alike here.
    // Each froze resource-bound flows one resource's members in index order, or capped flows
    // in (cap, index) order, on a resource that carries no flow that is gone (else that flow
    // froze too); and a resource that carried one saturates no lower than it did (less load).
    // Replaying them in their order with their rates gives every resource the fixed and load it
    // would have after them, bit for bit; its key is then what its last touch would have set.
    const double inf = std::numeric_limits<double>::infinity();
    const std::size_t nRes = capacity.size();
    Workspace& w = ThisThreadsWorkspace();
    rate.assign(nFlows, 0.0);
    std::vector<char>& active = w.active;
    active.assign(nFlows, 1);
    std::size_t nActive = nFlows;

    std::vector<uint32_t>& local = w.dense;
    if (local.size() < nRes)
    {
        local.resize(nRes, kUnset);
    }
    std::vector<uint32_t>& used = w.used; // dense index -> resource
    used.clear();
    struct Reset // the table is shared: leave it clean, also when throwing
    {
        std::vector<uint32_t>& local;
        const std::vector<uint32_t>& used;
        ~Reset()
        {
            for (uint32_t r : used)
            {
                local[r] = kUnset;
            }
        }
    } reset{local, used};

    // Each flow's usage in dense numbering (entries flowStart[f] .. flowStart[f + 1] of
    // entryRes and entryCoef, written once: not zeroed first); summed coefficients and
    // entries per resource.
    std::size_t entries = 0;
    for (std::size_t f = 0; f < nFlows; ++f)
    {
        entries += flowAt(f).usage.size();
    }
    std::vector<uint32_t>& flowStart = w.flowStart;
    flowStart.assign(nFlows + 1, 0);
    std::vector<uint32_t>& entryRes = w.entryRes;
    entryRes.resize(entries);
    std::vector<double>& entryCoef = w.entryCoef;
    entryCoef.resize(entries);
    std::vector<double>& load = w.load;
    load.clear();
    std::vector<uint32_t>& activeOn = w.activeOn; // usage entries of unfrozen flows
    activeOn.clear();
    std::size_t nEntries = 0;
    for (std::size_t f = 0; f < nFlows; ++f)
    {
        const FlowUsage& flow = flowAt(f);
        flowStart[f] = static_cast<uint32_t>(nEntries);
        for (const auto& [r, a] : flow.usage)
        {
            if (r >= nRes || !(a > 0))
            {
                throw std::invalid_argument("max-min allocation: bad resource or coefficient");
            }
            if (local[r] == kUnset)
            {
                local[r] = static_cast<uint32_t>(used.size());
                used.push_back(r);
                load.push_back(0.0);
                activeOn.push_back(0);
            }
            uint32_t u = local[r];
            entryRes[nEntries] = u;
            entryCoef[nEntries++] = a;
            load[u] += a;
            ++activeOn[u];
        }
        if (flow.usage.empty())
        {
            if (!std::isfinite(flow.maxRate))
            {
                throw std::invalid_argument("max-min allocation: unconstrained flow");
            }
            rate[f] = flow.maxRate;
            active[f] = 0;
            --nActive;
        }
    }
    flowStart[nFlows] = static_cast<uint32_t>(nEntries);
    const std::size_t nUsed = used.size();
    std::vector<double>& fixed = w.fixed;
    fixed.assign(nUsed, 0.0);
    // Flows on each resource (a flow appears once per usage entry).
    std::vector<uint32_t>& start = w.start;
    start.assign(nUsed + 1, 0);
    for (std::size_t u = 0; u < nUsed; ++u)
    {
        start[u + 1] = start[u] + activeOn[u];
    }
    std::vector<uint32_t>& members = w.members;
    members.resize(entries);
    {
        std::vector<uint32_t>& fill = w.fill;
        fill.assign(start.begin(), start.end() - 1);
        for (std::size_t f = 0; f < nFlows; ++f)
        {
            for (uint32_t k = flowStart[f]; k < flowStart[f + 1]; ++k)
            {
                members[fill[entryRes[k]]++] = static_cast<uint32_t>(f);
            }
        }
    }

    // The indexed heap: heap[i] a dense resource, at[u] its position (kUnset: not in it),
    // key[u] its saturation level; ordered by (key, global index).
    std::vector<double>& key = w.key;
    key.assign(nUsed, 0.0);
    std::vector<uint32_t>& heap = w.heap;
    heap.clear();
    std::vector<uint32_t>& at = w.at;
    at.assign(nUsed, kUnset);
    auto before = [&](uint32_t a, uint32_t b) {
        return key[a] < key[b] || (!(key[b] < key[a]) && used[a] < used[b]);
    };
    auto place = [&](std::size_t i, uint32_t u) {
        heap[i] = u;
        at[u] = static_cast<uint32_t>(i);
    };
    auto siftUp = [&](std::size_t i) {
        uint32_t u = heap[i];
        while (i > 0 && before(u, heap[(i - 1) / 2]))
        {
            place(i, heap[(i - 1) / 2]);
            i = (i - 1) / 2;
        }
        place(i, u);
    };
    auto siftDown = [&](std::size_t i) {
        uint32_t u = heap[i];
        const std::size_t n = heap.size();
        for (;;)
        {
            std::size_t child = 2 * i + 1;
            if (child >= n)
            {
                break;
            }
            if (child + 1 < n && before(heap[child + 1], heap[child]))
            {
                ++child;
            }
            if (!before(heap[child], u))
            {
                break;
            }
            place(i, heap[child]);
            i = child;
        }
        place(i, u);
    };
    auto remove = [&](uint32_t u) {
        std::size_t i = at[u];
        at[u] = kUnset;
        uint32_t last = heap.back();
        heap.pop_back();
        if (last != u)
        {
            heap[i] = last;
            siftDown(i);
            siftUp(at[last]);
        }
    };
    auto setKey = [&](uint32_t u, double k) {
        if (at[u] == kUnset)
        {
            key[u] = k;
            heap.push_back(u);
            siftUp(heap.size() - 1);
            return;
        }
        bool up = k < key[u];
        key[u] = k;
        up ? siftUp(at[u]) : siftDown(at[u]);
    };
    auto saturation = [&](std::size_t u) {
        return std::max(0.0, capacity[used[u]] - fixed[u]) / load[u];
    };
    std::vector<uint32_t>& byCap = w.byCap;
    byCap.clear();
    for (std::size_t f = 0; f < nFlows; ++f)
    {
        if (active[f] && std::isfinite(flowAt(f).maxRate))
        {
            byCap.push_back(static_cast<uint32_t>(f));
        }
    }
    std::sort(byCap.begin(), byCap.end(), [&](uint32_t a, uint32_t b) {
        return flowAt(a).maxRate < flowAt(b).maxRate ||
               (!(flowAt(b).maxRate < flowAt(a).maxRate) && a < b);
    });
    std::size_t nextCap = 0;

    std::vector<uint32_t>& touched = w.touched;
    touched.clear();
    std::vector<uint32_t>& touchedAt = w.touchedAt; // the last event that touched a resource
    touchedAt.assign(nUsed, 0);
    uint32_t event = 0;
    double level = 0;
    if (trace)
    {
        trace->Clear();
        trace->order.reserve(nFlows);
        trace->rates.reserve(nFlows);
    }
    auto freeze = [&](uint32_t f, double rateAt) {
        active[f] = 0;
        rate[f] = rateAt;
        --nActive;
        if (trace)
        {
            trace->order.push_back(f);
            trace->rates.push_back(rateAt);
        }
        for (uint32_t k = flowStart[f]; k < flowStart[f + 1]; ++k)
        {
            const uint32_t u = entryRes[k];
            const double a = entryCoef[k];
            fixed[u] += a * rateAt;
            load[u] -= a;
            if (--activeOn[u] == 0)
            {
                load[u] = 0; // no rounding residue on a resource nothing active uses
            }
            if (touchedAt[u] != event)
            {
                touchedAt[u] = event;
                touched.push_back(u);
            }
        }
    };
    auto endEvent = [&]() {
        if (trace)
        {
            trace->eventEnd.push_back(static_cast<uint32_t>(trace->order.size()));
            trace->level.push_back(level);
        }
    };

    // The level at which each resource was last touched by the prefix (0: not touched).
    std::vector<double>& touchLevel = w.touchLevel;
    touchLevel.assign(nUsed, 0.0);
    if (prefix)
    {
        const std::size_t nEvents = prefix->eventEnd.size();
        if (prefix->rates.size() != prefix->order.size() || prefix->level.size() != nEvents ||
            (nEvents > 0 && prefix->eventEnd.back() != prefix->order.size()))
        {
            throw std::invalid_argument("max-min allocation: malformed prefix");
        }
        std::size_t k = 0;
        for (std::size_t e = 0; e < nEvents; ++e)
        {
            ++event;
            level = prefix->level[e];
            for (; k < prefix->eventEnd[e]; ++k)
            {
                uint32_t f = prefix->order[k];
                if (f >= nFlows || !active[f])
                {
                    throw std::invalid_argument("max-min allocation: bad flow in the prefix");
                }
                freeze(f, prefix->rates[k]);
            }
            for (uint32_t t : touched)
            {
                touchLevel[t] = level;
            }
            touched.clear();
            endEvent();
        }
    }
    for (std::size_t u = 0; u < nUsed; ++u)
    {
        if (activeOn[u] > 0)
        {
            setKey(static_cast<uint32_t>(u), std::max(touchLevel[u], saturation(u)));
        }
    }

    while (nActive > 0)
    {
        while (nextCap < byCap.size() && !active[byCap[nextCap]])
        {
            ++nextCap;
        }
        double resLevel = heap.empty() ? inf : key[heap.front()];
        double capLevel = nextCap < byCap.size() ? flowAt(byCap[nextCap]).maxRate : inf;
        if (!std::isfinite(resLevel) && !std::isfinite(capLevel))
        {
            throw std::invalid_argument("max-min allocation: unbounded flow");
        }
        touched.clear();
        ++event;
        if (capLevel <= resLevel)
        {
            level = std::max(level, capLevel);
            // Every flow whose cap is reached at this level freezes at its cap.
            while (nextCap < byCap.size() &&
                   (!active[byCap[nextCap]] ||
                    flowAt(byCap[nextCap]).maxRate <= level * (1 + 1e-12)))
            {
                uint32_t f = byCap[nextCap++];
                if (active[f])
                {
                    freeze(f, std::min(level, flowAt(f).maxRate));
                }
            }
        }
        else
        {
            uint32_t u = heap.front();
            remove(u);
            level = std::max(level, resLevel);
            for (uint32_t i = start[u]; i < start[u + 1]; ++i)
            {
                uint32_t f = members[i];
                if (active[f])
                {
                    freeze(f, level);
                }
            }
        }
        for (uint32_t t : touched)
        {
            if (activeOn[t] > 0)
            {
                setKey(t, std::max(level, saturation(t)));
            }
            else if (at[t] != kUnset)
            {
                remove(t);
            }
        }
        endEvent();
    }
}

} // namespace

std::vector<double>
MaxMinAllocator::Allocate(const std::vector<double>& capacity, const std::vector<FlowUsage>& flows)
{
    std::vector<double> rates;
    AllocateFlows(
        capacity,
        flows.size(),
        [&flows](std::size_t f) -> const FlowUsage& { return flows[f]; },
        nullptr,
        nullptr,
        rates);
    return rates;
}

std::vector<double>
MaxMinAllocator::Allocate(const std::vector<double>& capacity,
                          const std::vector<const FlowUsage*>& flows)
{
    std::vector<double> rates;
    Allocate(capacity, flows, nullptr, nullptr, rates);
    return rates;
}

std::vector<double>
MaxMinAllocator::Allocate(const std::vector<double>& capacity,
                          const std::vector<const FlowUsage*>& flows,
                          const MaxMinTrace* prefix,
                          MaxMinTrace* trace)
{
    std::vector<double> rates;
    Allocate(capacity, flows, prefix, trace, rates);
    return rates;
}

void
MaxMinAllocator::Allocate(const std::vector<double>& capacity,
                          const std::vector<const FlowUsage*>& flows,
                          const MaxMinTrace* prefix,
                          MaxMinTrace* trace,
                          std::vector<double>& rates)
{
    AllocateFlows(
        capacity,
        flows.size(),
        [&flows](std::size_t f) -> const FlowUsage& { return *flows[f]; },
        prefix,
        trace,
        rates);
}

} // namespace ns3
