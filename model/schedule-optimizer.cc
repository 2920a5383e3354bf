/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "schedule-optimizer.h"

#include "baseline-schedules.h"
#include "consensus-objective.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Rounds of the periodic \p partitions (blocks as bit masks over n <= 64 islands) until every
/// island has heard from every other (information travels one clique per round), or
/// SIZE_MAX if that takes more than \p cap rounds.
std::size_t
FloodRounds(const std::vector<const std::vector<uint64_t>*>& partitions, std::size_t n,
            std::size_t cap)
{
    const uint64_t all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    uint64_t heard[64];
    for (std::size_t i = 0; i < n; ++i)
    {
        heard[i] = uint64_t{1} << i;
    }
    for (std::size_t k = 1; k <= cap; ++k)
    {
        bool done = true;
        for (uint64_t b : *partitions[(k - 1) % partitions.size()])
        {
            uint64_t u = 0;
            for (uint64_t m = b; m; m &= m - 1)
            {
                u |= heard[__builtin_ctzll(m)];
            }
            for (uint64_t m = b; m; m &= m - 1)
            {
                heard[__builtin_ctzll(m)] = u;
            }
            done = done && u == all;
        }
        if (done)
        {
            return k;
        }
    }
    return std::numeric_limits<std::size_t>::max();
}

/// Lower bound of FloodRounds from the largest clique of every round: what an island has
/// heard from grows at most by that factor per round. SIZE_MAX if it never completes.
std::size_t
MinFloodRounds(const std::vector<std::size_t>& largest, std::size_t n)
{
    double reach = 1;
    bool grows = false;
    for (std::size_t s : largest)
    {
        grows = grows || s > 1;
    }
    if (!grows)
    {
        return n <= 1 ? 0 : std::numeric_limits<std::size_t>::max();
    }
    std::size_t k = 0;
    while (reach < static_cast<double>(n))
    {
        reach *= static_cast<double>(largest[k % largest.size()]);
        ++k;
    }
    return k;
}

} // namespace

ScheduleOptimizer::ScheduleOptimizer(const CostModel& cost, std::vector<std::string> islands,
                                     OptimizerOptions options)
    : m_cost(cost),
      m_islands(std::move(islands)),
      m_options(std::move(options)),
      m_rng(m_options.seed),
      m_startTime(std::chrono::steady_clock::now())
{
    if (!(m_options.budgetS >= 0) || !std::isfinite(m_options.budgetS))
    {
        throw std::invalid_argument("schedule optimizer: the time budget must be a finite "
                                    "number of seconds, 0 for none");
    }
    if (m_islands.empty())
    {
        throw std::invalid_argument("schedule optimizer: no islands");
    }
    if (m_islands.size() > 200)
    {
        throw std::invalid_argument("schedule optimizer: at most 200 islands");
    }
    if (std::set<std::string>(m_islands.begin(), m_islands.end()).size() != m_islands.size())
    {
        throw std::invalid_argument("schedule optimizer: an island is listed twice");
    }
    if (m_options.maxPeriod == 0)
    {
        throw std::invalid_argument("schedule optimizer: the period must be at least 1");
    }
    for (const std::string& c : m_islands)
    {
        m_nodes.push_back(m_cost.IslandNode(c));
    }
    m_objective = m_options.objective;
    if (!m_objective)
    {
        m_objective =
            std::make_shared<ConsensusTimeObjective>(m_islands.size(), m_options.target);
    }
}

const std::vector<std::string>&
ScheduleOptimizer::Islands() const
{
    return m_islands;
}

const ScheduleObjective&
ScheduleOptimizer::Objective() const
{
    return *m_objective;
}

uint64_t
ScheduleOptimizer::BellNumber(std::size_t n)
{
    // Bell triangle with saturation.
    const uint64_t max = std::numeric_limits<uint64_t>::max();
    std::vector<uint64_t> row{1};
    for (std::size_t i = 1; i <= n; ++i)
    {
        std::vector<uint64_t> next{row.back()};
        for (uint64_t v : row)
        {
            next.push_back(next.back() > max - v ? max : next.back() + v);
        }
        row.swap(next);
    }
    return row.front();
}

std::string
ScheduleOptimizer::CliqueSizes(const Schedule& schedule)
{
    std::string out;
    for (const ScheduleRound& r : schedule.Rounds())
    {
        std::vector<std::size_t> sizes;
        for (const Clique& c : r.cliques)
        {
            sizes.push_back(c.size());
        }
        std::sort(sizes.rbegin(), sizes.rend());
        out += out.empty() ? "" : " | ";
        for (std::size_t i = 0; i < sizes.size(); ++i)
        {
            out += (i ? "+" : "") + std::to_string(sizes[i]);
        }
    }
    return out;
}

