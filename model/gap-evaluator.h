/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_GAP_EVALUATOR_H
#define INTELLIGENT_NETWORK_GAP_EVALUATOR_H

#include "local-optimizer.h"
#include "proxy-learner.h"
#include "proxy-task.h"
#include "schedule.h"
#include "training-metrics.h"
#include "training-run.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/// Everything a time-to-target measurement depends on except the schedule and its round times.
struct GapSetup
{
    ProxyTaskConfig task;       ///< The task (ProxyTask::Create).
    LocalOptimizerConfig inner; ///< Inner steps, islands and colocated alike.
    OuterOptimizerConfig outer; ///< Islands' outer step (1, 0: plain averaging).
    uint32_t localSteps = 20;   ///< Local steps of every island per round, > 0.
    double computeTimeS = 0.05; ///< Simulated seconds per local (and colocated) step, > 0.
    /// Target: this fraction of the colocated run's best held-out accuracy, in (0, 1].
    double targetFraction = 0.9;
    /// Simulated seconds of colocated training whose best accuracy defines the target, > 0.
    double referenceHorizonS = 60;
    TargetMetric metric = TargetMetric::ISLAND_MEAN; ///< What distributed runs are scored on.
    uint64_t seed = 1;                               ///< Minibatch seed (the task has its own).

    /// Throws std::invalid_argument naming the bad field (and the task's own checks).
    void Validate() const;
};

/// Time to target of one schedule (GapEvaluator::Evaluate).
struct GapResult
{
    /// Simulated seconds until the score first reaches the target accuracy (interpolated
    /// between round ends); +infinity if it never does within the horizon.
    double timeToTargetS = 0;
    /// timeToTargetS / the colocated time to target (+infinity if never).
    double gap = 0;
    TrainingRunResult run; ///< Per-round metrics of every round run.
    LossCurve curve;       ///< run.Curve(metric).

    bool Reached() const;
};

/**
 * \ingroup intelligent-network
 * \brief The fast path from schedules to training time: time to target and the gap to
 * colocated training for a schedule's round times (fluid CostModel, measurements, ...), on
 * the real proxy task. Pure C++.
 *
 * Construction builds the task and trains the gold standard once: ColocatedTrainer (same data,
 * same compute: one step of N minibatches every computeTimeS) for referenceHorizonS, scored
 * every localSteps steps. Its best held-out accuracy over that horizon (the "held-out best":
 * a curve that later overfits does not lower it) times targetFraction is the target accuracy;
 * the colocated time to target is its first crossing. Evaluate() trains the islands under a
 * schedule (TrainingRun) with round r lasting periodRoundTimes[r mod period] (whole rounds:
 * compute and exchange), until the score (TargetMetric) reaches the target or horizonS of
 * simulated time have passed, and returns the time to target (or never) and every round's
 * metrics. Evaluate() is const and starts fresh learners every call, so one evaluator ranks
 * many schedules against the same target.
 */
class GapEvaluator
{
  public:
    /// Validates \p setup and trains the colocated reference.
    explicit GapEvaluator(const GapSetup& setup);

    const GapSetup& Setup() const;
    const std::shared_ptr<const ProxyTask>& Task() const;
    /// The colocated curve over referenceHorizonS (accuracy and loss every localSteps steps).
    const LossCurve& ColocatedCurve() const;
    /// Best held-out accuracy of the colocated curve.
    double BestAccuracy() const;
    /// targetFraction x BestAccuracy().
    double TargetAccuracy() const;
    /// First time the colocated curve reaches TargetAccuracy() (finite: the best does).
    double ColocatedTimeToTarget() const;

    /**
     * Train under \p schedule (island i = city \p islands[i]) for as many rounds as it takes to
     * reach \p horizonS (at least one), stopping at the target if \p stopAtTarget. Throws
     * std::invalid_argument on empty or bad round times (negative, non-finite, all zero),
     * horizonS <= 0, and what TrainingRun throws.
     */
    GapResult Evaluate(const Schedule& schedule, const std::vector<std::string>& islands,
                       const std::vector<double>& periodRoundTimes, double horizonS,
                       SyncMode sync = SyncMode::EXACT, int fractionBits = 16,
                       bool stopAtTarget = true) const;

  private:
    GapSetup m_setup;
    std::shared_ptr<const ProxyTask> m_task;
    LossCurve m_colocated;
    double m_best;
    double m_target;
    double m_colocatedTime;
};

} // namespace ns3

#endif
