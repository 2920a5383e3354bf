/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cost-model.h"

#include "max-min-allocator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

namespace ns3
{

namespace
{

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Cache key of a member set (sorted) and a pattern.
std::string
PlanKey(const std::vector<uint32_t>& sorted, ExchangePattern pattern)
{
    std::string key(sorted.size() * sizeof(uint32_t) + 1, '\0');
    key[0] = static_cast<char>(pattern);
    std::copy_n(reinterpret_cast<const char*>(sorted.data()), sorted.size() * sizeof(uint32_t),
                key.begin() + 1);
    return key;
}

} // namespace

void
CostParameters::Validate() const
{
    ExchangeSizing::Validate();
    if (!(computeTimeS >= 0) || !std::isfinite(computeTimeS))
    {
        throw std::invalid_argument("cost parameters: compute time must not be negative");
    }
    if (localSteps == 0)
    {
        throw std::invalid_argument("cost parameters: local steps must be at least 1");
    }
}

double
CostParameters::RoundComputeS() const
{
    return computeTimeS * localSteps;
}

/// One flow as the fluid model sees it.
struct CostModel::Stream
{
    FlowUsage usage;                 ///< Resources per unit rate.
    double bits;                     ///< Wire bits per source.
    double tailS;                    ///< After the last bit leaves (see TrafficFlow::tailS).
    double startS = 0;               ///< From its phase's start (TrafficFlow::startS).
    std::vector<SlotWindow> windows; ///< Aggregation: the FPGAs' slot windows.
    std::vector<uint32_t> fpgaResources; ///< The windows' FPGA resources (same order).
};

/// One clique under one pattern: its phases as the fluid model runs them.
struct CostModel::Plan
{
    bool feasible = false;
    std::string why;
    ExchangePattern pattern = ExchangePattern::ALL_TO_ALL;
    std::vector<uint32_t> members;         ///< Sorted.
    std::vector<std::vector<Stream>> kinds; ///< Distinct phases.
    std::vector<uint32_t> phases;          ///< Phase p runs kinds[phases[p]].
    std::vector<uint32_t> resources;       ///< Every resource it uses, sorted.
    double boundS = 0;                     ///< CliqueExchange::boundS.
};

struct CostModel::Impl
{
    NetworkCapabilities caps;
    CostParameters params;
    std::unique_ptr<RoutePlanner> routes;
    std::unique_ptr<TrafficPlanner> planner;
    std::vector<double> capacities;
    mutable std::unordered_map<std::string, std::unique_ptr<Plan>> plans;
    mutable std::size_t planStreams = 0; ///< Streams held by `plans` (memory guard).
    mutable std::unordered_map<std::string, std::vector<double>> components;
    /// Per clique (any allowed pattern): the smallest exchange bound, and per resource the
    /// smallest load (bits) over the patterns (only resources every pattern uses).
    struct Least
    {
        double boundS = kInf;
        std::vector<std::pair<uint32_t, double>> loads;
    };
    mutable std::unordered_map<std::string, Least> least;
    mutable std::vector<double> scratch; ///< Per-resource sums of BestRoundLowerBound.
};

CostModel::CostModel(const NetworkGraph& graph, const NetworkCapabilities& caps,
                     const CostParameters& params)
    : m_impl(std::make_unique<Impl>())
{
    params.Validate();
    m_impl->caps = caps;
    m_impl->params = params;
    m_impl->routes = std::make_unique<RoutePlanner>(graph);
    m_impl->planner = std::make_unique<TrafficPlanner>(*m_impl->routes, m_impl->caps);
    m_impl->planner->SetSizing(params);
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

ExchangePattern
CostModel::DefaultPattern() const
{
    return m_impl->caps.DefaultPattern();
}

const CostModel::Plan&
CostModel::PlanOf(const std::vector<uint32_t>& members, ExchangePattern pattern) const
{
    std::vector<uint32_t> sorted = members;
    std::sort(sorted.begin(), sorted.end());
    std::string key = PlanKey(sorted, pattern);
    auto it = m_impl->plans.find(key);
    if (it != m_impl->plans.end())
    {
        return *it->second;
    }
    // Memory guard for long searches over large instances: plans are recomputed on demand.
    if (m_impl->planStreams > 4000000)
    {
        m_impl->plans.clear();
        m_impl->planStreams = 0;
    }
    auto plan = std::make_unique<Plan>();
    plan->pattern = pattern;
    plan->members = sorted;
    plan->feasible = m_impl->planner->CanExchange(sorted, pattern, &plan->why);
    if (plan->feasible && sorted.size() >= 2)
    {
        CliqueExchange x = m_impl->planner->Exchange(sorted, pattern);
        plan->boundS = x.boundS;
        const double model = m_impl->params.ModelWireBits();
        std::vector<uint32_t> resources;
        for (const auto& phase : x.phases)
        {
            std::vector<Stream> streams;
            for (const TrafficFlow& f : phase)
            {
                Stream s;
                s.usage = f.usage;
                s.bits = f.fraction * model;
                s.tailS = f.tailS;
                s.startS = f.startS;
                s.windows = f.windows;
                for (const SlotWindow& w : f.windows)
                {
                    s.fpgaResources.push_back(m_impl->planner->FpgaResource(w.device));
                }
                for (const auto& [r, a] : f.usage.usage)
                {
                    resources.push_back(r);
                }
                streams.push_back(std::move(s));
            }
            // Identical consecutive phases (ring steps) are stored once.
            bool same = !plan->kinds.empty() && plan->kinds.back().size() == streams.size();
            for (std::size_t i = 0; same && i < streams.size(); ++i)
            {
                const Stream& a = plan->kinds.back()[i];
                same = a.bits == streams[i].bits && a.tailS == streams[i].tailS &&
                       a.startS == streams[i].startS && a.usage.usage == streams[i].usage.usage;
            }
            if (!same)
            {
                m_impl->planStreams += streams.size();
                plan->kinds.push_back(std::move(streams));
            }
            plan->phases.push_back(static_cast<uint32_t>(plan->kinds.size() - 1));
        }
        std::sort(resources.begin(), resources.end());
        resources.erase(std::unique(resources.begin(), resources.end()), resources.end());
        plan->resources = std::move(resources);
    }
    return *m_impl->plans.emplace(std::move(key), std::move(plan)).first->second;
}

bool
CostModel::Feasible(const std::vector<uint32_t>& members, ExchangePattern pattern) const
{
    return PlanOf(members, pattern).feasible;
}

CliqueExchange
CostModel::Exchange(const std::vector<uint32_t>& members, ExchangePattern pattern) const
{
    return m_impl->planner->Exchange(members, pattern);
}

CostModel::Patterns
CostModel::Resolve(const NodeCliques& cliques, const Patterns& patterns) const
{
    if (patterns.empty())
    {
        return Patterns(cliques.size(), DefaultPattern());
    }
    if (patterns.size() != cliques.size())
    {
        throw std::invalid_argument("cost model: " + std::to_string(patterns.size()) +
                                    " patterns for " + std::to_string(cliques.size()) +
                                    " cliques");
    }
    for (std::size_t c = 0; c < cliques.size(); ++c)
    {
        if (cliques[c].size() >= 2)
        {
            const Plan& p = PlanOf(cliques[c], patterns[c]);
            if (!p.feasible)
            {
                // No route is a broken network (as RoutePlanner reports it); a pattern the
                // set or the FPGAs cannot provide is a bad request.
                for (uint32_t m : cliques[c])
                {
                    if (m < Graph().NodeCount() && !Routes().Reachable(m, cliques[c][0]))
                    {
                        throw std::runtime_error("cost model: " + p.why);
                    }
                }
                throw std::invalid_argument("cost model: " + p.why);
            }
        }
    }
    return patterns;
}

std::vector<std::vector<std::size_t>>
CostModel::Components(const NodeCliques& cliques, const Patterns& patterns) const
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
    std::unordered_map<uint32_t, std::size_t> owner;
    for (std::size_t c = 0; c < cliques.size(); ++c)
    {
        if (cliques[c].size() < 2)
        {
            continue;
        }
        for (uint32_t r : PlanOf(cliques[c], patterns[c]).resources)
        {
            auto [it, fresh] = owner.emplace(r, c);
            if (!fresh)
            {
                parent[find(c)] = find(it->second);
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
CostModel::Simulate(const std::vector<const Plan*>& plans, std::vector<FlowTiming>* timings) const
{
    const TrafficPlanner& planner = *m_impl->planner;
    // Compact resource numbering over the resources these plans use.
    std::unordered_map<uint32_t, uint32_t> index;
    std::vector<double> capacity;
    for (const Plan* p : plans)
    {
        for (uint32_t r : p->resources)
        {
            if (index.emplace(r, static_cast<uint32_t>(capacity.size())).second)
            {
                capacity.push_back(m_impl->capacities[r]);
            }
        }
    }
    // Cliques sharing an FPGA share its slot memory.
    std::unordered_map<uint32_t, double> sharing;
    for (const Plan* p : plans)
    {
        std::vector<uint32_t> fpgas;
        for (const auto& kind : p->kinds)
        {
            for (const Stream& s : kind)
            {
                fpgas.insert(fpgas.end(), s.fpgaResources.begin(), s.fpgaResources.end());
            }
        }
        std::sort(fpgas.begin(), fpgas.end());
        fpgas.erase(std::unique(fpgas.begin(), fpgas.end()), fpgas.end());
        for (uint32_t f : fpgas)
        {
            sharing[f] += 1;
        }
    }

    struct Live
    {
        std::size_t plan;
        const Stream* stream;
        double remaining;
        FlowUsage usage; ///< Compact resources, with the window cap.
        std::size_t timing; ///< Index into *timings (if any).
        bool allocated;
    };
    struct State
    {
        std::size_t phase = 0;
        std::size_t pending = 0;
        double phaseEnd = 0;
        double nextStart = kInf;
        double done = 0;
    };
    std::vector<State> state(plans.size());
    std::vector<Live> live;
    /// Streams of started phases that have nothing to send yet (TrafficFlow::startS).
    struct Waiting
    {
        double at;
        std::size_t plan;
        std::size_t phase;
        const Stream* stream;
    };
    std::vector<Waiting> waiting;
    double now = 0;
    auto launch = [&](std::size_t i, std::size_t phase, const Stream& s) {
        Live l{i, &s, s.bits, FlowUsage{}, 0, false};
        for (const auto& [r, a] : s.usage.usage)
        {
            l.usage.usage.emplace_back(index.at(r), a);
        }
        l.usage.maxRate = s.usage.maxRate;
        for (std::size_t w = 0; w < s.windows.size(); ++w)
        {
            l.usage.maxRate =
                std::min(l.usage.maxRate,
                         planner.WindowRateBps(s.windows[w], sharing.at(s.fpgaResources[w])));
        }
        if (timings)
        {
            l.timing = timings->size();
            timings->push_back(FlowTiming{i, phase, s.bits, now, 0, s.tailS, 0, 0});
        }
        live.push_back(std::move(l));
    };
    auto start = [&](std::size_t i) {
        State& st = state[i];
        const auto& kind = plans[i]->kinds[plans[i]->phases[st.phase]];
        st.pending = kind.size();
        st.phaseEnd = now;
        st.nextStart = kInf;
        for (const Stream& s : kind)
        {
            if (s.startS > 0)
            {
                waiting.push_back(Waiting{now + s.startS, i, st.phase, &s});
            }
            else
            {
                launch(i, st.phase, s);
            }
        }
    };
    // Starts every phase and waiting stream due at `now`.
    auto startDue = [&]() {
        for (std::size_t i = 0; i < plans.size(); ++i)
        {
            if (state[i].nextStart <= now)
            {
                start(i);
            }
        }
        std::size_t kept = 0;
        for (std::size_t w = 0; w < waiting.size(); ++w)
        {
            if (waiting[w].at <= now)
            {
                launch(waiting[w].plan, waiting[w].phase, *waiting[w].stream);
            }
            else
            {
                waiting[kept++] = waiting[w];
            }
        }
        waiting.resize(kept);
    };
    for (std::size_t i = 0; i < plans.size(); ++i)
    {
        if (!plans[i]->phases.empty())
        {
            start(i);
        }
    }
    std::vector<const FlowUsage*> usage;
    while (true)
    {
        double startAt = kInf;
        for (const State& st : state)
        {
            startAt = std::min(startAt, st.nextStart);
        }
        for (const Waiting& w : waiting)
        {
            startAt = std::min(startAt, w.at);
        }
        if (live.empty())
        {
            if (std::isinf(startAt))
            {
                break;
            }
            now = startAt;
            startDue();
            continue;
        }
        usage.clear();
        for (const Live& l : live)
        {
            usage.push_back(&l.usage);
        }
        std::vector<double> rate = MaxMinAllocator::Allocate(capacity, usage);
        double dt = kInf;
        std::size_t first = live.size();
        for (std::size_t k = 0; k < live.size(); ++k)
        {
            if (timings && !live[k].allocated)
            {
                (*timings)[live[k].timing].initialRateBps = rate[k];
            }
            live[k].allocated = true;
            if (rate[k] > 0 && live[k].remaining / rate[k] < dt)
            {
                dt = live[k].remaining / rate[k];
                first = k;
            }
        }
        if (first == live.size() && std::isinf(startAt))
        {
            throw std::runtime_error(
                "cost model: streams cannot progress (zero capacity on their paths)");
        }
        if (startAt < now + dt)
        {
            // A phase starts before any live flow finishes: advance to it.
            for (std::size_t k = 0; k < live.size(); ++k)
            {
                live[k].remaining -= rate[k] * (startAt - now);
            }
            now = startAt;
            startDue();
            continue;
        }
        now += dt;
        std::size_t kept = 0;
        for (std::size_t k = 0; k < live.size(); ++k)
        {
            Live& l = live[k];
            l.remaining -= rate[k] * dt;
            // Flows within a millionth of their size of the end finish with this event (an
            // error of at most a millionth of a flow's time; saves reallocations).
            if (k == first || l.remaining <= 1e-6 * l.stream->bits)
            {
                State& st = state[l.plan];
                st.phaseEnd = std::max(st.phaseEnd, now + l.stream->tailS);
                if (timings)
                {
                    FlowTiming& t = (*timings)[l.timing];
                    t.lastBitS = now;
                    t.finishS = now + t.tailS;
                }
                if (--st.pending == 0)
                {
                    st.done = st.phaseEnd;
                    if (++st.phase < plans[l.plan]->phases.size())
                    {
                        st.nextStart = st.phaseEnd;
                    }
                }
            }
            else
            {
                if (kept != k)
                {
                    live[kept] = std::move(l);
                }
                ++kept;
            }
        }
        live.resize(kept);
        startDue();
    }
    std::vector<double> out;
    for (const State& st : state)
    {
        out.push_back(st.done);
    }
    return out;
}

std::vector<double>
CostModel::CliqueCommTimes(const NodeCliques& cliques) const
{
    return CliqueCommTimes(cliques, {});
}

std::vector<double>
CostModel::CliqueCommTimes(const NodeCliques& cliques, const Patterns& given) const
{
    Patterns patterns = Resolve(cliques, given);
    std::vector<double> out(cliques.size(), 0.0);
    std::vector<std::vector<uint32_t>> sorted(cliques.size());
    for (std::size_t c = 0; c < cliques.size(); ++c)
    {
        sorted[c] = cliques[c];
        std::sort(sorted[c].begin(), sorted[c].end());
    }
    for (const auto& comp : Components(cliques, patterns))
    {
        // Canonical key: the component's (sorted clique, pattern) pairs in sorted order.
        std::vector<std::size_t> order = comp;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return sorted[a] != sorted[b] ? sorted[a] < sorted[b] : patterns[a] < patterns[b];
        });
        std::string key;
        for (std::size_t c : order)
        {
            key += PlanKey(sorted[c], patterns[c]);
            key += '\xff';
            key += static_cast<char>(sorted[c].size());
        }
        auto it = m_impl->components.find(key);
        if (it == m_impl->components.end())
        {
            std::vector<const Plan*> plans;
            for (std::size_t c : order)
            {
                plans.push_back(&PlanOf(sorted[c], patterns[c]));
            }
            it = m_impl->components.emplace(std::move(key), Simulate(plans, nullptr)).first;
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
    return SimulateFlows(cliques, {});
}

std::vector<FlowTiming>
CostModel::SimulateFlows(const NodeCliques& cliques, const Patterns& given) const
{
    Patterns patterns = Resolve(cliques, given);
    std::vector<const Plan*> plans;
    std::vector<std::size_t> owner;
    for (std::size_t c = 0; c < cliques.size(); ++c)
    {
        if (cliques[c].size() >= 2)
        {
            plans.push_back(&PlanOf(cliques[c], patterns[c]));
            owner.push_back(c);
        }
    }
    std::vector<FlowTiming> out;
    Simulate(plans, &out);
    for (FlowTiming& t : out)
    {
        t.clique = owner[t.clique];
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
    return Round(cliques, Patterns{});
}

RoundCost
CostModel::Round(const NodeCliques& cliques, const Patterns& given) const
{
    RoundCost rc;
    rc.patterns = Resolve(cliques, given);
    rc.computeS = m_impl->params.RoundComputeS();
    rc.cliqueCommS = CliqueCommTimes(cliques, rc.patterns);
    for (double t : rc.cliqueCommS)
    {
        rc.commS = std::max(rc.commS, t);
        rc.cliqueRoundS.push_back(RoundTimeOf(t));
    }
    rc.roundS = RoundTimeOf(rc.commS);
    return rc;
}

RoundCost
CostModel::BestRound(const NodeCliques& cliques) const
{
    const std::size_t n = cliques.size();
    std::vector<std::size_t> real; // cliques of two or more
    for (std::size_t c = 0; c < n; ++c)
    {
        if (cliques[c].size() >= 2)
        {
            real.push_back(c);
        }
    }
    Patterns assign(n, DefaultPattern());
    if (real.empty())
    {
        return Round(cliques, assign);
    }
    // (latest clique, sum of clique times) of an assignment.
    auto evaluate = [&](const Patterns& a) {
        std::vector<double> t = CliqueCommTimes(cliques, a);
        double worst = 0;
        double sum = 0;
        for (double x : t)
        {
            worst = std::max(worst, x);
            sum += x;
        }
        return std::make_pair(worst, sum);
    };
    auto better = [](const std::pair<double, double>& a, const std::pair<double, double>& b) {
        double tol = 1e-12 * std::max(1.0, b.first);
        return a.first < b.first - tol ||
               (a.first <= b.first + tol && a.second < b.second - 1e-12 * std::max(1.0, b.second));
    };
    std::pair<double, double> bestKey{kInf, kInf};
    Patterns best;
    for (const auto& level : m_impl->caps.PatternLevels())
    {
        // Patterns of the level each clique can use, and its time alone under each.
        std::vector<std::vector<ExchangePattern>> usable(n);
        Patterns greedy = assign;
        bool independent = true;
        bool infeasible = false;
        std::unordered_map<uint32_t, std::size_t> owner;
        for (std::size_t c : real)
        {
            double fastest = kInf;
            // Patterns by their bound alone: one whose bound is no better than the fastest
            // simulated so far cannot be the fastest alone (not simulated; a 128-island
            // all-to-all would take a minute).
            std::vector<std::pair<double, ExchangePattern>> byBound;
            for (ExchangePattern p : level)
            {
                const Plan& plan = PlanOf(cliques[c], p);
                if (plan.feasible)
                {
                    byBound.emplace_back(plan.boundS, p);
                }
            }
            std::stable_sort(byBound.begin(), byBound.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
            for (const auto& [boundS, p] : byBound)
            {
                const Plan& plan = PlanOf(cliques[c], p);
                usable[c].push_back(p);
                double alone = boundS >= fastest ? kInf : CliqueCommTimes({cliques[c]}, {p})[0];
                if (alone < fastest)
                {
                    fastest = alone;
                    greedy[c] = p;
                }
                for (uint32_t r : plan.resources)
                {
                    auto [it, fresh] = owner.emplace(r, c);
                    independent = independent && (fresh || it->second == c);
                }
            }
            if (usable[c].empty())
            {
                infeasible = true;
            }
        }
        if (infeasible)
        {
            continue; // a richer level may carry every clique
        }
        std::vector<Patterns> candidates{greedy};
        if (!independent)
        {
            // Cliques that share nothing under any pattern: each takes its fastest alone,
            // which is optimal; otherwise every single-pattern assignment too.
            for (ExchangePattern p : level)
            {
                Patterns a = greedy;
                for (std::size_t c : real)
                {
                    if (std::find(usable[c].begin(), usable[c].end(), p) != usable[c].end())
                    {
                        a[c] = p;
                    }
                }
                candidates.push_back(a);
            }
        }
        for (const Patterns& a : candidates)
        {
            auto key = evaluate(a);
            if (best.empty() || better(key, bestKey))
            {
                best = a;
                bestKey = key;
            }
        }
        // Coordinate descent from the best so far (which includes the previous level's).
        for (int sweep = 0; sweep < 3 && !independent; ++sweep)
        {
            bool improved = false;
            for (std::size_t c : real)
            {
                for (ExchangePattern p : usable[c])
                {
                    if (p == best[c])
                    {
                        continue;
                    }
                    Patterns a = best;
                    a[c] = p;
                    auto key = evaluate(a);
                    if (better(key, bestKey))
                    {
                        best = a;
                        bestKey = key;
                        improved = true;
                    }
                }
            }
            if (!improved)
            {
                break;
            }
        }
    }
    if (best.empty())
    {
        // Some clique has no pattern it can use: the round cannot run.
        RoundCost rc;
        rc.patterns = assign;
        rc.computeS = m_impl->params.RoundComputeS();
        rc.commS = kInf;
        rc.roundS = kInf;
        for (std::size_t c = 0; c < n; ++c)
        {
            bool stuck = cliques[c].size() >= 2;
            for (ExchangePattern p : m_impl->caps.AllowedPatterns())
            {
                stuck = stuck && !PlanOf(cliques[c], p).feasible;
            }
            rc.cliqueCommS.push_back(stuck ? kInf : 0.0);
            rc.cliqueRoundS.push_back(stuck ? kInf : RoundTimeOf(0));
        }
        return rc;
    }
    return Round(cliques, best);
}

double
CostModel::BestRoundLowerBound(const NodeCliques& cliques) const
{
    // Every clique needs at least its smallest exchange bound; every resource carries at
    // least the sum over cliques of their smallest load on it.
    double comm = 0;
    auto& sum = m_impl->scratch;
    sum.resize(m_impl->capacities.size(), 0.0);
    std::vector<uint32_t> touched;
    for (const auto& c : cliques)
    {
        if (c.size() < 2)
        {
            continue;
        }
        std::vector<uint32_t> sorted = c;
        std::sort(sorted.begin(), sorted.end());
        std::string key = PlanKey(sorted, ExchangePattern::ALL_TO_ALL);
        key[0] = '\x7f';
        auto it = m_impl->least.find(key);
        if (it == m_impl->least.end())
        {
            Impl::Least least;
            std::unordered_map<uint32_t, std::pair<double, int>> loads; // r -> (min, patterns)
            int feasible = 0;
            for (ExchangePattern p : m_impl->caps.AllowedPatterns())
            {
                const Plan& plan = PlanOf(sorted, p);
                if (!plan.feasible)
                {
                    continue;
                }
                ++feasible;
                least.boundS = std::min(least.boundS, plan.boundS);
                std::unordered_map<uint32_t, double> mine;
                for (uint32_t k : plan.phases)
                {
                    for (const Stream& s : plan.kinds[k])
                    {
                        for (const auto& [r, a] : s.usage.usage)
                        {
                            mine[r] += a * s.bits;
                        }
                    }
                }
                for (const auto& [r, bits] : mine)
                {
                    auto [l, fresh] = loads.emplace(r, std::make_pair(bits, 0));
                    l->second.first = std::min(l->second.first, bits);
                    ++l->second.second;
                }
            }
            for (const auto& [r, ml] : loads)
            {
                if (ml.second == feasible)
                {
                    least.loads.emplace_back(r, ml.first);
                }
            }
            it = m_impl->least.emplace(std::move(key), std::move(least)).first;
        }
        comm = std::max(comm, it->second.boundS);
        for (const auto& [r, bits] : it->second.loads)
        {
            if (sum[r] == 0)
            {
                touched.push_back(r);
            }
            sum[r] += bits;
        }
    }
    for (uint32_t r : touched)
    {
        comm = std::max(comm, sum[r] / m_impl->capacities[r]);
        sum[r] = 0;
    }
    return RoundTimeOf(comm);
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
    Patterns patterns;
    for (std::size_t c = 0; c < cliques.size(); ++c)
    {
        patterns.push_back(round.PatternOf(c, DefaultPattern()));
    }
    return Round(cliques, patterns);
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
    return CommLowerBound(cliques, {});
}

double
CostModel::CommLowerBound(const NodeCliques& cliques, const Patterns& given) const
{
    Patterns patterns = Resolve(cliques, given);
    const auto& caps = m_impl->capacities;
    double bound = 0;
    // Per resource: total bits x coefficient, and the smallest tail of a flow through it.
    std::unordered_map<uint32_t, std::pair<double, double>> load;
    for (std::size_t c = 0; c < cliques.size(); ++c)
    {
        if (cliques[c].size() < 2)
        {
            continue;
        }
        const Plan& plan = PlanOf(cliques[c], patterns[c]);
        bound = std::max(bound, plan.boundS);
        for (uint32_t k : plan.phases)
        {
            for (const Stream& s : plan.kinds[k])
            {
                for (const auto& [r, a] : s.usage.usage)
                {
                    auto [it, fresh] = load.emplace(r, std::make_pair(0.0, kInf));
                    it->second.first += a * s.bits;
                    it->second.second = std::min(it->second.second, s.tailS);
                }
            }
        }
    }
    for (const auto& [r, bt] : load)
    {
        bound = std::max(bound, bt.first / caps[r] + bt.second);
    }
    return bound;
}

std::size_t
CostModel::CachedComponents() const
{
    return m_impl->components.size();
}

} // namespace ns3
