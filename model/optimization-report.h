/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_OPTIMIZATION_REPORT_H
#define INTELLIGENT_NETWORK_OPTIMIZATION_REPORT_H

#include "baseline-schedules.h"
#include "cost-model.h"
#include "schedule-optimizer.h"

#include <string>
#include <vector>

namespace ns3
{

/// A baseline and its evaluation by the same optimizer (same cost model and objective).
struct BaselineResult
{
    Baseline baseline;
    OptimizerResult result; ///< Default (not evaluated) when \c excluded is set.
    /// Why the baseline was not evaluated: it fixes a pattern the capabilities do not allow
    /// (e.g. the tree all-reduce under a restriction to the ring); empty if evaluated.
    std::string excluded;
};

/**
 * \ingroup intelligent-network
 * \brief The optimizer's best schedule beside every baseline: what optimize-schedule and
 * optimizer-table print. Pure C++.
 *
 * Run() searches with ScheduleOptimizer and evaluates BaselineSchedules::All over the islands
 * in nearest-neighbour order with the same optimizer (so both are scored by one cost model and
 * one objective; baselines that name no pattern get the best pattern the capabilities allow).
 * ToJson() writes one JSON object:
 * \code
 * { "capabilities": "unicast,multicast", "aggregation": "tree",
 *   "objective": "seconds-to-consensus", "objective_description": "...",
 *   "islands": ["AMS", ...], "search_seconds": 0.8,
 *   "best": { "name": "optimized", "period": 2,
 *             "rounds": [ {"cliques": [["AMS","FRA"], ...], "patterns": ["ring", ...]}, ...],
 *             "patterns": [["ring", ...], ...], "round_times_s": [1.2, 1.3], "score": 2.5,
 *             "rounds_to_target": 2, "method": "exact", "optimal": true,
 *             "bound": 2.5, "gap": 0, "budget_exhausted": false, "evaluated": 1234,
 *             "simulated": 56 },
 *   "baselines": [ { "name": "ring-allreduce", "period": 1, "rounds": [...],
 *                    "patterns": [["ring"]], "round_times_s": [2.2], "score": 2.2,
 *                    "rounds_to_target": 1, "metadata": {} }, ... ] }
 * \endcode
 * Scores are seconds (lower is better); a schedule that never reaches the goal has score
 * null. A baseline that fixes a pattern the capabilities do not allow is listed as
 * { "name": ..., "excluded": "pattern tree is excluded by ...", "metadata": {} }, not costed.
 * "patterns" lists the pattern of every clique of every round (cliques of two or more; an empty
 * list for a round where every island sits out).
 */
struct OptimizationReport
{
    std::string capabilities; ///< NetworkCapabilities::SetName().
    std::string aggregation;  ///< "tree" or "single".
    std::string objective;    ///< ScheduleObjective::Name().
    std::string objectiveDescription;
    std::vector<std::string> islands;
    OptimizerResult best;
    double searchSeconds = 0; ///< Wall time of the search.
    std::vector<BaselineResult> baselines;

    /// Search and evaluate the baselines (DiLoCo every \p dilocoH rounds; none if
    /// \p withBaselines is false).
    static OptimizationReport Run(const CostModel& cost, const std::vector<std::string>& islands,
                                  const OptimizerOptions& options, std::size_t dilocoH = 4,
                                  bool withBaselines = true);
    /// The whole report as one JSON object (see the class description).
    std::string ToJson() const;
};

} // namespace ns3

#endif