bool
ScheduleOptimizer::OutOfBudget()
{
    if (!m_outOfBudget)
    {
        bool candidates =
            m_options.budgetCandidates > 0 && m_evaluated >= m_options.budgetCandidates;
        bool seconds = m_options.budgetS > 0 &&
                       std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                                     m_startTime)
                                   .count() >= m_options.budgetS;
        m_outOfBudget = candidates || seconds;
    }
    return m_outOfBudget;
}

uint64_t
ScheduleOptimizer::Uniform(uint64_t n)
{
    auto u = static_cast<double>(m_rng() >> 11) * 0x1.0p-53;
    return std::min<uint64_t>(static_cast<uint64_t>(u * static_cast<double>(n)), n - 1);
}

void
ScheduleOptimizer::Canonical(Partition& p)
{
    std::vector<int> map(256, -1);
    int next = 0;
    for (auto& label : p)
    {
        if (map[label] < 0)
        {
            map[label] = next++;
        }
        label = static_cast<uint8_t>(map[label]);
    }
}

IndexRound
ScheduleOptimizer::ToRound(const Partition& p)
{
    IndexRound round;
    for (uint32_t i = 0; i < p.size(); ++i)
    {
        if (p[i] >= round.size())
        {
            round.resize(p[i] + 1);
        }
        round[p[i]].push_back(i);
    }
    return round;
}

ScheduleOptimizer::Partition
ScheduleOptimizer::FromRound(const IndexRound& round) const
{
    // Islands in no clique get a label of their own.
    Partition p(m_islands.size(), 255);
    uint8_t label = 0;
    for (const auto& c : round)
    {
        for (uint32_t i : c)
        {
            p[i] = label;
        }
        ++label;
    }
    for (auto& l : p)
    {
        if (l == 255)
        {
            l = label++;
        }
    }
    Canonical(p);
    return p;
}

ScheduleOptimizer::State
ScheduleOptimizer::FromSchedule(const Schedule& schedule, std::size_t period) const
{
    auto rounds = ConsensusMetric::ToIndices(schedule, m_islands);
    State s;
    for (std::size_t r = 0; r < period; ++r)
    {
        s.push_back(FromRound(rounds[r % rounds.size()]));
    }
    return s;
}

CostModel::NodeCliques
ScheduleOptimizer::NodeCliquesOf(const Partition& p) const
{
    CostModel::NodeCliques cliques;
    for (const auto& block : ToRound(p))
    {
        if (block.size() >= 2)
        {
            std::vector<uint32_t> nodes;
            for (uint32_t i : block)
            {
                nodes.push_back(m_nodes[i]);
            }
            cliques.push_back(std::move(nodes));
        }
    }
    return cliques;
}

const ScheduleOptimizer::RoundInfo&
ScheduleOptimizer::RoundOf(const Partition& p)
{
    auto it = m_rounds.find(p);
    if (it == m_rounds.end())
    {
        RoundCost rc = m_cost.BestRound(NodeCliquesOf(p));
        it = m_rounds.emplace(p, RoundInfo{rc.roundS, rc.patterns}).first;
    }
    return it->second;
}

double
ScheduleOptimizer::RoundTime(const Partition& p)
{
    return RoundOf(p).time;
}

double
ScheduleOptimizer::RoundTimeBound(const Partition& p)
{
    auto exact = m_rounds.find(p);
    if (exact != m_rounds.end())
    {
        return exact->second.time;
    }
    auto it = m_roundBounds.find(p);
    if (it != m_roundBounds.end())
    {
        return it->second;
    }
    double t = m_cost.BestRoundLowerBound(NodeCliquesOf(p));
    m_roundBounds.emplace(p, t);
    return t;
}

Schedule
ScheduleOptimizer::ToSchedule(const State& state, const std::string& name) const
{
    std::vector<ScheduleRound> rounds;
    for (const Partition& p : state)
    {
        ScheduleRound round;
        ScheduleRound alone;
        for (const auto& block : ToRound(p))
        {
            Clique c;
            for (uint32_t i : block)
            {
                c.push_back(m_islands[i]);
            }
            (block.size() >= 2 ? round : alone).cliques.push_back(c);
        }
        if (round.cliques.empty())
        {
            rounds.push_back(alone);
            continue;
        }
        auto it = m_rounds.find(p);
        if (it != m_rounds.end())
        {
            round.patterns = it->second.patterns;
        }
        rounds.push_back(round);
    }
    return Schedule(name, rounds);
}

