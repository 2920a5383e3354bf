/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cost-model.h"

#include "max-min-allocator.h"
#include "wire-format.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

namespace ns3
{

void
CostParameters::Validate() const
{
    if (!(modelBytes >= 1) || !std::isfinite(modelBytes))
    {
        throw std::invalid_argument("cost parameters: model bytes must be at least 1");
    }
    if (segmentPayloadBytes == 0)
    {
        throw std::invalid_argument("cost parameters: segment payload must be at least 1 byte");
    }
    if (!(computeTimeS >= 0) || !std::isfinite(computeTimeS))
    {
        throw std::invalid_argument("cost parameters: compute time must not be negative");
    }
    if (localSteps == 0)
    {
        throw std::invalid_argument("cost parameters: local steps must be at least 1");
    }
}

uint64_t
CostParameters::Segments() const
{
    return static_cast<uint64_t>(std::ceil(modelBytes / segmentPayloadBytes));
}

double
CostParameters::ModelWireBits() const
{
    double overhead = static_cast<double>(WireFormat::WireBytes(0));
    return 8.0 * (modelBytes + static_cast<double>(Segments()) * overhead);
}

double
CostParameters::SegmentWireBits() const
{
    double payload = std::min<double>(segmentPayloadBytes, std::ceil(modelBytes));
    return 8.0 * static_cast<double>(WireFormat::WireBytes(static_cast<uint64_t>(payload)));
}

double
CostParameters::RoundComputeS() const
{
    return computeTimeS * localSteps;
}

/// One stream as the fluid model sees it.
struct CostModel::Stream
{
    FlowUsage usage; ///< Resources per unit rate, and the window cap.
    double bits;     ///< Wire bits per source.
    double tailS;    ///< Propagation + store-and-forward after the last bit leaves.
    double bestRate; ///< The rate it would get alone (bottleneck / coefficient, cap).
};

struct CostModel::Impl
{
    NetworkCapabilities caps;
    CostParameters params;
    std::unique_ptr<RoutePlanner> routes;
    std::unique_ptr<TrafficPlanner> planner;
    std::vector<double> capacities;
    mutable std::map<std::vector<uint32_t>, std::vector<Stream>> streams;
    mutable std::unordered_map<uint64_t, std::vector<Stream>> streamsByMask;
    mutable std::map<std::vector<std::vector<uint32_t>>, std::vector<double>> components;
    mutable std::vector<double> scratchBits; ///< CommLowerBound's per-resource work space.
    mutable std::vector<double> scratchTail;
};

namespace
{

/// Arrival offsets of the last segment at every node of a hop list (path or ordered tree)
/// starting at \p root; \p sfFirst charges store-and-forward on the hops leaving the root.
std::map<uint32_t, double>
Arrivals(const NetworkGraph& g, const std::vector<double>& caps, const RoutePlanner::Path& hops,
         uint32_t root, double segBits, bool sfFirst)
{
    std::map<uint32_t, double> at{{root, 0.0}};
    for (const auto& h : hops)
    {
        const GraphEdge& e = g.Edges()[h.edge];
        double sf =
            (h.from != root || sfFirst) ? segBits / caps[g.Resource(e, h.edge, h.from)] : 0.0;
        at[h.to] = at.at(h.from) + e.latencyS + sf;
    }
    return at;
}

double
Latest(const std::map<uint32_t, double>& at, const std::vector<uint32_t>& nodes)
{
    double t = 0;
    for (uint32_t n : nodes)
    {
        t = std::max(t, at.at(n));
    }
    return t;
}

} // namespace

CostModel::CostModel(const NetworkGraph& graph, const NetworkCapabilities& caps,
                     const CostParameters& params)
    : m_impl(std::make_unique<Impl>())
{
    params.Validate();
    m_impl->caps = caps;
    m_impl->params = params;
    m_impl->routes = std::make_unique<RoutePlanner>(graph);
    m_impl->planner = std::make_unique<TrafficPlanner>(*m_impl->routes, m_impl->caps);
    m_impl->capacities = m_impl->planner->Capacities();
}

CostModel::~CostModel() = default;
CostModel::CostModel(CostModel&&) noexcept = default;
CostModel& CostModel::operator=(CostModel&&) noexcept = default;

const CostParameters&
CostModel::Parameters() const
{
    return m_impl->params;
}

const NetworkCapabilities&
CostModel::Capabilities() const
{
    return m_impl->caps;
}

const RoutePlanner&
CostModel::Routes() const
{
    return *m_impl->routes;
}

const TrafficPlanner&
CostModel::Planner() const
{
    return *m_impl->planner;
}

const NetworkGraph&
CostModel::Graph() const
{
    return m_impl->routes->Graph();
}

uint32_t
CostModel::IslandNode(const std::string& city) const
{
    return Graph().IslandNode(city);
}

const std::vector<CostModel::Stream>&
CostModel::StreamsOf(std::vector<uint32_t> members) const
{
    // Fast key: the member bit set when every member is one of the first 64 nodes.
    uint64_t mask = 0;
    bool small = true;
    for (uint32_t m : members)
    {
        small = small && m < 64;
        mask |= small ? uint64_t{1} << m : 0;
    }
    if (small)
    {
        auto hit = m_impl->streamsByMask.find(mask);
        if (hit != m_impl->streamsByMask.end())
        {
            return hit->second;
        }
    }
    std::sort(members.begin(), members.end());
    auto it = m_impl->streams.find(members);
    if (it != m_impl->streams.end())
    {
        return it->second;
    }
    const NetworkGraph& g = Graph();
    const auto& caps = m_impl->capacities;
    const CostParameters& p = m_impl->params;
    const NetworkCapabilities& nc = m_impl->caps;
    const double segBits = p.SegmentWireBits();
    std::vector<Stream> out;
    for (const TrafficFlow& f : m_impl->planner->CliqueFlows(members))
    {
        Stream s;
        s.usage = f.usage;
        s.bits = p.ModelWireBits();
        if (f.kind == ExchangePattern::AGGREGATION)
        {
            double ready = 0;
            for (std::size_t i = 0; i < f.up.size(); ++i)
            {
                auto at = Arrivals(g, caps, f.up[i], f.sources[i], segBits, false);
                ready = std::max(ready, at.at(static_cast<uint32_t>(f.aggregator)));
            }
            ready += nc.fpgaLatencyS;
            auto agg = static_cast<uint32_t>(f.aggregator);
            s.tailS = ready + Latest(Arrivals(g, caps, f.down, agg, segBits, true), f.receivers);
            // SwitchML window: aggregationSlots x slotBytes payload bytes in flight per clique,
            // a slot reused one round trip (the tail) after it was sent.
            double window = static_cast<double>(nc.aggregationSlots) * nc.slotBytes;
            if (window < p.modelBytes)
            {
                double segments = window / p.segmentPayloadBytes;
                s.usage.maxRate = segments * segBits / s.tailS;
            }
        }
        else
        {
            s.tailS = Latest(Arrivals(g, caps, f.down, f.sources[0], segBits, false), f.receivers);
        }
        s.bestRate = s.usage.maxRate;
        for (const auto& [r, a] : s.usage.usage)
        {
            s.bestRate = std::min(s.bestRate, caps[r] / a);
        }
        out.push_back(std::move(s));
    }
    if (small)
    {
        return m_impl->streamsByMask.emplace(mask, std::move(out)).first->second;
    }
    return m_impl->streams.emplace(members, std::move(out)).first->second;
}

std::vector<std::vector<std::size_t>>
CostModel::Components(const NodeCliques& cliques) const
{
    std::vector<std::size_t> parent(cliques.size());
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&parent](std::size_t x) {
        while (parent[x] != x)
        {
            x = parent[x] = parent[parent[x]];
        }
        return x;
    };
    std::map<uint32_t, std::size_t> owner;
    for (std::size_t c = 0; c < cliques.size(); ++c)
    {
        if (cliques[c].size() < 2)
        {
            continue;
        }
        for (const Stream& s : StreamsOf(cliques[c]))
        {
            for (const auto& ra : s.usage.usage)
            {
                auto [it, fresh] = owner.emplace(ra.first, c);
                if (!fresh)
                {
                    parent[find(c)] = find(it->second);
                }
            }
        }
    }
    std::map<std::size_t, std::vector<std::size_t>> groups;
    for (std::size_t c = 0; c < cliques.size(); ++c)
    {
        if (cliques[c].size() >= 2)
        {
            groups[find(c)].push_back(c);
        }
    }
    std::vector<std::vector<std::size_t>> out;
    for (auto& [root, members] : groups)
    {
        out.push_back(std::move(members));
    }
    return out;
}

