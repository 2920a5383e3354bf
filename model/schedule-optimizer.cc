/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "schedule-optimizer.h"

#include "baseline-schedules.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

ScheduleOptimizer::ScheduleOptimizer(const CostModel& cost, std::vector<std::string> islands,
                                     OptimizerOptions options)
    : m_cost(cost)
    , m_islands(std::move(islands))
    , m_options(std::move(options))
    , m_metric(std::max<std::size_t>(m_islands.size(), 1), m_options.target)
    , m_rng(m_options.seed)
{
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
}

const std::vector<std::string>&
ScheduleOptimizer::Islands() const
{
    return m_islands;
}

const ConsensusMetric&
ScheduleOptimizer::Metric() const
{
    return m_metric;
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
        rounds.push_back(round.cliques.empty() ? alone : round);
    }
    return Schedule(name, rounds);
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

double
ScheduleOptimizer::RoundTime(const Partition& p)
{
    auto it = m_roundTimes.find(p);
    if (it != m_roundTimes.end())
    {
        return it->second;
    }
    double t = m_cost.Round(NodeCliquesOf(p)).roundS;
    m_roundTimes.emplace(p, t);
    return t;
}

double
ScheduleOptimizer::RoundTimeBound(const Partition& p)
{
    auto exact = m_roundTimes.find(p);
    if (exact != m_roundTimes.end())
    {
        return exact->second;
    }
    auto it = m_roundBounds.find(p);
    if (it != m_roundBounds.end())
    {
        return it->second;
    }
    double t = m_cost.RoundTimeOf(m_cost.CommLowerBound(NodeCliquesOf(p)));
    m_roundBounds.emplace(p, t);
    return t;
}

ScheduleOptimizer::Scored
ScheduleOptimizer::ScoreUnless(const State& state, const Scored* best, double energyLimit)
{
    Scored s;
    s.state = state;
    std::vector<IndexRound> rounds;
    for (const Partition& p : state)
    {
        rounds.push_back(ToRound(p));
    }
    ConsensusScore mix = m_metric.Mixing(rounds);
    ++m_evaluated;
    if (!mix.exact && mix.norm >= 1 - 1e-12)
    {
        s.score = mix;
        s.score.rate = 0;
        return s; // never contracts: not worth costing
    }
    if (best)
    {
        // Optimistic score from round-time lower bounds (exact where already known).
        for (const Partition& p : state)
        {
            s.times.push_back(RoundTimeBound(p));
        }
        s.score = ConsensusMetric::WithTimes(mix, s.times);
        if (Better(*best, s) && Energy(s) > energyLimit)
        {
            s.bound = true;
            return s;
        }
        s.times.clear();
    }
    for (const Partition& p : state)
    {
        s.times.push_back(RoundTime(p));
    }
    s.score = ConsensusMetric::WithTimes(mix, s.times);
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
    return ConsensusMetric::Better(a.score, a.state.size(), b.score, b.state.size());
}

double
ScheduleOptimizer::Energy(const Scored& s)
{
    return std::isfinite(s.score.secondsToTarget) && s.score.secondsToTarget > 0
               ? std::log(s.score.secondsToTarget)
               : std::numeric_limits<double>::infinity();
}

OptimizerResult
ScheduleOptimizer::Result(const Scored& s, const std::string& method) const
{
    OptimizerResult r;
    r.schedule = ToSchedule(s.state, "optimized-p" + std::to_string(s.state.size()));
    r.score = s.score;
    r.roundTimes = s.times;
    if (r.roundTimes.empty())
    {
        r.roundTimes = m_cost.PeriodRoundTimes(r.schedule);
        r.score.periodS = 0;
        for (double t : r.roundTimes)
        {
            r.score.periodS += t;
        }
    }
    r.method = method;
    r.evaluated = m_evaluated;
    r.simulated = m_roundTimes.size();
    return r;
}

void
ScheduleOptimizer::Report(std::size_t period, const std::string& method, uint64_t done,
                          uint64_t total)
{
    if (m_options.progress)
    {
        OptimizerProgress p{period,
                            method,
                            done,
                            total,
                            m_haveBest ? m_best.score.secondsToTarget
                                       : std::numeric_limits<double>::infinity(),
                            m_haveBest ? m_best.score.rate : 0.0};
        m_options.progress(p);
    }
}

OptimizerResult
ScheduleOptimizer::Evaluate(const Schedule& schedule)
{
    return Result(Score(FromSchedule(schedule, schedule.Period())), "evaluated");
}