bool
ScheduleOptimizer::Connected(const State& state) const
{
    const std::size_t n = m_islands.size();
    std::vector<std::size_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&parent](std::size_t x) {
        while (parent[x] != x)
        {
            x = parent[x] = parent[parent[x]];
        }
        return x;
    };
    std::size_t components = n;
    for (const Partition& p : state)
    {
        std::vector<int64_t> first(256, -1);
        for (std::size_t i = 0; i < n; ++i)
        {
            if (first[p[i]] < 0)
            {
                first[p[i]] = static_cast<int64_t>(i);
                continue;
            }
            std::size_t a = find(i);
            std::size_t b = find(static_cast<std::size_t>(first[p[i]]));
            if (a != b)
            {
                parent[a] = b;
                --components;
            }
        }
    }
    return components == 1;
}

ScheduleOptimizer::Scored
ScheduleOptimizer::ScoreUnless(const State& state, const Scored* best, double energyLimit,
                               const std::vector<double>* timeBounds, std::size_t floodRounds)
{
    Scored s;
    s.state = state;
    ++m_evaluated;
    std::vector<IndexRound> rounds;
    for (const Partition& p : state)
    {
        rounds.push_back(ToRound(p));
    }
    if (!Connected(state))
    {
        return s; // never reaches consensus: not worth costing
    }
    if (best)
    {
        // Can it beat the best, or be accepted below the energy limit? Check with the
        // round-time lower bounds first (exact where already known).
        double limit = std::max(best->score, std::exp(energyLimit));
        std::vector<double> bounds;
        if (timeBounds)
        {
            bounds = *timeBounds;
        }
        else
        {
            for (const Partition& p : state)
            {
                bounds.push_back(RoundTimeBound(p));
            }
        }
        double period = 0;
        for (double b : bounds)
        {
            period += b;
        }
        double optimistic = m_objective->PeriodBound(state.size(), period, floodRounds);
        if (optimistic >= limit)
        {
            s.score = optimistic;
            s.bound = true;
            return s;
        }
        s.mixing = m_objective->Mixing(rounds, bounds, limit);
        if (s.mixing.limited)
        {
            s.score = limit; // at least
            s.bound = true;
            return s;
        }
        if (!s.mixing.reaches)
        {
            return s; // never
        }
        optimistic = m_objective->Score(s.mixing, bounds);
        if (optimistic >= limit)
        {
            s.score = optimistic;
            s.bound = true;
            return s;
        }
    }
    else
    {
        s.mixing = m_objective->Mixing(rounds, {}, kInf);
        if (!s.mixing.reaches)
        {
            return s;
        }
    }
    for (const Partition& p : state)
    {
        s.times.push_back(RoundTime(p));
    }
    s.score = m_objective->Score(s.mixing, s.times);
    return s;
}

ScheduleOptimizer::Scored
ScheduleOptimizer::Score(const State& state)
{
    return ScoreUnless(state, nullptr, 0);
}

bool
ScheduleOptimizer::Better(const Scored& a, const Scored& b)
{
    double tol = 1e-12 * std::max(1.0, std::min(a.score, b.score));
    if (a.score < b.score - tol || (std::isinf(b.score) && !std::isinf(a.score)))
    {
        return true;
    }
    if (a.score > b.score + tol || (std::isinf(a.score) && !std::isinf(b.score)))
    {
        return false;
    }
    if (a.state.size() != b.state.size())
    {
        return a.state.size() < b.state.size();
    }
    return a.state < b.state;
}

double
ScheduleOptimizer::Energy(const Scored& s)
{
    return std::isfinite(s.score) && s.score > 0 ? std::log(s.score) : kInf;
}

OptimizerResult
ScheduleOptimizer::Result(const Scored& s, const std::string& method, bool keepPhase)
{
    OptimizerResult r;
    Scored full = s;
    if (full.times.empty() || full.bound)
    {
        full = Score(s.state);
    }
    // A periodic schedule's rotations are the same steady state: every search reports the one
    // Better() prefers (equal scores: the smallest state), so that the same optimum is
    // reported in the same phase whichever capability set or search order found it.
    const State found = full.state;
    for (std::size_t k = 1; k < found.size() && !keepPhase; ++k)
    {
        State rotated(found.begin() + k, found.end());
        rotated.insert(rotated.end(), found.begin(), found.begin() + k);
        Scored c = Score(rotated);
        if (Better(c, full))
        {
            full = c;
        }
    }
    r.schedule = ToSchedule(full.state, "optimized-p" + std::to_string(full.state.size()));
    r.score = full.score;
    r.roundTimes = full.times;
    // The mixing as reported: the full metric (a pruned evaluation may have stopped early).
    std::vector<IndexRound> rounds;
    for (const Partition& p : full.state)
    {
        rounds.push_back(ToRound(p));
    }
    r.consensus = m_objective->Mixing(rounds, {}, kInf).consensus;
    if (!r.roundTimes.empty())
    {
        r.consensus = ConsensusMetric::WithTimes(r.consensus, r.roundTimes);
    }
    r.method = method;
    r.bound = r.score;
    r.evaluated = m_evaluated;
    r.simulated = m_rounds.size();
    return r;
}

