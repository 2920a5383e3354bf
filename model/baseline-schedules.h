/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_BASELINE_SCHEDULES_H
#define INTELLIGENT_NETWORK_BASELINE_SCHEDULES_H

#include "exchange-pattern.h"
#include "route-planner.h"
#include "schedule.h"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/// DiLoCo's outer optimizer (Douillard et al. 2023, "DiLoCo: Distributed Low-Communication
/// Training of Language Models": Nesterov momentum 0.9, outer learning rate 0.7). Carried as
/// metadata of the DiLoCo baseline for the training proxy; the schedule does not use it.
struct DiLoCoOuter
{
    double learningRate = 0.7; ///< Outer learning rate.
    double momentum = 0.9;     ///< Outer (Nesterov) momentum.
};

/// A baseline schedule with what describes it beyond its rounds.
struct Baseline
{
    Schedule schedule;                      ///< Named; patterns set where the baseline fixes them.
    std::map<std::string, double> metadata; ///< E.g. DiLoCo's outer optimizer and local steps.
};

/**
 * \ingroup intelligent-network
 * \brief The schedules the optimizer is compared with, all as clique Schedules. Pure C++.
 *
 * Every builder takes the islands in the order that defines the structure (ring order, grid
 * rows, ...); use NearestNeighbourOrder for a geographic order. With n islands:
 * - Collective(pattern): every round one clique of all n with a fixed exchange pattern -- the
 *   plain network's collectives "ring-allreduce" (RING), "tree-allreduce" (TREE),
 *   "parameter-server" (PARAMETER_SERVER: members push to one city, which averages and sends
 *   back; the city is chosen by the TrafficPlanner) and "all-to-all" (ALL_TO_ALL). The ring
 *   order and trees are the planner's, not the list's.
 * - AllReduce: one round, one clique of all n, pattern left to the cost model.
 * - Grid: a x b grid with a the largest divisor of n not above sqrt(n) (3 x 3 for nine):
 *   round 0 averages the rows (consecutive islands), round 1 the columns (Moshpit-style);
 *   exact in two rounds. A prime n gives a 1 x n grid, i.e. AllReduce.
 * - ExponentialGraph: one-peer exponential graph, ceil(log2 n) rounds covering every island
 *   every round: round k pairs island i with i + 2^k (mod n), greedily in index order,
 *   skipping islands already paired; the islands left over are paired in order, and an odd
 *   one out joins the pair of its i + 2^k partner (a clique of three). For n a power of two
 *   this is the hypercube, exact after log2 n rounds.
 * - DiLoCo(h): global synchronisation every h local steps: h rounds per period, the first h-1
 *   with every island alone (compute only, no traffic), the last an all-reduce (pattern left
 *   to the cost model). Evaluate it with one local step per round; its outer optimizer
 *   (DiLoCoOuter) is metadata for the training proxy.
 * - Ring: ring gossip (not in All): neighbouring pairs averaged in alternating rounds, round 0
 *   the pairs (0,1), (2,3), ...; round 1 (1,2), (3,4), ...; for odd n a third round holds the
 *   closing pair (n-1, 0).
 * Grid, ExponentialGraph, AllReduce and DiLoCo name no pattern: the evaluator (the optimizer's
 * Evaluate, CostModel::BestRound) gives each clique the best pattern the capabilities allow.
 */
class BaselineSchedules
{
  public:
    /// All-in-one with \p pattern; named as above (other patterns: their PatternName).
    static Schedule Collective(const std::vector<std::string>& islands, ExchangePattern pattern);
    static Schedule AllReduce(const std::vector<std::string>& islands);
    static Schedule Ring(const std::vector<std::string>& islands);
    static Schedule ExponentialGraph(const std::vector<std::string>& islands);
    static Schedule Grid(const std::vector<std::string>& islands);
    /// Throws std::invalid_argument if \p h is zero.
    static Schedule DiLoCo(const std::vector<std::string>& islands, std::size_t h);

    /**
     * Every baseline shown beside an optimized result, in this order: ring-allreduce,
     * tree-allreduce, parameter-server, all-to-all, grid, exp-graph, diloco-<h> (with
     * metadata outer_learning_rate, outer_momentum, nesterov = 1, local_steps = h).
     */
    static std::vector<Baseline> All(const std::vector<std::string>& islands, std::size_t h,
                                     const DiLoCoOuter& outer = DiLoCoOuter());

    /**
     * \p islands reordered as a nearest-neighbour tour by path latency, starting from the
     * first: consecutive islands are close, so rings and grid rows are regional.
     */
    static std::vector<std::string> NearestNeighbourOrder(const RoutePlanner& routes,
                                                          const std::vector<std::string>& islands);

  private:
    static void Check(const std::vector<std::string>& islands);
};

} // namespace ns3

#endif