OptimizerResult
ScheduleOptimizer::Exhaustive(std::size_t period)
{
    const std::size_t n = m_islands.size();
    uint64_t bell = BellNumber(n);
    double total = std::pow(static_cast<double>(bell), static_cast<double>(period));
    if (period == 0 || total > 1e9)
    {
        throw std::invalid_argument("schedule optimizer: exhaustive search over " +
                                    std::to_string(total) + " schedules is not feasible");
    }
    // All restricted growth strings of length n.
    std::vector<Partition> parts;
    Partition p(n, 0);
    std::vector<uint8_t> maxSoFar(n, 0);
    while (true)
    {
        parts.push_back(p);
        // Rightmost position that can grow (at most one above the largest label before it).
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
    std::vector<std::size_t> idx(period, 0);
    Scored best;
    bool have = false;
    uint64_t done = 0;
    auto totalCount = static_cast<uint64_t>(total);
    while (true)
    {
        State s;
        for (std::size_t k : idx)
        {
            s.push_back(parts[k]);
        }
        Scored sc =
            ScoreUnless(s, have ? &best : nullptr, -std::numeric_limits<double>::infinity());
        if (!sc.bound && (!have || Better(sc, best)))
        {
            best = std::move(sc);
            have = true;
            if (!m_haveBest || Better(best, m_best))
            {
                m_best = best;
                m_haveBest = true;
            }
        }
        if (++done % 4096 == 0)
        {
            Report(period, "exhaustive", done, totalCount);
        }
        std::size_t k = 0;
        while (k < period && ++idx[k] == parts.size())
        {
            idx[k++] = 0;
        }
        if (k == period)
        {
            break;
        }
    }
    Report(period, "exhaustive", done, totalCount);
    return Result(best, "exhaustive");
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
    for (int sweep = 0; sweep < 50; ++sweep)
    {
        Scored round = best;
        auto consider = [&](State s) {
            for (Partition& r : s)
            {
                Canonical(r);
            }
            if (s == best.state)
            {
                return;
            }
            Scored sc = ScoreUnless(s, &round, -std::numeric_limits<double>::infinity());
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
    // Starting points: baselines (given and geographic order), options' seeds, best so far.
    std::vector<Schedule> seeds = m_options.seeds;
    std::vector<std::string> geo =
        BaselineSchedules::NearestNeighbourOrder(m_cost.Routes(), m_islands);
    for (const auto* order : {&m_islands, &geo})
    {
        for (const Schedule& s : BaselineSchedules::All(*order, (*order)[0], 2))
        {
            seeds.push_back(s);
        }
    }
    std::vector<Scored> starts;
    for (const Schedule& s : seeds)
    {
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

    const std::size_t nStarts = std::max<std::size_t>(m_options.starts, 1);
    const std::size_t fromSeeds = std::min(starts.size(), (nStarts + 1) / 2);
    const uint64_t steps = static_cast<uint64_t>(m_options.iterations) * period;
    const uint64_t total = steps * nStarts;
    Scored best = starts.front();
    uint64_t done = 0;
    for (std::size_t k = 0; k < nStarts; ++k)
    {
        Scored cur = k < fromSeeds ? starts[k] : Score(RandomState(period));
        double e = Energy(cur);
        for (uint64_t step = 0; step < steps; ++step, ++done)
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
    if (!m_haveBest || Better(best, m_best))
    {
        m_best = best;
        m_haveBest = true;
    }
    Report(period, "heuristic", total, total);
    return Result(best, "heuristic");
}

OptimizerResult
ScheduleOptimizer::AllInOne()
{
    Scored s = Score(State{Partition(m_islands.size(), 0)});
    if (!m_haveBest || Better(s, m_best))
    {
        m_best = s;
        m_haveBest = true;
    }
    Report(1, "all-in-one", 1, 1);
    return Result(s, "all-in-one");
}

OptimizerResult
ScheduleOptimizer::Optimize()
{
    OptimizerResult best;
    bool have = false;
    const double bell = static_cast<double>(BellNumber(m_islands.size()));
    for (std::size_t p = 1; p <= m_options.maxPeriod; ++p)
    {
        bool exhaustive = std::pow(bell, static_cast<double>(p)) <=
                          static_cast<double>(m_options.exhaustiveLimit);
        OptimizerResult r;
        if (p == 1 && !exhaustive)
        {
            r = AllInOne();
        }
        else
        {
            r = exhaustive ? Exhaustive(p) : Heuristic(p);
        }
        if (!have || ConsensusMetric::Better(r.score, r.schedule.Period(), best.score,
                                             best.schedule.Period()))
        {
            best = r;
            have = true;
        }
    }
    best.evaluated = m_evaluated;
    best.simulated = m_roundTimes.size();
    return best;
}

} // namespace ns3
