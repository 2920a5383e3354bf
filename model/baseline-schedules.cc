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
    return Schedule("all-reduce", {ScheduleRound{{islands}}},
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
    if (n == 1)
    {
        Schedule s = AllReduce(islands);
        s.SetName("exp-graph");
        return s;
    }
    std::vector<ScheduleRound> rounds;
    for (std::size_t hop = 1; hop < n; hop *= 2)
    {
        ScheduleRound round;
        std::vector<bool> paired(n, false);
        for (std::size_t i = 0; i < n; ++i)
        {
            std::size_t j = (i + hop) % n;
            if (!paired[i] && !paired[j] && i != j)
            {
                paired[i] = paired[j] = true;
                round.cliques.push_back({islands[i], islands[j]});
            }
        }
        rounds.push_back(round);
    }
    return Schedule("exp-graph", rounds,
                    "Baseline: one-peer exponential graph, round k pairs i with i+2^k.");
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
BaselineSchedules::Star(const std::vector<std::string>& islands, const std::string& server)
{
    Check(islands);
    if (std::find(islands.begin(), islands.end(), server) == islands.end())
    {
        throw std::invalid_argument("baseline schedule: server '" + server +
                                    "' is not one of the islands");
    }
    std::vector<ScheduleRound> rounds;
    for (const std::string& c : islands)
    {
        if (c != server)
        {
            rounds.push_back(ScheduleRound{{{server, c}}});
        }
    }
    if (rounds.empty())
    {
        rounds.push_back(ScheduleRound{{{server}}});
    }
    return Schedule("star-" + server, rounds,
                    "Baseline: parameter server " + server +
                        " averages with one other island per round, in turn.");
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
    rounds.push_back(ScheduleRound{{islands}});
    return Schedule("diloco-" + std::to_string(h), rounds,
                    "Baseline: DiLoCo-style global all-reduce every " + std::to_string(h) +
                        " local steps (one step per round).");
}

std::vector<Schedule>
BaselineSchedules::All(const std::vector<std::string>& islands, const std::string& server,
                       std::size_t h)
{
    return {AllReduce(islands), Ring(islands),         ExponentialGraph(islands),
            Grid(islands),      Star(islands, server), DiLoCo(islands, h)};
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

std::string
BaselineSchedules::CentralIsland(const RoutePlanner& routes,
                                 const std::vector<std::string>& islands)
{
    Check(islands);
    const NetworkGraph& g = routes.Graph();
    std::string best = islands[0];
    double bestMax = std::numeric_limits<double>::infinity();
    for (const std::string& a : islands)
    {
        double worst = 0;
        for (const std::string& b : islands)
        {
            if (a != b)
            {
                worst = std::max(worst, routes.PathLatency(g.IslandNode(a), g.IslandNode(b)));
            }
        }
        if (worst < bestMax)
        {
            bestMax = worst;
            best = a;
        }
    }
    return best;
}

} // namespace ns3
