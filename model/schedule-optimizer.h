/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_SCHEDULE_OPTIMIZER_H
#define INTELLIGENT_NETWORK_SCHEDULE_OPTIMIZER_H

#include "consensus-metric.h"
#include "cost-model.h"
#include "schedule.h"

#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace ns3
{

/// Where a long search stands (passed to OptimizerOptions::progress).
struct OptimizerProgress
{
    std::size_t period; ///< Period being searched.
    std::string method; ///< "exhaustive", "heuristic" or "all-in-one".
    uint64_t done;      ///< Candidates evaluated so far in this period.
    uint64_t total;     ///< Candidates planned for this period.
    double bestSeconds; ///< Best seconds-to-target found so far (all periods).
    double bestRate;    ///< Its rate.
};

/// Knobs of ScheduleOptimizer.
struct OptimizerOptions
{
    std::size_t maxPeriod = 2; ///< Search periods 1 .. maxPeriod.
    uint64_t seed = 1;         ///< Seeds the heuristic's random moves.
    /// Enumerate all schedules of a period when Bell(n)^period is at most this.
    uint64_t exhaustiveLimit = 50000;
    std::size_t iterations = 4000;   ///< Annealing proposals per start (scaled by the period).
    std::size_t starts = 4;          ///< Annealing starts per period: best seeds, then random.
    double initialTemperature = 0.3; ///< Annealing temperature, in ln(seconds) units.
    double finalTemperature = 0.003;
    std::vector<Schedule> seeds; ///< Extra starting schedules (baselines are always added).
    double target = 1e-3;        ///< Consensus error target.
    /// Called every few hundred candidates and at the end of each period.
    std::function<void(const OptimizerProgress&)> progress;
};

/// The outcome of a search (or of evaluating one schedule).
struct OptimizerResult
{
    Schedule schedule; ///< Singletons (islands sitting out) are left out.
    ConsensusScore score;
    std::vector<double> roundTimes; ///< Round times of one period (CostModel round time).
    std::string method;             ///< "exhaustive", "heuristic", "all-in-one" or "evaluated".
    uint64_t evaluated = 0;         ///< Candidate schedules scored.
    uint64_t simulated = 0;         ///< Distinct rounds whose cost was computed.
};

/**
 * \ingroup intelligent-network
 * \brief Searches periodic rotating-clique schedules that maximise consensus per second.
 *
 * A candidate of period p is p set partitions of the islands (a singleton block = the island
 * sits the round out). It is scored by ConsensusMetric on round times from CostModel and ranked
 * by ConsensusMetric::Better (rate, then seconds to the error target, then shorter period). The
 * mixing is scored first: a candidate whose period does not contract is discarded without
 * costing its rounds. Round costs are cached per partition (and by the CostModel per
 * independent group of cliques).
 *
 * Per period p = 1 .. maxPeriod:
 * - exhaustive when Bell(n)^p <= exhaustiveLimit: every p-tuple of partitions (restricted
 *   growth strings), so the result is the optimum of that period (a candidate is costed only
 *   if its optimistic bound from CostModel::CommLowerBound could beat the best so far);
 * - period 1 beyond that: AllInOne, the only period-1 schedule that contracts (the
 *   exhaustive search of small instances confirms it, see the tests);
 * - otherwise a heuristic, deterministic for a given seed: simulated annealing on
 *   E = ln(seconds to target) from `starts` starting points (the best seeds -- the baselines,
 *   the options' seeds and the best schedule of shorter periods, each repeated or cut to p
 *   rounds -- then random partitions), with geometric cooling from initialTemperature to
 *   finalTemperature over iterations x p proposals. Moves: move an island to another clique
 *   or alone, swap two islands in one round, swap two islands in every round (relabelling,
 *   which keeps exact-averaging structures), merge two cliques, split a clique. Unreachable
 *   candidates have E = +inf (moves between them are accepted). The best candidate ever seen
 *   (by Better) is finally polished by steepest descent over single-island moves.
 * The overall best over all periods is returned.
 */
class ScheduleOptimizer
{
  public:
    /// Keeps a reference to \p cost. Throws InputError (field `city`) for an unknown island,
    /// std::invalid_argument for a repeated island, no islands or a zero maxPeriod.
    ScheduleOptimizer(const CostModel& cost, std::vector<std::string> islands,
                      OptimizerOptions options = {});

    /// Best schedule over periods 1 .. maxPeriod.
    OptimizerResult Optimize();
    /// Best schedule of period \p period by enumeration (whatever its size).
    OptimizerResult Exhaustive(std::size_t period);
    /// Best schedule of period \p period found by the heuristic.
    OptimizerResult Heuristic(std::size_t period);
    /**
     * The one period-1 schedule that contracts: all islands in one clique. (A single round with
     * two or more blocks keeps every block-constant direction: its norm is 1.)
     */
    OptimizerResult AllInOne();
    /// Score \p schedule (its cities must be among the islands).
    OptimizerResult Evaluate(const Schedule& schedule);

    const std::vector<std::string>& Islands() const;
    const ConsensusMetric& Metric() const;

    /// Bell number B(n), saturating at UINT64_MAX.
    static uint64_t BellNumber(std::size_t n);
    /// Clique sizes of each round, largest first, e.g. "3+3+3 | 3+3+3" (singletons as "1").
    static std::string CliqueSizes(const Schedule& schedule);

  private:
    /// Block label of each island, canonical (restricted growth string).
    using Partition = std::vector<uint8_t>;
    using State = std::vector<Partition>;

    struct Scored
    {
        State state;
        ConsensusScore score;
        std::vector<double> times;
        bool bound = false; ///< score is only an optimistic bound (the candidate was pruned).
    };

    static void Canonical(Partition& p);
    static IndexRound ToRound(const Partition& p);
    Partition FromRound(const IndexRound& round) const;
    State FromSchedule(const Schedule& schedule, std::size_t period) const;
    Schedule ToSchedule(const State& state, const std::string& name) const;
    OptimizerResult Result(const Scored& s, const std::string& method) const;

    /// The cliques (two or more members) of a partition, as island nodes.
    CostModel::NodeCliques NodeCliquesOf(const Partition& p) const;
    /// Round time of a partition (cached).
    double RoundTime(const Partition& p);
    /// Lower bound of the round time of a partition, without simulating (cached).
    double RoundTimeBound(const Partition& p);
    /// Score of a state; costs rounds only if the period contracts.
    Scored Score(const State& state);
    /**
     * Score of a state, unless an optimistic bound (round-time lower bounds) shows that it
     * neither beats \p best nor has an energy below \p energyLimit: then the bound is returned
     * with `bound` set and no round is simulated.
     */
    Scored ScoreUnless(const State& state, const Scored* best, double energyLimit);
    /// True if \p a ranks before \p b.
    static bool Better(const Scored& a, const Scored& b);
    /// Annealing energy.
    static double Energy(const Scored& s);
    /// One random move; false if it changed nothing.
    bool Move(State& s);
    State RandomState(std::size_t period);
    /// Steepest descent over single-island moves.
    Scored Polish(Scored best);
    void Report(std::size_t period, const std::string& method, uint64_t done, uint64_t total);
    uint64_t Uniform(uint64_t n);

    const CostModel& m_cost;
    std::vector<std::string> m_islands;
    std::vector<uint32_t> m_nodes;
    OptimizerOptions m_options;
    ConsensusMetric m_metric;
    std::mt19937_64 m_rng;
    std::map<Partition, double> m_roundTimes;
    std::map<Partition, double> m_roundBounds;
    uint64_t m_evaluated = 0;
    Scored m_best;
    bool m_haveBest = false;
};

} // namespace ns3

#endif
