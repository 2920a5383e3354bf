/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "proxy-learner.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/// \p task, checked to be non-null and to have island \p island.
const ProxyTask&
CheckedTask(const std::shared_ptr<const ProxyTask>& task, std::size_t island)
{
    if (!task)
    {
        throw std::invalid_argument("proxy learner: no task");
    }
    if (island >= task->Islands())
    {
        throw std::invalid_argument("proxy learner: island " + std::to_string(island) +
                                    " out of range (the task has " +
                                    std::to_string(task->Islands()) + " islands)");
    }
    return *task;
}

} // namespace

void
OuterOptimizerConfig::Validate() const
{
    if (!(learningRate > 0) || !std::isfinite(learningRate))
    {
        throw std::invalid_argument("outer optimizer: learningRate must be positive and finite "
                                    "(got " +
                                    std::to_string(learningRate) + ")");
    }
    if (!(momentum >= 0 && momentum < 1))
    {
        throw std::invalid_argument("outer optimizer: momentum must be in [0, 1) (got " +
                                    std::to_string(momentum) + ")");
    }
}

ProxyLearner::ProxyLearner(std::shared_ptr<const ProxyTask> task, std::size_t island,
                           const LocalOptimizerConfig& inner, const OuterOptimizerConfig& outer,
                           uint64_t seed)
    : m_task(task)
    , m_island(island)
    , m_outer(outer)
    , m_optimizer(inner, CheckedTask(task, island).Dimension())
    , m_sampler(task->ShardRows(island), inner.batchSize, BatchSampler::DeriveSeed(seed, island))
    , m_x(task->InitialParameters())
    , m_anchor(m_x)
    , m_momentum(Eigen::VectorXd::Zero(m_x.size()))
    , m_grad(m_x.size())
    , m_syncs(0)
    , m_lastSyncRound(0)
    , m_trackShardLoss(true)
{
    outer.Validate();
}

std::vector<std::shared_ptr<ProxyLearner>>
ProxyLearner::ForAllIslands(const std::shared_ptr<const ProxyTask>& task,
                            const LocalOptimizerConfig& inner, const OuterOptimizerConfig& outer,
                            uint64_t seed)
{
    if (!task)
    {
        throw std::invalid_argument("proxy learner: no task");
    }
    std::vector<std::shared_ptr<ProxyLearner>> out;
    for (std::size_t i = 0; i < task->Islands(); ++i)
    {
        out.push_back(std::make_shared<ProxyLearner>(task, i, inner, outer, seed));
    }
    return out;
}

std::size_t
ProxyLearner::Dimension() const
{
    return static_cast<std::size_t>(m_x.size());
}

void
ProxyLearner::LocalSteps(uint32_t round, uint32_t steps)
{
    LocalRoundRecord record;
    record.round = round;
    record.steps = steps;
    double batchLoss = 0;
    for (uint32_t s = 0; s < steps; ++s)
    {
        batchLoss += m_task->BatchGradient(m_island, m_x, m_sampler.Next(), m_grad);
        m_optimizer.Step(m_x, m_grad);
    }
    record.meanBatchLoss = steps > 0 ? batchLoss / steps : std::numeric_limits<double>::quiet_NaN();
    record.loss = m_trackShardLoss ? LocalLoss() : std::numeric_limits<double>::quiet_NaN();
    m_history.push_back(record);
}

std::vector<double>
ProxyLearner::Parameters() const
{
    return std::vector<double>(m_x.data(), m_x.data() + m_x.size());
}

void
ProxyLearner::Synchronize(uint32_t round, const std::vector<std::vector<double>>& peers)
{
    for (const auto& p : peers)
    {
        if (p.size() != Dimension())
        {
            throw std::invalid_argument("proxy learner: peer vector has " +
                                        std::to_string(p.size()) + " entries, expected " +
                                        std::to_string(Dimension()));
        }
    }
    if (peers.empty())
    {
        return;
    }
    Eigen::VectorXd sum = m_x;
    for (const auto& p : peers)
    {
        sum += Eigen::Map<const Eigen::VectorXd>(p.data(), m_x.size());
    }
    Merge(round, sum / static_cast<double>(peers.size() + 1));
}

void
ProxyLearner::SynchronizeSum(uint32_t round, const std::vector<double>& sum, uint32_t members)
{
    if (sum.size() != Dimension())
    {
        throw std::invalid_argument("proxy learner: sum vector has " + std::to_string(sum.size()) +
                                    " entries, expected " + std::to_string(Dimension()));
    }
    if (members == 0)
    {
        throw std::invalid_argument("proxy learner: a sum over zero members");
    }
    if (members == 1)
    {
        return;
    }
    Merge(round, Eigen::Map<const Eigen::VectorXd>(sum.data(), m_x.size()) / members);
}

void
ProxyLearner::Merge(uint32_t round, const Eigen::VectorXd& average)
{
    Eigen::VectorXd delta = m_anchor - average;
    const double mu = m_outer.momentum;
    m_momentum = mu * m_momentum + delta;
    if (m_outer.nesterov)
    {
        m_x = m_anchor - m_outer.learningRate * (delta + mu * m_momentum);
    }
    else
    {
        m_x = m_anchor - m_outer.learningRate * m_momentum;
    }
    m_anchor = m_x;
    ++m_syncs;
    m_lastSyncRound = round;
}

std::size_t
ProxyLearner::Island() const
{
    return m_island;
}

const ProxyTask&
ProxyLearner::Task() const
{
    return *m_task;
}

const Eigen::VectorXd&
ProxyLearner::Vector() const
{
    return m_x;
}

void
ProxyLearner::SetVector(const Eigen::VectorXd& x)
{
    if (x.size() != m_x.size())
    {
        throw std::invalid_argument("proxy learner: vector has " + std::to_string(x.size()) +
                                    " entries, expected " + std::to_string(m_x.size()));
    }
    m_x = x;
    m_anchor = x;
    m_momentum.setZero();
}

const Eigen::VectorXd&
ProxyLearner::Anchor() const
{
    return m_anchor;
}

double
ProxyLearner::LocalLoss() const
{
    return m_task->ShardLoss(m_island, m_x);
}

double
ProxyLearner::GlobalLoss() const
{
    return m_task->HeldOutLoss(m_x);
}

Evaluation
ProxyLearner::HeldOut() const
{
    return m_task->HeldOut(m_x);
}

uint64_t
ProxyLearner::StepsDone() const
{
    return m_optimizer.Steps();
}

uint32_t
ProxyLearner::Synchronizations() const
{
    return m_syncs;
}

uint32_t
ProxyLearner::LastSyncRound() const
{
    return m_lastSyncRound;
}

const std::vector<LocalRoundRecord>&
ProxyLearner::LocalHistory() const
{
    return m_history;
}

void
ProxyLearner::SetShardLossTracking(bool on)
{
    m_trackShardLoss = on;
}

double
ProxyLearner::LastLocalLoss() const
{
    return m_history.empty() ? std::numeric_limits<double>::quiet_NaN() : m_history.back().loss;
}

} // namespace ns3
