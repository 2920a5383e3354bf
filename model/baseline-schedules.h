/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_BASELINE_SCHEDULES_H
#define INTELLIGENT_NETWORK_BASELINE_SCHEDULES_H

#include "route-planner.h"
#include "schedule.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief The schedules the optimizer is compared with, all as clique Schedules. Pure C++.
 *
 * A schedule round is a set of disjoint cliques, so a communication graph whose edges share
 * islands has to be spread over several rounds (an edge colouring). Every builder takes the
 * islands in the order that defines the structure (ring order, grid rows, ...); use
 * NearestNeighbourOrder for a geographic order. With n islands:
 * - AllReduce: one round, one clique of all n.
 * - Ring: gossip over the ring i -- i+1 (mod n). Its edges are coloured so that each round
 *   averages disjoint neighbouring pairs: round 0 the pairs (0,1), (2,3), ...; round 1 the
 *   pairs (1,2), (3,4), ...; for odd n a third round holds the closing pair (n-1, 0). Islands
 *   not in a pair sit the round out.
 * - ExponentialGraph: one-peer exponential graph, ceil(log2 n) rounds; round k pairs island i
 *   with i + 2^k (mod n), greedily in index order, skipping islands already paired in that
 *   round (for n a power of two this is the hypercube, exact after log2 n rounds).
 * - Grid: a x b grid with a the largest divisor of n not above sqrt(n) (3 x 3 for nine):
 *   round 0 averages the rows (consecutive islands), round 1 the columns (Moshpit-style);
 *   exact in two rounds. A prime n gives a 1 x n grid, i.e. AllReduce.
 * - Star: a parameter-server city exchanging with every other island. Cliques of a round are
 *   disjoint, so the star's edges are used one per round: round k averages the server with
 *   the k-th other island (n-1 rounds per period).
 * - DiLoCo(h): global synchronisation every h local steps: h rounds per period, the first
 *   h-1 with every island alone (singleton cliques: compute only, no traffic), the last an
 *   all-reduce. Evaluate it with one local step per round (CostParameters::localSteps = 1).
 */
class BaselineSchedules
{
  public:
    static Schedule AllReduce(const std::vector<std::string>& islands);
    static Schedule Ring(const std::vector<std::string>& islands);
    static Schedule ExponentialGraph(const std::vector<std::string>& islands);
    static Schedule Grid(const std::vector<std::string>& islands);
    /// Throws std::invalid_argument if \p server is not one of \p islands.
    static Schedule Star(const std::vector<std::string>& islands, const std::string& server);
    /// Throws std::invalid_argument if \p h is zero.
    static Schedule DiLoCo(const std::vector<std::string>& islands, std::size_t h);

    /// Every baseline above (star around \p server, DiLoCo with \p h).
    static std::vector<Schedule> All(const std::vector<std::string>& islands,
                                     const std::string& server, std::size_t h);

    /**
     * \p islands reordered as a nearest-neighbour tour by path latency, starting from the
     * first: consecutive islands are close, so rings and grid rows are regional.
     */
    static std::vector<std::string> NearestNeighbourOrder(const RoutePlanner& routes,
                                                          const std::vector<std::string>& islands);

    /// The island whose largest path latency to the others is smallest (ties: first listed);
    /// the natural parameter-server city for Star.
    static std::string CentralIsland(const RoutePlanner& routes,
                                     const std::vector<std::string>& islands);

  private:
    static void Check(const std::vector<std::string>& islands);
};

} // namespace ns3

#endif