std::vector<double>
CostModel::Fill(const std::vector<const Stream*>& streams) const
{
    // Work on the resources these streams use only (compact numbering).
    std::map<uint32_t, uint32_t> index;
    std::vector<double> capacity;
    std::vector<FlowUsage> usage(streams.size());
    for (std::size_t i = 0; i < streams.size(); ++i)
    {
        for (const auto& [r, a] : streams[i]->usage.usage)
        {
            auto [it, fresh] = index.emplace(r, static_cast<uint32_t>(capacity.size()));
            if (fresh)
            {
                capacity.push_back(m_impl->capacities[r]);
            }
            usage[i].usage.emplace_back(it->second, a);
        }
        usage[i].maxRate = streams[i]->usage.maxRate;
    }
    std::vector<double> remaining(streams.size());
    std::vector<double> lastBit(streams.size(), 0.0);
    std::vector<std::size_t> active;
    for (std::size_t i = 0; i < streams.size(); ++i)
    {
        remaining[i] = streams[i]->bits;
        if (remaining[i] > 0)
        {
            active.push_back(i);
        }
    }
    double now = 0;
    // Usages of the active streams, kept aligned with `active` (compacted, not rebuilt).
    std::vector<FlowUsage> sub;
    for (std::size_t i : active)
    {
        sub.push_back(std::move(usage[i]));
    }
    while (!active.empty())
    {
        std::vector<double> rate = MaxMinAllocator::Allocate(capacity, sub);
        double dt = std::numeric_limits<double>::infinity();
        std::size_t first = active.size();
        for (std::size_t k = 0; k < active.size(); ++k)
        {
            if (rate[k] > 0 && remaining[active[k]] / rate[k] < dt)
            {
                dt = remaining[active[k]] / rate[k];
                first = k;
            }
        }
        if (first == active.size())
        {
            throw std::runtime_error(
                "cost model: streams cannot progress (zero capacity on their paths)");
        }
        now += dt;
        std::size_t kept = 0;
        for (std::size_t k = 0; k < active.size(); ++k)
        {
            std::size_t i = active[k];
            remaining[i] -= rate[k] * dt;
            // Streams within a millionth of their size of the end finish with this event
            // (an error of at most a millionth of a stream's time; saves reallocations).
            if (k == first || remaining[i] <= 1e-6 * streams[i]->bits)
            {
                lastBit[i] = now;
            }
            else
            {
                active[kept] = i;
                if (kept != k)
                {
                    sub[kept] = std::move(sub[k]);
                }
                ++kept;
            }
        }
        active.resize(kept);
        sub.resize(kept);
    }
    return lastBit;
}