void
ScheduleOptimizer::Report(std::size_t period, const std::string& method, uint64_t done,
                          uint64_t total)
{
    if (m_options.progress)
    {
        m_options.progress(
            OptimizerProgress{period, method, done, total, m_haveBest ? m_best.score : kInf});
    }
}

void
ScheduleOptimizer::Remember(const Scored& s)
{
    if (!s.bound && (!m_haveBest || Better(s, m_best)))
    {
        m_best = s;
        m_haveBest = true;
    }
}

OptimizerResult
ScheduleOptimizer::Evaluate(const Schedule& schedule)
{
    State state = FromSchedule(schedule, schedule.Period());
    // Rounds that name their patterns are costed with them (and the result keeps them).
    std::vector<std::pair<Partition, RoundInfo>> saved;
    for (std::size_t r = 0; r < schedule.Period(); ++r)
    {
        const ScheduleRound& round = schedule.Rounds()[r];
        if (round.patterns.empty())
        {
            continue;
        }
        CostModel::NodeCliques cliques;
        CostModel::Patterns patterns;
        for (std::size_t c = 0; c < round.cliques.size(); ++c)
        {
            if (round.cliques[c].size() < 2)
            {
                continue;
            }
            std::vector<uint32_t> nodes;
            for (const std::string& city : round.cliques[c])
            {
                nodes.push_back(m_cost.IslandNode(city));
            }
            cliques.push_back(nodes);
            patterns.push_back(round.patterns[c]);
        }
        // In the order the optimizer lists the partition's cliques.
        CostModel::NodeCliques ordered = NodeCliquesOf(state[r]);
        CostModel::Patterns orderedPatterns;
        for (const auto& c : ordered)
        {
            for (std::size_t i = 0; i < cliques.size(); ++i)
            {
                std::vector<uint32_t> a = cliques[i];
                std::vector<uint32_t> b = c;
                std::sort(a.begin(), a.end());
                std::sort(b.begin(), b.end());
                if (a == b)
                {
                    orderedPatterns.push_back(patterns[i]);
                }
            }
        }
        RoundCost rc = m_cost.Round(ordered, orderedPatterns);
        auto it = m_rounds.find(state[r]);
        if (it != m_rounds.end())
        {
            saved.emplace_back(it->first, it->second);
        }
        m_rounds[state[r]] = RoundInfo{rc.roundS, rc.patterns};
    }
    OptimizerResult result = Result(Score(state), "evaluated", true);
    result.schedule.SetName(schedule.GetName());
    result.schedule.SetDescription(schedule.GetDescription());
    // Forget the forced patterns: the search's cache holds BestRound costs only.
    for (std::size_t r = 0; r < schedule.Period(); ++r)
    {
        if (!schedule.Rounds()[r].patterns.empty())
        {
            m_rounds.erase(state[r]);
        }
    }
    for (auto& [p, info] : saved)
    {
        m_rounds[p] = info;
    }
    return result;
}

double
ScheduleOptimizer::PeriodLowerBound(std::size_t period) const
{
    // Every island sends and receives at least one model (wire bits) in some round of a
    // period that connects it, whatever the pattern, and its last bit must reach another
    // island.
    const NetworkGraph& g = m_cost.Graph();
    const RoutePlanner& routes = m_cost.Routes();
    const double bits = m_cost.Parameters().ModelWireBits();
    double worst = 0;
    for (uint32_t i : m_nodes)
    {
        double out = 0;
        double in = 0;
        for (uint32_t e = 0; e < g.EdgeCount(); ++e)
        {
            const GraphEdge& edge = g.Edges()[e];
            if (g.IsEdgeUp(e) && (edge.a == i || edge.b == i))
            {
                out += edge.capacityBps;
                in += edge.capacityBps;
            }
        }
        double nearest = kInf;
        for (uint32_t j : m_nodes)
        {
            if (j != i && routes.Reachable(i, j))
            {
                nearest = std::min(nearest, routes.PathLatency(i, j));
            }
        }
        if (std::isinf(nearest))
        {
            nearest = 0;
        }
        worst = std::max(worst, bits / std::min(out, in) + nearest);
    }
    // Every cut of the network that separates islands: a period that connects every island
    // has a round with a clique across it, whose members on each side need the other side's
    // contributions (at least one model's wire bits, whatever the pattern) across it.
    worst = std::max(worst, bits / IslandMinCutBps());
    if (m_islands.size() < 2)
    {
        worst = 0;
    }
    double periodTime = static_cast<double>(period - 1) * m_cost.RoundTimeOf(0) +
                        m_cost.RoundTimeOf(worst);
    return m_objective->PeriodBound(period, periodTime);
}

