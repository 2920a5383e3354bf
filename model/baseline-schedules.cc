/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "baseline-schedules.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

namespace ns3
{

void
BaselineSchedules::Check(const std::vector<std::string>& islands)
{
    if (islands.empty())
    {
        throw std::invalid_argument("baseline schedule: no islands");
    }
    if (std::set<std::string>(islands.begin(), islands.end()).size() != islands.size())
    {
        throw std::invalid_argument("baseline schedule: an island is listed twice");
    }
}

Schedule
BaselineSchedules::AllReduce(const std::vector<std::string>& islands)
{
    Check(islands);
    return Schedule("all-reduce", {ScheduleRound{{islands}, {}}},
                    "Baseline: all islands average in one clique every round.");
}

Schedule
BaselineSchedules::Ring(const std::vector<std::string>& islands)
{
    Check(islands);
    const std::size_t n = islands.size();
    if (n <= 2)
    {
        Schedule s = AllReduce(islands);
        s.SetName("ring");
        return s;
    }
    std::vector<ScheduleRound> rounds(n % 2 == 0 ? 2 : 3);
    for (std::size_t i = 0; i < n; ++i)
    {
        std::size_t colour = (n % 2 == 1 && i == n - 1) ? 2 : i % 2;
        rounds[colour].cliques.push_back({islands[i], islands[(i + 1) % n]});
    }
    return Schedule("ring", rounds,
                    "Baseline: ring gossip, neighbouring pairs averaged in alternating rounds "
                    "(edge colouring of the ring).");
}

Schedule
BaselineSchedules::ExponentialGraph(const std::vector<std::string>& islands)
{
    Check(islands);
    const std::size_t n = islands.size();
    if (n <= 2)
    {
        Schedule s = AllReduce(islands);
        s.SetName("exp-graph");
        return s;
    }
    std::vector<ScheduleRound> rounds;
    for (std::size_t hop = 1; hop < n; hop *= 2)
    {
        // clique[i]: index of island i's clique in this round, -1 while unpaired.
        std::vector<int> clique(n, -1);
        std::vector<std::vector<std::size_t>> cliques;
        for (std::size_t i = 0; i < n; ++i)
        {
            std::size_t j = (i + hop) % n;
            if (clique[i] < 0 && clique[j] < 0 && i != j)
            {
                clique[i] = clique[j] = static_cast<int>(cliques.size());
                cliques.push_back({i, j});
            }
        }
        std::vector<std::size_t> left;
        for (std::size_t i = 0; i < n; ++i)
        {
            if (clique[i] < 0)
            {
                left.push_back(i);
            }
        }
        for (std::size_t k = 0; k + 1 < left.size(); k += 2)
        {
            clique[left[k]] = clique[left[k + 1]] = static_cast<int>(cliques.size());
            cliques.push_back({left[k], left[k + 1]});
        }
        if (left.size() % 2 == 1)
        {
            std::size_t odd = left.back();
            int joins = clique[(odd + hop) % n];
            cliques[joins].push_back(odd);
            clique[odd] = joins;
        }
        ScheduleRound round;
        for (auto& c : cliques)
        {
            std::sort(c.begin(), c.end());
            Clique names;
            for (std::size_t i : c)
            {
                names.push_back(islands[i]);
            }
            round.cliques.push_back(names);
        }
        rounds.push_back(round);
    }
    return Schedule("exp-graph", rounds,
                    "Baseline: one-peer exponential graph, round k pairs i with i+2^k; every "
                    "island in a clique every round.");
}

Schedule
BaselineSchedules::Grid(const std::vector<std::string>& islands)
{
    Check(islands);
    const std::size_t n = islands.size();
    std::size_t a = 1;
    for (std::size_t d = 1; d * d <= n; ++d)
    {
        if (n % d == 0)
        {
            a = d;
        }
    }
    const std::size_t b = n / a;
    if (a == 1)
    {
        Schedule s = AllReduce(islands);
        s.SetName("grid");
        return s;
    }
    ScheduleRound rows;
    ScheduleRound cols;
    for (std::size_t r = 0; r < a; ++r)
    {
        rows.cliques.emplace_back(islands.begin() + r * b, islands.begin() + (r + 1) * b);
    }
    for (std::size_t c = 0; c < b; ++c)
    {
        Clique col;
        for (std::size_t r = 0; r < a; ++r)
        {
            col.push_back(islands[r * b + c]);
        }
        cols.cliques.push_back(col);
    }
    return Schedule("grid", {rows, cols},
                    "Baseline: " + std::to_string(a) + "x" + std::to_string(b) +
                        " grid (Moshpit-style), rows then columns.");
}

Schedule
BaselineSchedules::Collective(const std::vector<std::string>& islands, ExchangePattern pattern)
{
    Check(islands);
    std::string name = PatternName(pattern);
    std::string what = "pattern " + name;
    switch (pattern)
    {
    case ExchangePattern::RING:
        name = "ring-allreduce";
        what = "pipelined ring all-reduce (reduce-scatter then all-gather)";
        break;
    case ExchangePattern::TREE:
        name = "tree-allreduce";
        what = "double-binary-tree all-reduce";
        break;
    case ExchangePattern::PARAMETER_SERVER:
        name = "parameter-server";
        what = "parameter server (push to one city, which averages and sends back)";
        break;
    case ExchangePattern::ALL_TO_ALL:
        what = "every island sends its model to every other";
        break;
    default:
        break;
    }
    ScheduleRound round{{islands}, {pattern}};
    return Schedule(name, {round}, "Baseline: all islands in one clique every round, " + what + ".");
}

Schedule
BaselineSchedules::DiLoCo(const std::vector<std::string>& islands, std::size_t h)
{
    Check(islands);
    if (h == 0)
    {
        throw std::invalid_argument("baseline schedule: DiLoCo needs at least one local step");
    }
    ScheduleRound alone;
    for (const std::string& c : islands)
    {
        alone.cliques.push_back({c});
    }
    std::vector<ScheduleRound> rounds(h - 1, alone);
    rounds.push_back(ScheduleRound{{islands}, {}});
    return Schedule("diloco-" + std::to_string(h), rounds,
                    "Baseline: DiLoCo-style global all-reduce every " + std::to_string(h) +
                        " local steps (one step per round).");
}

std::vector<Baseline>
BaselineSchedules::All(const std::vector<std::string>& islands, std::size_t h,
                       const DiLoCoOuter& outer)
{
    std::vector<Baseline> out;
    for (ExchangePattern p : {ExchangePattern::RING,
                              ExchangePattern::TREE,
                              ExchangePattern::PARAMETER_SERVER,
                              ExchangePattern::ALL_TO_ALL})
    {
        out.push_back(Baseline{Collective(islands, p), {}});
    }
    out.push_back(Baseline{Grid(islands), {}});
    out.push_back(Baseline{ExponentialGraph(islands), {}});
    out.push_back(Baseline{DiLoCo(islands, h),
                           {{"outer_learning_rate", outer.learningRate},
                            {"outer_momentum", outer.momentum},
                            {"nesterov", 1.0},
                            {"local_steps", static_cast<double>(h)}}});
    return out;
}

std::vector<std::string>
BaselineSchedules::NearestNeighbourOrder(const RoutePlanner& routes,
                                         const std::vector<std::string>& islands)
{
    Check(islands);
    const NetworkGraph& g = routes.Graph();
    std::vector<std::string> order{islands[0]};
    std::vector<bool> used(islands.size(), false);
    used[0] = true;
    for (std::size_t step = 1; step < islands.size(); ++step)
    {
        uint32_t at = g.IslandNode(order.back());
        double best = std::numeric_limits<double>::infinity();
        std::size_t pick = 0;
        for (std::size_t i = 0; i < islands.size(); ++i)
        {
            if (used[i])
            {
                continue;
            }
            double l = routes.PathLatency(at, g.IslandNode(islands[i]));
            if (l < best)
            {
                best = l;
                pick = i;
            }
        }
        used[pick] = true;
        order.push_back(islands[pick]);
    }
    return order;
}

} // namespace ns3