std::vector<double>
CostModel::CliqueCommTimes(const NodeCliques& cliques) const
{
    std::vector<double> out(cliques.size(), 0.0);
    std::vector<std::vector<uint32_t>> sorted(cliques.size());
    for (std::size_t c = 0; c < cliques.size(); ++c)
    {
        sorted[c] = cliques[c];
        std::sort(sorted[c].begin(), sorted[c].end());
    }
    for (const auto& comp : Components(cliques))
    {
        // Canonical key: the component's sorted cliques in sorted order.
        std::vector<std::size_t> order = comp;
        std::sort(order.begin(), order.end(),
                  [&sorted](std::size_t a, std::size_t b) { return sorted[a] < sorted[b]; });
        std::vector<std::vector<uint32_t>> key;
        for (std::size_t c : order)
        {
            key.push_back(sorted[c]);
        }
        auto it = m_impl->components.find(key);
        if (it == m_impl->components.end())
        {
            std::vector<const Stream*> streams;
            std::vector<std::size_t> owner;
            for (std::size_t k = 0; k < key.size(); ++k)
            {
                for (const Stream& s : StreamsOf(key[k]))
                {
                    streams.push_back(&s);
                    owner.push_back(k);
                }
            }
            std::vector<double> last = Fill(streams);
            std::vector<double> times(key.size(), 0.0);
            for (std::size_t i = 0; i < streams.size(); ++i)
            {
                times[owner[i]] = std::max(times[owner[i]], last[i] + streams[i]->tailS);
            }
            it = m_impl->components.emplace(std::move(key), std::move(times)).first;
        }
        for (std::size_t k = 0; k < order.size(); ++k)
        {
            out[order[k]] = it->second[k];
        }
    }
    return out;
}

