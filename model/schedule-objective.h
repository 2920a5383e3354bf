/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_SCHEDULE_OBJECTIVE_H
#define INTELLIGENT_NETWORK_SCHEDULE_OBJECTIVE_H

#include "consensus-metric.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ns3
{

/// What an objective extracts from a period's mixing alone (no times), once per candidate.
struct MixingSummary
{
    bool reaches = false; ///< The schedule reaches the objective's goal (score finite).
    /// Mixing stopped early (ScheduleObjective::Mixing with a score limit): the score is known
    /// to be at least the limit, nothing more.
    bool limited = false;
    ConsensusScore consensus; ///< The consensus metric's view, as far as it was computed.
};

/**
 * \ingroup intelligent-network
 * \brief The score the ScheduleOptimizer minimises: a pluggable piece. Pure C++.
 *
 * A candidate is a periodic schedule: its rounds (cliques of island indices) and one round
 * time per round from the CostModel. The score is split so that the search can prune:
 * Mixing() looks at the rounds alone (computed once per candidate, and allowed to stop as soon
 * as it proves that the score cannot beat a limit given lower bounds of the round times),
 * Score() adds the times. Contract (the exact search relies on it):
 * - Score never decreases when a round time grows;
 * - a period whose cliques do not connect all islands never reaches the goal (score +inf),
 *   and the goal is not reached before every island has heard from every other (information
 *   travels one clique per round);
 * - PeriodBound(p, T, r) is at most the score of any connected period of p rounds whose round
 *   times sum to at least T and in which it takes at least r rounds until every island has
 *   heard from every other.
 * The default, ConsensusTimeObjective, is seconds to consensus; issue 13 replaces it by an
 * objective that predicts training time.
 */
class ScheduleObjective
{
  public:
    virtual ~ScheduleObjective() = default;
    /// Short name, e.g. "seconds-to-consensus".
    virtual std::string Name() const = 0;
    /// One sentence on what the score means (for reports).
    virtual std::string Description() const = 0;
    /**
     * Mixing part of the score of the period \p rounds. With a finite \p scoreLimit and lower
     * bounds \p timeBounds of the round times it may stop early (MixingSummary::limited) once
     * the score is proven to be at least \p scoreLimit.
     */
    virtual MixingSummary Mixing(const std::vector<IndexRound>& rounds,
                                 const std::vector<double>& timeBounds,
                                 double scoreLimit) const = 0;
    /// Score in seconds (lower is better; +inf if the goal is never reached).
    virtual double Score(const MixingSummary& mixing,
                         const std::vector<double>& roundTimes) const = 0;
    /// Lower bound of the score of a connected period of \p period rounds whose round times
    /// sum to at least \p periodTimeS and which needs at least \p rounds rounds (>= 1) until
    /// every island has heard from every other.
    virtual double PeriodBound(std::size_t period, double periodTimeS,
                               std::size_t rounds = 1) const = 0;
};

} // namespace ns3

#endif