double
ScheduleOptimizer::IslandMinCutBps() const
{
    if (m_minCutBps > 0 || m_nodes.size() < 2)
    {
        return m_minCutBps > 0 ? m_minCutBps : kInf;
    }
    // Smallest capacity (bit/s, one direction) of a cut with islands on both sides: the
    // smallest maximum flow from the first island to another one or back (every such cut has
    // the first island on one side). Links as two arcs of their capacity; transit through
    // islands allowed (a relaxation: the bound stays a bound). Boost's push-relabel.
    using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
    using Graph = boost::adjacency_list<
        boost::vecS, boost::vecS, boost::directedS, boost::no_property,
        boost::property<boost::edge_capacity_t, double,
                        boost::property<boost::edge_residual_capacity_t, double,
                                        boost::property<boost::edge_reverse_t,
                                                        Traits::edge_descriptor>>>>;
    const NetworkGraph& g = m_cost.Graph();
    Graph flow(g.NodeCount());
    auto capacity = boost::get(boost::edge_capacity, flow);
    auto reverse = boost::get(boost::edge_reverse, flow);
    auto arc = [&](uint32_t a, uint32_t b, double c) {
        auto e = boost::add_edge(a, b, flow).first;
        auto r = boost::add_edge(b, a, flow).first;
        capacity[e] = c;
        capacity[r] = 0;
        reverse[e] = r;
        reverse[r] = e;
    };
    for (uint32_t e = 0; e < g.EdgeCount(); ++e)
    {
        const GraphEdge& edge = g.Edges()[e];
        if (g.IsEdgeUp(e))
        {
            arc(edge.a, edge.b, edge.capacityBps);
            arc(edge.b, edge.a, edge.capacityBps);
        }
    }
    double cut = kInf;
    for (std::size_t k = 1; k < m_nodes.size(); ++k)
    {
        for (auto [s, t] : {std::pair{m_nodes[0], m_nodes[k]}, std::pair{m_nodes[k], m_nodes[0]}})
        {
            cut = std::min(cut, boost::push_relabel_max_flow(flow, s, t));
        }
    }
    m_minCutBps = cut > 0 ? cut : kInf;
    return m_minCutBps;
}

std::vector<ScheduleOptimizer::Scored>
ScheduleOptimizer::Seeds(std::size_t period)
{
    std::vector<Schedule> seeds = m_options.seeds;
    std::vector<std::string> geo =
        BaselineSchedules::NearestNeighbourOrder(m_cost.Routes(), m_islands);
    for (const auto* order : {&m_islands, &geo})
    {
        for (const Baseline& b : BaselineSchedules::All(*order, std::max<std::size_t>(period, 2)))
        {
            seeds.push_back(b.schedule);
        }
        seeds.push_back(BaselineSchedules::Ring(*order));
    }
    std::vector<Scored> starts;
    for (const Schedule& s : seeds)
    {
        if (!starts.empty() && OutOfBudget())
        {
            break;
        }
        starts.push_back(Score(FromSchedule(s, period)));
    }
    if (m_haveBest)
    {
        State s;
        for (std::size_t r = 0; r < period; ++r)
        {
            s.push_back(m_best.state[r % m_best.state.size()]);
        }
        starts.push_back(Score(s));
    }
    std::stable_sort(starts.begin(), starts.end(), Better);
    starts.erase(std::unique(starts.begin(), starts.end(),
                             [](const Scored& a, const Scored& b) { return a.state == b.state; }),
                 starts.end());
    return starts;
}

OptimizerResult
ScheduleOptimizer::AllInOne()
{
    Scored s = Score(State{Partition(m_islands.size(), 0)});
    Remember(s);
    Report(1, "exact", 1, 1);
    OptimizerResult r = Result(s, "exact");
    r.optimal = true;
    return r;
}

