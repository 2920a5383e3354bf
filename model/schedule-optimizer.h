/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_SCHEDULE_OPTIMIZER_H
#define INTELLIGENT_NETWORK_SCHEDULE_OPTIMIZER_H

#include "consensus-metric.h"
#include "cost-model.h"
#include "schedule-objective.h"
#include "schedule.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace ns3
{

/// Where a long search stands (passed to OptimizerOptions::progress).
struct OptimizerProgress
{
    std::size_t period; ///< Period being searched.
    std::string method; ///< "exact" or "heuristic".
    uint64_t done;      ///< Candidates examined so far in this period.
    uint64_t total;     ///< Candidates planned for this period (exact: pairs not yet pruned).
    double bestScore;   ///< Best score found so far (all periods), seconds.
};

/// Knobs of ScheduleOptimizer.
struct OptimizerOptions
{
    std::size_t maxPeriod = 2; ///< Search periods 1 .. maxPeriod.
    uint64_t seed = 1;         ///< Seeds the heuristic's random moves.
    /// Exact search (branch and bound) for periods up to exactPeriod when there are at most
    /// exactIslands islands; the heuristic otherwise.
    std::size_t exactIslands = 9;
    std::size_t exactPeriod = 2;
    std::size_t iterations = 4000;   ///< Annealing proposals per start (scaled by the period).
    std::size_t starts = 4;          ///< Annealing starts per period: best seeds, then random.
    double initialTemperature = 0.3; ///< Annealing temperature, in ln(seconds) units.
    double finalTemperature = 0.003;
    /// Budget of Optimize: wall-clock seconds (0: none). When it runs out the heuristic stops
    /// and returns its best so far, with the bound and gap of every period (searched or not):
    /// the result then depends on the machine's speed (OptimizerResult::budgetExhausted).
    double budgetS = 0;
    /// Budget in candidate schedules examined (0: none): like budgetS, but deterministic.
    uint64_t budgetCandidates = 0;
    std::vector<Schedule> seeds; ///< Extra starting schedules (baselines are always added).
    double target = 1e-3;        ///< Consensus error target of the default objective.
    /// What is minimised; null = ConsensusTimeObjective(islands, target).
    std::shared_ptr<const ScheduleObjective> objective;
    /// Called every few thousand candidates and at the end of each period.
    std::function<void(const OptimizerProgress&)> progress;
};

/// The outcome of a search (or of evaluating one schedule).
struct OptimizerResult
{
    /// Singletons (islands sitting out) are left out; every clique has its pattern.
    Schedule schedule;
    double score = std::numeric_limits<double>::infinity(); ///< Objective, lower is better.
    ConsensusScore consensus;       ///< Mixing of the period (norm, rounds to target, ...).
    std::vector<double> roundTimes; ///< Round times of one period (CostModel round time).
    std::string method;             ///< "exact", "heuristic" or "evaluated".
    /// Lower bound of the best score over the periods searched (= score when optimal).
    double bound = 0;
    double gap = 0;       ///< score / bound - 1: how far from optimal it can be.
    bool optimal = false; ///< Proven optimal over periods 1 .. maxPeriod.
    uint64_t evaluated = 0; ///< Candidate schedules examined.
    uint64_t simulated = 0; ///< Distinct rounds whose cost was computed.
    /// The budget (OptimizerOptions::budgetS or budgetCandidates) ran out before the search
    /// ended: the schedule is the best found so far; bound and gap still hold.
    bool budgetExhausted = false;
};

/**
 * \ingroup intelligent-network
 * \brief Searches periodic rotating-clique schedules, and the exchange pattern of every
 * clique, that minimise a ScheduleObjective (default: seconds to consensus).
 *
 * A candidate of period p is p set partitions of the islands (a singleton block = the island
 * sits the round out). Every round is costed by CostModel::BestRound, which chooses the
 * pattern of every clique among those the capability set allows (so a larger set never makes
 * a round, hence the optimum, worse) and skips patterns a clique cannot use; its lower bound
 * is CostModel::BestRoundLowerBound. Candidates are ranked by score, then by the shorter
 * period, then by their partitions (deterministic).
 *
 * Per period p = 1 .. maxPeriod:
 * - p = 1: only the all-island clique contracts (a round with two or more blocks keeps every
 *   block-constant direction), so the optimum of period 1 is the all-in-one round: exact.
 * - p <= exactPeriod with at most exactIslands islands: exact branch and bound over every
 *   p-tuple of partitions (restricted growth strings): partitions sorted by their round-time
 *   lower bound, a tuple skipped when the objective's PeriodBound of its bounds cannot beat
 *   the best so far, when its rounds do not connect all islands, or when the objective's
 *   Mixing proves it cannot beat the best even with the bounds as round times; the rest are
 *   costed exactly. The result is the optimum of that period (over partitions, with the round
 *   cost's pattern choice), and it is reported with optimal = true.
 * - otherwise a heuristic, deterministic for a given seed: simulated annealing on
 *   E = ln(score) from `starts` starting points (the best seeds -- the baselines, the
 *   options' seeds and the best schedule of shorter periods, each repeated or cut to p
 *   rounds -- then random partitions), with geometric cooling from initialTemperature to
 *   finalTemperature over iterations x p proposals. Moves: move an island to another clique
 *   or alone, swap two islands in one round, swap two islands in every round (relabelling,
 *   which keeps exact-averaging structures), merge two cliques, split a clique. The best
 *   candidate ever seen is polished by steepest descent over single-island moves.
 * The best over all periods is returned with a lower bound: the exact optima of the exact
 * periods and, for every heuristic period p, PeriodBound(p, (p-1) x RoundTimeOf(0) +
 * RoundTimeOf(L)), where L is the largest over islands of (model wire bits over the island's
 * smaller total access capacity, in or out, plus the latency to its nearest other island):
 * every island has to send and receive at least one model in some round of a period that
 * connects it (every pattern does so), and at least the model's wire bits over the smallest
 * capacity of a network cut that separates islands (some round's clique spans it, and its
 * members on each side need the other side's contributions). gap = score / bound - 1.
 *
 * Budget (OptimizerOptions::budgetS, budgetCandidates): checked between candidates of the
 * heuristic (annealing, polishing, seeds after the first); once spent, the heuristic returns
 * its best so far and the periods not yet searched contribute only their PeriodLowerBound to
 * the bound, so the reported gap stays a true upper limit of the distance to the optimum.
 * Exact search (small instances) and the period-1 optimum are not interrupted.
 */
class ScheduleOptimizer
{
  public:
    /// Keeps a reference to \p cost. Throws InputError (field `city`) for an unknown island,
    /// std::invalid_argument for a repeated island, no islands, more than 200 islands or a
    /// zero maxPeriod.
    ScheduleOptimizer(const CostModel& cost, std::vector<std::string> islands,
                      OptimizerOptions options = {});

    /// Best schedule over periods 1 .. maxPeriod, with its bound and gap.
    OptimizerResult Optimize();
    /// Optimum of period \p period by branch and bound (whatever the size: beware).
    OptimizerResult Exact(std::size_t period);
    /// Best schedule of period \p period found by the heuristic.
    OptimizerResult Heuristic(std::size_t period);
    /// The all-island clique with its best pattern: the optimum of period 1.
    OptimizerResult AllInOne();
    /// Score \p schedule (its cities must be among the islands); rounds that name patterns
    /// are costed with them, the others by CostModel::BestRound.
    OptimizerResult Evaluate(const Schedule& schedule);
    /// Lower bound of the score of any schedule of period \p period (see the class doc).
    double PeriodLowerBound(std::size_t period) const;

    const std::vector<std::string>& Islands() const;
    const ScheduleObjective& Objective() const;

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
        double score = std::numeric_limits<double>::infinity();
        MixingSummary mixing;
        std::vector<double> times;
        bool bound = false; ///< score is only an optimistic bound (the candidate was pruned).
    };

    /// The cost of one partition as a round (BestRound), cached.
    struct RoundInfo
    {
        double time;
        CostModel::Patterns patterns;
    };

    static void Canonical(Partition& p);
    static IndexRound ToRound(const Partition& p);
    Partition FromRound(const IndexRound& round) const;
    State FromSchedule(const Schedule& schedule, std::size_t period) const;
    Schedule ToSchedule(const State& state, const std::string& name) const;
    /// The result of \p s, in the rotation Better() prefers unless \p keepPhase (Evaluate: the
    /// given schedule as given; under the consensus objective rotations need not tie).
    OptimizerResult Result(const Scored& s, const std::string& method, bool keepPhase = false);

    /// The cliques (two or more members) of a partition, as island nodes.
    CostModel::NodeCliques NodeCliquesOf(const Partition& p) const;
    const RoundInfo& RoundOf(const Partition& p);
    double RoundTime(const Partition& p);
    /// Lower bound of the round time of a partition, without simulating (cached).
    double RoundTimeBound(const Partition& p);
    /// Score of a state; costs rounds only if the objective can reach its goal.
    Scored Score(const State& state);
    /**
     * Score of a state, unless an optimistic bound (round-time lower bounds, \p timeBounds if
     * given, and \p floodRounds rounds at least until everybody has heard from everybody)
     * shows that it neither beats \p best nor has an energy below \p energyLimit: then the
     * bound is returned with `bound` set and no round is simulated.
     */
    Scored ScoreUnless(const State& state, const Scored* best, double energyLimit,
                       const std::vector<double>* timeBounds = nullptr,
                       std::size_t floodRounds = 1);
    /// True if the rounds of \p state together connect every island.
    bool Connected(const State& state) const;
    /// True if \p a ranks before \p b.
    static bool Better(const Scored& a, const Scored& b);
    /// Annealing energy.
    static double Energy(const Scored& s);
    /// One random move; false if it changed nothing.
    bool Move(State& s);
    State RandomState(std::size_t period);
    /// Steepest descent over single-island moves.
    Scored Polish(Scored best);
    /// Seeds of period \p period (baselines, options' seeds, best so far), scored, best first.
    std::vector<Scored> Seeds(std::size_t period);
    void Remember(const Scored& s);
    void Report(std::size_t period, const std::string& method, uint64_t done, uint64_t total);
    uint64_t Uniform(uint64_t n);
    /// True once the budget is spent (and remembers it).
    bool OutOfBudget();
    /// Smallest one-way capacity of a cut separating islands, bit/s (cached; +inf if none).
    double IslandMinCutBps() const;

    const CostModel& m_cost;
    std::vector<std::string> m_islands;
    std::vector<uint32_t> m_nodes;
    OptimizerOptions m_options;
    std::shared_ptr<const ScheduleObjective> m_objective;
    std::mt19937_64 m_rng;
    std::map<Partition, RoundInfo> m_rounds;
    std::map<Partition, double> m_roundBounds;
    uint64_t m_evaluated = 0;
    Scored m_best;
    bool m_haveBest = false;
    std::chrono::steady_clock::time_point m_startTime; ///< Of the last Optimize().
    bool m_outOfBudget = false;
    mutable double m_minCutBps = 0; ///< IslandMinCutBps(), 0 until computed.
};

} // namespace ns3

#endif
