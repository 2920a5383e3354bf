/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TRAINING_RUN_H
#define INTELLIGENT_NETWORK_TRAINING_RUN_H

#include "consensus-metric.h"
#include "fixed-point.h"
#include "local-optimizer.h"
#include "proxy-learner.h"
#include "proxy-task.h"
#include "schedule.h"
#include "training-metrics.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/// How a clique's members combine their vectors in a TrainingRun.
enum class SyncMode
{
    EXACT,      ///< Double-precision averaging (unicast, multicast): ProxyLearner::Synchronize.
    FIXED_POINT ///< In-network aggregation: FixedPoint int32 sums, ProxyLearner::SynchronizeSum.
};

/// Settings of one TrainingRun::Run.
struct TrainingRunConfig
{
    uint32_t rounds = 100;           ///< Rounds to run, > 0.
    uint32_t localSteps = 1;         ///< Local steps of every island per round.
    SyncMode sync = SyncMode::EXACT; ///< How cliques combine vectors.
    int fractionBits = 16;           ///< FIXED_POINT: FixedPoint fraction bits.
    /// Stop after the first round whose score (TrainingMetrics::Score with \p metric) has
    /// accuracy >= stopAccuracy; NaN (the default): run every round.
    double stopAccuracy = std::numeric_limits<double>::quiet_NaN();
    TargetMetric metric = TargetMetric::ISLAND_MEAN; ///< The score of stopAccuracy.
    /// Evaluate every island's full-shard loss after its local steps (localLoss; NaN if off).
    bool shardLoss = true;

    /// Throws std::invalid_argument naming the bad field.
    void Validate() const;
    /// "exact" | "fixed-point"; throws std::invalid_argument otherwise.
    static SyncMode ParseSync(const std::string& name);
};

/// The state at the end of one round (after its synchronisation).
struct TrainingRoundRecord
{
    uint32_t round = 0;
    double startS = 0;               ///< Simulated time the round starts.
    double endS = 0;                 ///< ... and ends: startS + the round's duration.
    Evaluation average;              ///< Held-out loss, accuracy of the mean vector.
    std::vector<Evaluation> islands; ///< Per island: held-out loss, accuracy of its own x.
    double consensusDistance = 0;    ///< Mean over islands of ||x_i - mean||.
    std::vector<double> localLoss;   ///< Per island: shard loss after its local steps.
    std::vector<double> batchLoss;   ///< Per island: mean minibatch loss of its steps.
    uint64_t overflows = 0;          ///< FIXED_POINT: int32 encode/sum overflows in the round.
    /// FIXED_POINT: largest |fixed-point average - exact average| over cliques and entries.
    double maxAverageError = 0;
};

/// All rounds of a run.
struct TrainingRunResult
{
    Evaluation initial;                      ///< Held-out loss, accuracy at time 0 (all equal).
    std::vector<TrainingRoundRecord> rounds; ///< One per round run.
    uint64_t overflows = 0;                  ///< Sum over rounds.

    /// (0, initial) then (endS, TrainingMetrics::Score(islands, average, metric)) of every
    /// round.
    LossCurve Curve(TargetMetric metric = TargetMetric::ISLAND_MEAN) const;
};

/**
 * \ingroup intelligent-network
 * \brief Pure C++ driver of training under a Schedule, with round durations supplied by the
 * caller (the fluid CostModel, ns-3 measurements, ...): loss against simulated time, fast.
 *
 * Island i of the task is city islands[i]. Every run starts fresh learners
 * (ProxyLearner::ForAllIslands with the given settings and seed). Round r (schedule round
 * r mod period): every island runs localSteps local steps (islands that sit the round out
 * compute too); then every clique of two or more synchronises (a clique of one does
 * nothing, as in ProxyLearner): all members' Parameters() are taken first, then
 * EXACT calls Synchronize(r, the other members' vectors in clique order) on each member, and
 * FIXED_POINT encodes every member's vector with FixedPoint(fractionBits), sums the int32
 * lanes in clique order with FixedPoint::AddChecked (as the FPGA does), decodes the sum and
 * calls SynchronizeSum(r, sum, members) on each member. Overflows are counted (an overflowing
 * lane keeps the saturated / unchanged value; treat a run with overflows as invalid). The
 * round lasts duration(r) seconds; a TrainingRoundRecord is taken at its end: the held-out
 * loss and accuracy of every island's own vector and of the mean vector, the consensus
 * distance. With stopAccuracy set, the run ends after the first round whose score reaches it. The
 * one-round-delayed merge of overlapped (streaming) rounds is not modelled: only their durations
 * change.
 */
class TrainingRun
{
  public:
    /// Duration in seconds of run round \p round (>= 0, finite).
    using RoundDuration = std::function<double(std::size_t round)>;

    /**
     * Throws std::invalid_argument on a null task, islands.size() != task->Islands(), a
     * duplicate island or bad optimiser settings, and InputError (field `city`) for a
     * schedule city not among \p islands.
     */
    TrainingRun(std::shared_ptr<const ProxyTask> task, const Schedule& schedule,
                const std::vector<std::string>& islands, const LocalOptimizerConfig& inner,
                const OuterOptimizerConfig& outer = OuterOptimizerConfig(), uint64_t seed = 1);

    /// Run (see the class description); throws std::invalid_argument on a bad config or a
    /// negative / non-finite duration.
    TrainingRunResult Run(const TrainingRunConfig& config, const RoundDuration& duration);

    /// Durations that repeat \p periodTimes (e.g. CostModel::PeriodRoundTimes); throws
    /// std::invalid_argument if empty.
    static RoundDuration Periodic(std::vector<double> periodTimes);

    /**
     * What an aggregating FPGA delivers: every vector encoded with \p codec, summed lane by
     * lane in int32 (FixedPoint::AddChecked, in the given order), decoded. \p overflows gets
     * the number of encode and sum overflows added. Off from the exact sum by at most
     * k x codec.QuantizationBound() per entry for k vectors when nothing overflows.
     */
    static std::vector<double> FixedPointSum(const FixedPoint& codec,
                                             const std::vector<std::vector<double>>& vectors,
                                             uint64_t& overflows);

    /// The learners of the last Run (empty before).
    const std::vector<std::shared_ptr<ProxyLearner>>& Learners() const;

  private:
    std::shared_ptr<const ProxyTask> m_task;
    Schedule m_schedule;
    std::vector<std::string> m_islands;
    std::vector<IndexRound> m_rounds; ///< The schedule's period rounds as island indices.
    LocalOptimizerConfig m_inner;
    OuterOptimizerConfig m_outer;
    uint64_t m_seed;
    std::vector<std::shared_ptr<ProxyLearner>> m_learners;
};

} // namespace ns3

#endif
