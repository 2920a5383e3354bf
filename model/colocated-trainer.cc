/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "colocated-trainer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

const ProxyTask&
NonNull(const std::shared_ptr<const ProxyTask>& task)
{
    if (!task)
    {
        throw std::invalid_argument("colocated trainer: no task");
    }
    return *task;
}

} // namespace

ColocatedTrainer::ColocatedTrainer(std::shared_ptr<const ProxyTask> task,
                                   const LocalOptimizerConfig& config, double computeTimeS,
                                   uint64_t seed)
    : m_task(task)
    , m_optimizer(config, NonNull(task).Dimension())
    , m_computeTimeS(computeTimeS)
    , m_x(task->InitialParameters())
    , m_grad(m_x.size())
    , m_workerGrad(m_x.size())
{
    if (!(computeTimeS >= 0) || !std::isfinite(computeTimeS))
    {
        throw std::invalid_argument("colocated trainer: computeTimeS must be non-negative and "
                                    "finite (got " +
                                    std::to_string(computeTimeS) + ")");
    }
    for (std::size_t i = 0; i < task->Islands(); ++i)
    {
        m_samplers.emplace_back(task->ShardRows(i), config.batchSize,
                                BatchSampler::DeriveSeed(seed, i));
    }
}

void
ColocatedTrainer::Step()
{
    m_grad.setZero();
    for (std::size_t i = 0; i < m_samplers.size(); ++i)
    {
        m_task->BatchGradient(i, m_x, m_samplers[i].Next(), m_workerGrad);
        m_grad += m_workerGrad;
    }
    m_grad /= static_cast<double>(m_samplers.size());
    m_optimizer.Step(m_x, m_grad);
}

void
ColocatedTrainer::Steps(uint64_t steps)
{
    for (uint64_t s = 0; s < steps; ++s)
    {
        Step();
    }
}

LossCurve
ColocatedTrainer::Run(uint64_t steps, uint64_t evalEvery)
{
    if (evalEvery == 0)
    {
        throw std::invalid_argument("colocated trainer: evalEvery must be positive");
    }
    LossCurve curve{Point()};
    for (uint64_t done = 0; done < steps;)
    {
        uint64_t chunk = std::min(evalEvery, steps - done);
        Steps(chunk);
        done += chunk;
        curve.push_back(Point());
    }
    return curve;
}

LossCurve
ColocatedTrainer::RunUntil(double horizonS, uint64_t evalEvery)
{
    uint64_t steps = 0;
    if (m_computeTimeS > 0 && horizonS > TimeS())
    {
        // The small slack keeps a horizon that is an exact multiple of the step time.
        steps = static_cast<uint64_t>(std::floor(horizonS / m_computeTimeS * (1 + 1e-12))) -
                StepsDone();
    }
    return Run(steps, evalEvery);
}

const Eigen::VectorXd&
ColocatedTrainer::Vector() const
{
    return m_x;
}

uint64_t
ColocatedTrainer::StepsDone() const
{
    return m_optimizer.Steps();
}

double
ColocatedTrainer::TimeS() const
{
    return static_cast<double>(StepsDone()) * m_computeTimeS;
}

double
ColocatedTrainer::HeldOutLoss() const
{
    return m_task->HeldOutLoss(m_x);
}

Evaluation
ColocatedTrainer::HeldOut() const
{
    return m_task->HeldOut(m_x);
}

LossPoint
ColocatedTrainer::Point() const
{
    Evaluation e = HeldOut();
    return LossPoint{TimeS(), e.loss, e.accuracy};
}

} // namespace ns3