OptimizerResult
ScheduleOptimizer::Exact(std::size_t period)
{
    if (period == 0)
    {
        throw std::invalid_argument("schedule optimizer: the period must be at least 1");
    }
    if (period == 1)
    {
        return AllInOne();
    }
    const std::size_t n = m_islands.size();
    if (n > 64 || std::pow(static_cast<double>(BellNumber(n)), static_cast<double>(period)) >
                      1e15)
    {
        throw std::invalid_argument("schedule optimizer: exact search over " +
                                    std::to_string(n) + " islands and period " +
                                    std::to_string(period) + " is not feasible");
    }
    // All restricted growth strings of length n, with their blocks as bit masks.
    std::vector<Partition> parts;
    Partition p(n, 0);
    std::vector<uint8_t> maxSoFar(n, 0);
    while (true)
    {
        parts.push_back(p);
        std::size_t i = 0;
        for (std::size_t k = n; k-- > 1;)
        {
            if (p[k] <= maxSoFar[k - 1])
            {
                i = k;
                break;
            }
        }
        if (i == 0)
        {
            break;
        }
        ++p[i];
        maxSoFar[i] = std::max(maxSoFar[i - 1], p[i]);
        for (std::size_t j = i + 1; j < n; ++j)
        {
            p[j] = 0;
            maxSoFar[j] = maxSoFar[i];
        }
    }
    std::vector<std::vector<uint64_t>> masks(parts.size());
    std::vector<double> lb(parts.size());
    std::vector<std::size_t> largest(parts.size(), 0);
    for (std::size_t k = 0; k < parts.size(); ++k)
    {
        for (std::size_t i = 0; i < n; ++i)
        {
            if (parts[k][i] >= masks[k].size())
            {
                masks[k].resize(parts[k][i] + 1, 0);
            }
            masks[k][parts[k][i]] |= uint64_t{1} << i;
        }
        for (uint64_t b : masks[k])
        {
            largest[k] = std::max<std::size_t>(largest[k], __builtin_popcountll(b));
        }
        lb[k] = RoundTimeBound(parts[k]);
    }
    auto byBound = [&lb](std::size_t a, std::size_t b) { return lb[a] < lb[b]; };
    std::vector<std::size_t> order(parts.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), byBound);
    // The last round is drawn per largest (and, for period 2, smallest) clique size, each list
    // in bound order, so that a list stops as soon as the information-flow bound
    // (MinFloodRounds) cannot beat the best.
    std::vector<std::size_t> smallest(parts.size(), n);
    for (std::size_t k = 0; k < parts.size(); ++k)
    {
        for (uint64_t b : masks[k])
        {
            smallest[k] = std::min<std::size_t>(smallest[k], __builtin_popcountll(b));
        }
    }
    std::vector<std::vector<std::size_t>> bySize(n + 1);
    std::vector<std::vector<std::size_t>> bySmallest(n + 1);
    for (std::size_t idx : order)
    {
        bySize[largest[idx]].push_back(idx);
        bySmallest[smallest[idx]].push_back(idx);
    }
    const double minLb = lb[order[0]];

    // Incumbent: the best seed of this period (the all-in-one round repeated is among them).
    std::vector<Scored> seeds = Seeds(period);
    Scored best = seeds.front();
    uint64_t done = 0;
    std::vector<std::size_t> chosen(period);
    std::vector<std::size_t> sizes(period);
    std::vector<const std::vector<uint64_t>*> chosenMasks(period);
    std::vector<double> bounds(period);
    const std::size_t floodCap = n * period + period;
    auto leaf = [&](double total) {
        if (++done % 65536 == 0)
        {
            Report(period, "exact", done, 0);
        }
        std::size_t flood = FloodRounds(chosenMasks, n, floodCap);
        if (flood == std::numeric_limits<std::size_t>::max() ||
            m_objective->PeriodBound(period, total, flood) >= best.score)
        {
            return; // never connects, or cannot beat the best
        }
        State s;
        for (std::size_t r = 0; r < period; ++r)
        {
            s.push_back(parts[chosen[r]]);
            bounds[r] = lb[chosen[r]];
        }
        Scored sc = ScoreUnless(s, &best, -kInf, &bounds, flood);
        if (!sc.bound && Better(sc, best))
        {
            best = std::move(sc);
        }
    };
    // Depth-first over tuples in increasing bound order; a list stops at the first partition
    // whose optimistic period cannot beat the incumbent (the rest are larger).
    std::function<void(std::size_t, double)> search = [&](std::size_t depth, double sum) {
        const std::size_t left = period - depth - 1;
        if (left > 0)
        {
            for (std::size_t idx : order)
            {
                double optimistic = sum + lb[idx] + static_cast<double>(left) * minLb;
                if (m_objective->PeriodBound(period, optimistic, 1) >= best.score)
                {
                    break;
                }
                chosen[depth] = idx;
                sizes[depth] = largest[idx];
                chosenMasks[depth] = &masks[idx];
                search(depth + 1, sum + lb[idx]);
            }
            return;
        }
        std::size_t skipSmallest = n + 1; // period 2: lists already drawn below
        if (period == 2)
        {
            // Everybody has heard from everybody after A then B only if every clique of B
            // meets every clique of A: B's smallest clique has at least as many islands as A
            // has cliques. Those candidates can finish in one period.
            std::size_t blocksA = masks[chosen[0]].size();
            for (std::size_t m = blocksA; m <= n; ++m)
            {
                for (std::size_t idx : bySmallest[m])
                {
                    double total = sum + lb[idx];
                    if (m_objective->PeriodBound(period, total, blocksA == 1 ? 1 : 2) >=
                        best.score)
                    {
                        break;
                    }
                    chosen[depth] = idx;
                    chosenMasks[depth] = &masks[idx];
                    leaf(total);
                }
            }
            skipSmallest = blocksA; // the others need three rounds or more
        }
        for (std::size_t size = 1; size <= n; ++size)
        {
            sizes[depth] = size;
            std::size_t rounds = MinFloodRounds(sizes, n);
            if (rounds == std::numeric_limits<std::size_t>::max())
            {
                continue;
            }
            if (period == 2)
            {
                rounds = std::max<std::size_t>(rounds, 3);
            }
            for (std::size_t idx : bySize[size])
            {
                double total = sum + lb[idx];
                if (m_objective->PeriodBound(period, total, rounds) >= best.score)
                {
                    break;
                }
                if (smallest[idx] >= skipSmallest)
                {
                    continue;
                }
                chosen[depth] = idx;
                chosenMasks[depth] = &masks[idx];
                leaf(total);
            }
        }
    };
    search(0, 0.0);
    Remember(best);
    Report(period, "exact", done, done);
    OptimizerResult r = Result(best, "exact");
    r.optimal = true;
    return r;
}