std::vector<FlowTiming>
CostModel::SimulateFlows(const NodeCliques& cliques) const
{
    std::vector<const Stream*> streams;
    std::vector<FlowTiming> out;
    for (std::size_t c = 0; c < cliques.size(); ++c)
    {
        if (cliques[c].size() < 2)
        {
            continue;
        }
        for (const Stream& s : StreamsOf(cliques[c]))
        {
            streams.push_back(&s);
            out.push_back(FlowTiming{c, s.bits, 0, s.tailS, 0, 0});
        }
    }
    std::vector<double> last = Fill(streams);
    std::vector<FlowUsage> all;
    for (const Stream* s : streams)
    {
        all.push_back(s->usage);
    }
    std::vector<double> initial = streams.empty()
                                      ? std::vector<double>{}
                                      : MaxMinAllocator::Allocate(m_impl->capacities, all);
    for (std::size_t i = 0; i < out.size(); ++i)
    {
        out[i].lastBitS = last[i];
        out[i].finishS = last[i] + out[i].tailS;
        out[i].initialRateBps = initial[i];
    }
    return out;
}

double
CostModel::RoundTimeOf(double commS) const
{
    double c = m_impl->params.RoundComputeS();
    return m_impl->params.overlap ? std::max(c, commS) : c + commS;
}

RoundCost
CostModel::Round(const NodeCliques& cliques) const
{
    RoundCost rc;
    rc.computeS = m_impl->params.RoundComputeS();
    rc.cliqueCommS = CliqueCommTimes(cliques);
    for (double t : rc.cliqueCommS)
    {
        rc.commS = std::max(rc.commS, t);
        rc.cliqueRoundS.push_back(RoundTimeOf(t));
    }
    rc.roundS = RoundTimeOf(rc.commS);
    return rc;
}

RoundCost
CostModel::Round(const ScheduleRound& round) const
{
    NodeCliques cliques;
    for (const Clique& c : round.cliques)
    {
        std::vector<uint32_t> nodes;
        for (const std::string& city : c)
        {
            nodes.push_back(IslandNode(city));
        }
        cliques.push_back(std::move(nodes));
    }
    return Round(cliques);
}

std::vector<RoundCost>
CostModel::Run(const Schedule& schedule, std::size_t rounds) const
{
    std::vector<RoundCost> period;
    for (const ScheduleRound& r : schedule.Rounds())
    {
        period.push_back(Round(r));
    }
    std::vector<RoundCost> out;
    for (std::size_t r = 0; r < rounds && !period.empty(); ++r)
    {
        out.push_back(period[r % period.size()]);
    }
    return out;
}

std::vector<double>
CostModel::PeriodRoundTimes(const Schedule& schedule) const
{
    std::vector<double> out;
    for (const RoundCost& rc : Run(schedule, schedule.Period()))
    {
        out.push_back(rc.roundS);
    }
    return out;
}

double
CostModel::RunEndS(const std::vector<RoundCost>& rounds) const
{
    double end = 0;
    for (std::size_t r = 0; r < rounds.size(); ++r)
    {
        const RoundCost& rc = rounds[r];
        if (!m_impl->params.overlap)
        {
            end += rc.computeS + rc.commS;
        }
        else
        {
            // e_0 = compute; e_{r+1} = e_r + max(compute, comm_r); the run ends at e_N-1 + comm.
            end += r == 0 ? rc.computeS : std::max(rc.computeS, rounds[r - 1].commS);
            if (r + 1 == rounds.size())
            {
                end += rc.commS;
            }
        }
    }
    return end;
}

double
CostModel::CommLowerBound(const NodeCliques& cliques) const
{
    const auto& caps = m_impl->capacities;
    double bound = 0;
    // Per resource: total bits x coefficient, and the smallest tail of a stream through it.
    std::vector<double>& bits = m_impl->scratchBits;
    std::vector<double>& tail = m_impl->scratchTail;
    bits.assign(caps.size(), 0.0);
    tail.assign(caps.size(), std::numeric_limits<double>::infinity());
    std::vector<uint32_t> touched;
    for (const auto& c : cliques)
    {
        if (c.size() < 2)
        {
            continue;
        }
        for (const Stream& s : StreamsOf(c))
        {
            bound = std::max(bound, s.bits / s.bestRate + s.tailS);
            for (const auto& [r, a] : s.usage.usage)
            {
                if (bits[r] == 0)
                {
                    touched.push_back(r);
                }
                bits[r] += a * s.bits;
                tail[r] = std::min(tail[r], s.tailS);
            }
        }
    }
    for (uint32_t r : touched)
    {
        bound = std::max(bound, bits[r] / caps[r] + tail[r]);
    }
    return bound;
}

std::size_t
CostModel::CachedComponents() const
{
    return m_impl->components.size();
}

} // namespace ns3
