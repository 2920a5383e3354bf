/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gap-evaluator.h"

#include "colocated-trainer.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

void
GapSetup::Validate() const
{
    task.Validate();
    inner.Validate();
    outer.Validate();
    if (localSteps == 0)
    {
        throw std::invalid_argument("gap evaluator: localSteps must be positive (got 0)");
    }
    if (!(computeTimeS > 0) || !std::isfinite(computeTimeS))
    {
        throw std::invalid_argument("gap evaluator: computeTimeS must be positive and finite "
                                    "(got " +
                                    std::to_string(computeTimeS) + ")");
    }
    if (!(targetFraction > 0 && targetFraction <= 1))
    {
        throw std::invalid_argument("gap evaluator: targetFraction must be in (0, 1] (got " +
                                    std::to_string(targetFraction) + ")");
    }
    if (!(referenceHorizonS >= computeTimeS) || !std::isfinite(referenceHorizonS))
    {
        throw std::invalid_argument("gap evaluator: referenceHorizonS must be finite and at "
                                    "least one step (got " +
                                    std::to_string(referenceHorizonS) + ")");
    }
}

bool
GapResult::Reached() const
{
    return std::isfinite(timeToTargetS);
}

GapEvaluator::GapEvaluator(const GapSetup& setup)
    : m_setup(setup)
{
    setup.Validate();
    m_task = ProxyTask::Create(setup.task);
    if (!m_task->HasAccuracy())
    {
        throw std::invalid_argument("gap evaluator: the " +
                                    ProxyTaskConfig::KindName(setup.task.kind) +
                                    " task has no accuracy to set a target on");
    }
    ColocatedTrainer colocated(m_task, setup.inner, setup.computeTimeS, setup.seed);
    m_colocated = colocated.RunUntil(setup.referenceHorizonS, setup.localSteps);
    m_best = TrainingMetrics::BestAccuracy(m_colocated);
    m_target = setup.targetFraction * m_best;
    m_colocatedTime = TrainingMetrics::TimeToAccuracy(m_colocated, m_target);
}

const GapSetup&
GapEvaluator::Setup() const
{
    return m_setup;
}

const std::shared_ptr<const ProxyTask>&
GapEvaluator::Task() const
{
    return m_task;
}

const LossCurve&
GapEvaluator::ColocatedCurve() const
{
    return m_colocated;
}

double
GapEvaluator::BestAccuracy() const
{
    return m_best;
}

double
GapEvaluator::TargetAccuracy() const
{
    return m_target;
}

double
GapEvaluator::ColocatedTimeToTarget() const
{
    return m_colocatedTime;
}

GapResult
GapEvaluator::Evaluate(const Schedule& schedule, const std::vector<std::string>& islands,
                       const std::vector<double>& periodRoundTimes, double horizonS, SyncMode sync,
                       int fractionBits, bool stopAtTarget) const
{
    if (periodRoundTimes.empty())
    {
        throw std::invalid_argument("gap evaluator: no round times");
    }
    double period = 0;
    for (std::size_t r = 0; r < periodRoundTimes.size(); ++r)
    {
        double t = periodRoundTimes[r];
        if (!(t >= 0) || !std::isfinite(t))
        {
            throw std::invalid_argument("gap evaluator: round time " + std::to_string(r) + " is " +
                                        std::to_string(t) + " (must be non-negative and finite)");
        }
        period += t;
    }
    if (!(period > 0))
    {
        throw std::invalid_argument("gap evaluator: every round time is zero");
    }
    if (!(horizonS > 0) || !std::isfinite(horizonS))
    {
        throw std::invalid_argument("gap evaluator: horizonS must be positive and finite (got " +
                                    std::to_string(horizonS) + ")");
    }
    // Rounds until the horizon: whole periods, then the rounds of the last partial period.
    const double periods = std::floor(horizonS / period);
    double rounds = periods * static_cast<double>(periodRoundTimes.size());
    double elapsed = periods * period;
    for (std::size_t r = 0; elapsed < horizonS * (1 - 1e-12); ++r)
    {
        elapsed += periodRoundTimes[r % periodRoundTimes.size()];
        rounds += 1;
    }
    if (rounds > 1e8)
    {
        throw std::invalid_argument("gap evaluator: the horizon needs more than 1e8 rounds");
    }
    TrainingRun run(m_task, schedule, islands, m_setup.inner, m_setup.outer, m_setup.seed);
    TrainingRunConfig config;
    config.rounds = static_cast<uint32_t>(std::max(1.0, rounds));
    config.localSteps = m_setup.localSteps;
    config.sync = sync;
    config.fractionBits = fractionBits;
    config.metric = m_setup.metric;
    config.shardLoss = false; // the fast path records minibatch losses only
    if (stopAtTarget)
    {
        config.stopAccuracy = m_target;
    }
    GapResult result;
    result.run = run.Run(config, TrainingRun::Periodic(periodRoundTimes));
    result.curve = result.run.Curve(m_setup.metric);
    result.timeToTargetS = TrainingMetrics::TimeToAccuracy(result.curve, m_target);
    result.gap = m_colocatedTime > 0 ? result.timeToTargetS / m_colocatedTime
                                     : std::numeric_limits<double>::quiet_NaN();
    return result;
}

} // namespace ns3