bool
ScheduleOptimizer::Move(State& s)
{
    const std::size_t n = m_islands.size();
    if (n < 2)
    {
        return false;
    }
    State before = s;
    Partition& q = s[Uniform(s.size())];
    auto i = static_cast<std::size_t>(Uniform(n));
    auto j = static_cast<std::size_t>(Uniform(n - 1));
    j += j >= i ? 1 : 0;
    uint8_t fresh = static_cast<uint8_t>(*std::max_element(q.begin(), q.end()) + 1);
    switch (Uniform(6))
    {
    case 0: // join j's clique
        q[i] = q[j];
        break;
    case 1: // leave its clique
        q[i] = fresh;
        break;
    case 2: // swap two islands in one round
        std::swap(q[i], q[j]);
        break;
    case 3: // swap two islands in every round (relabelling)
        for (Partition& r : s)
        {
            std::swap(r[i], r[j]);
        }
        break;
    case 4: { // merge two cliques
        uint8_t from = q[j];
        for (auto& l : q)
        {
            l = l == from ? q[i] : l;
        }
        break;
    }
    default: { // split a clique
        uint8_t from = q[i];
        for (std::size_t x = 0; x < n; ++x)
        {
            if (x != i && q[x] == from && Uniform(2) == 1)
            {
                q[x] = fresh;
            }
        }
        break;
    }
    }
    for (Partition& r : s)
    {
        Canonical(r);
    }
    return s != before;
}

ScheduleOptimizer::State
ScheduleOptimizer::RandomState(std::size_t period)
{
    const std::size_t n = m_islands.size();
    State s;
    for (std::size_t r = 0; r < period; ++r)
    {
        // Random number of cliques between 1 and n/2, random assignment.
        uint64_t blocks = 1 + Uniform(std::max<std::size_t>(n / 2, 1));
        Partition p(n);
        for (auto& l : p)
        {
            l = static_cast<uint8_t>(Uniform(blocks));
        }
        Canonical(p);
        s.push_back(p);
    }
    return s;
}

ScheduleOptimizer::Scored
ScheduleOptimizer::Polish(Scored best)
{
    const std::size_t n = m_islands.size();
    for (int sweep = 0; sweep < 50 && !OutOfBudget(); ++sweep)
    {
        Scored round = best;
        auto consider = [&](State s) {
            for (Partition& r : s)
            {
                Canonical(r);
            }
            if (s == best.state || OutOfBudget())
            {
                return;
            }
            Scored sc = ScoreUnless(s, &round, -kInf);
            if (!sc.bound && Better(sc, round))
            {
                round = std::move(sc);
            }
        };
        for (std::size_t k = 0; k < best.state.size(); ++k)
        {
            const Partition& q = best.state[k];
            uint8_t labels = static_cast<uint8_t>(*std::max_element(q.begin(), q.end()) + 1);
            for (std::size_t i = 0; i < n; ++i)
            {
                for (uint8_t l = 0; l <= labels; ++l)
                {
                    if (l != q[i])
                    {
                        State s = best.state;
                        s[k][i] = l;
                        consider(s);
                    }
                }
            }
        }
        for (std::size_t i = 0; i < n && best.state.size() > 1; ++i)
        {
            for (std::size_t j = i + 1; j < n; ++j)
            {
                State s = best.state;
                for (Partition& r : s)
                {
                    std::swap(r[i], r[j]);
                }
                consider(s);
            }
        }
        if (!Better(round, best))
        {
            break;
        }
        best = std::move(round);
    }
    return best;
}

OptimizerResult
ScheduleOptimizer::Heuristic(std::size_t period)
{
    if (period == 0)
    {
        throw std::invalid_argument("schedule optimizer: the period must be at least 1");
    }
    std::vector<Scored> starts = Seeds(period);
    const std::size_t nStarts = std::max<std::size_t>(m_options.starts, 1);
    const std::size_t fromSeeds = std::min(starts.size(), (nStarts + 1) / 2);
    const uint64_t steps = static_cast<uint64_t>(m_options.iterations) * period;
    const uint64_t total = steps * nStarts;
    Scored best = starts.front();
    uint64_t done = 0;
    for (std::size_t k = 0; k < nStarts && !OutOfBudget(); ++k)
    {
        Scored cur = k < fromSeeds ? starts[k] : Score(RandomState(period));
        double e = Energy(cur);
        for (uint64_t step = 0; step < steps && !OutOfBudget(); ++step, ++done)
        {
            double frac =
                static_cast<double>(step) / static_cast<double>(std::max<uint64_t>(steps, 1));
            double temp = m_options.initialTemperature *
                          std::pow(m_options.finalTemperature / m_options.initialTemperature, frac);
            State s = cur.state;
            if (!Move(s))
            {
                continue;
            }
            // Metropolis: accept iff E' <= E - T ln u; a candidate whose optimistic bound
            // misses both that and the best is rejected without simulating its rounds.
            double u = std::max(static_cast<double>(m_rng() >> 11) * 0x1.0p-53, 1e-300);
            double limit = std::isinf(e) ? e : e - temp * std::log(u);
            Scored cand = ScoreUnless(s, &best, limit);
            if (cand.bound)
            {
                continue;
            }
            double ec = Energy(cand);
            bool accept = std::isinf(e) || ec <= limit;
            if (Better(cand, best))
            {
                best = cand;
            }
            if (accept)
            {
                cur = std::move(cand);
                e = ec;
            }
            if (done % 256 == 0)
            {
                Report(period, "heuristic", done, total);
            }
        }
    }
    best = Polish(best);
    Remember(best);
    Report(period, "heuristic", total, total);
    return Result(best, "heuristic");
}

OptimizerResult
ScheduleOptimizer::Optimize()
{
    OptimizerResult best;
    bool have = false;
    double bound = kInf;
    bool allExact = true;
    const std::size_t n = m_islands.size();
    m_startTime = std::chrono::steady_clock::now();
    m_outOfBudget = false;
    for (std::size_t p = 1; p <= m_options.maxPeriod; ++p)
    {
        OptimizerResult r;
        double periodBound;
        if (have && OutOfBudget() && !(n <= m_options.exactIslands && p <= m_options.exactPeriod))
        {
            // Not searched: only its bound counts (the optimum may lie there).
            bound = std::min(bound, PeriodLowerBound(p));
            allExact = false;
            continue;
        }
        if (p == 1)
        {
            r = AllInOne();
            periodBound = r.score;
        }
        else if (n <= m_options.exactIslands && p <= m_options.exactPeriod)
        {
            r = Exact(p);
            periodBound = r.score;
        }
        else
        {
            r = Heuristic(p);
            periodBound = std::min(r.score, PeriodLowerBound(p));
            allExact = false;
        }
        bound = std::min(bound, periodBound);
        if (!have || r.score < best.score - 1e-12 * std::max(1.0, best.score))
        {
            best = r;
            have = true;
        }
    }
    best.evaluated = m_evaluated;
    best.simulated = m_rounds.size();
    best.bound = bound;
    // The budget changed the result only if it cut a search short: the exact searches do not
    // stop for it, so a result proven optimal never reports it spent.
    best.budgetExhausted = m_outOfBudget && !allExact;
    best.optimal = allExact;
    best.gap = allExact || !(bound > 0) ? 0.0 : best.score / bound - 1;
    return best;
}

} // namespace ns3
