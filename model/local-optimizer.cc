/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "local-optimizer.h"

#include <cmath>
#include <stdexcept>

namespace ns3
{

namespace
{

void
Require(bool ok, const std::string& field, const std::string& rule, double value)
{
    if (!ok)
    {
        throw std::invalid_argument("optimizer: " + field + " must be " + rule + " (got " +
                                    std::to_string(value) + ")");
    }
}

} // namespace

void
LocalOptimizerConfig::Validate() const
{
    Require(learningRate > 0 && std::isfinite(learningRate), "learningRate", "positive and finite",
            learningRate);
    Require(weightDecay >= 0 && std::isfinite(weightDecay), "weightDecay",
            "non-negative and finite", weightDecay);
    Require(momentum >= 0 && momentum < 1, "momentum", "in [0, 1)", momentum);
    if (kind == LocalOptimizerKind::ADAMW)
    {
        Require(momentum == 0, "momentum", "0 with adamw (beta1 is its momentum)", momentum);
        Require(beta1 >= 0 && beta1 < 1, "beta1", "in [0, 1)", beta1);
        Require(beta2 >= 0 && beta2 < 1, "beta2", "in [0, 1)", beta2);
        Require(epsilon > 0, "epsilon", "positive", epsilon);
    }
}

LocalOptimizerKind
LocalOptimizerConfig::ParseKind(const std::string& name)
{
    if (name == "sgd")
    {
        return LocalOptimizerKind::SGD;
    }
    if (name == "adamw")
    {
        return LocalOptimizerKind::ADAMW;
    }
    throw std::invalid_argument("optimizer: unknown kind '" + name + "' (sgd | adamw)");
}

std::string
LocalOptimizerConfig::KindName(LocalOptimizerKind kind)
{
    return kind == LocalOptimizerKind::SGD ? "sgd" : "adamw";
}

LocalOptimizer::LocalOptimizer(const LocalOptimizerConfig& config, std::size_t dimension)
    : m_config(config)
    , m_steps(0)
{
    config.Validate();
    if (dimension == 0)
    {
        throw std::invalid_argument("optimizer: dimension must be positive");
    }
    if (config.kind == LocalOptimizerKind::SGD && config.momentum > 0)
    {
        m_m = Eigen::VectorXd::Zero(dimension);
    }
    if (config.kind == LocalOptimizerKind::ADAMW)
    {
        m_m = Eigen::VectorXd::Zero(dimension);
        m_v = Eigen::VectorXd::Zero(dimension);
    }
}

void
LocalOptimizer::Step(Eigen::VectorXd& x, const Eigen::VectorXd& grad)
{
    if (grad.size() != x.size())
    {
        throw std::invalid_argument("optimizer: gradient and parameters differ in size");
    }
    ++m_steps;
    const double lr = m_config.learningRate;
    if (m_config.weightDecay > 0)
    {
        x *= 1 - lr * m_config.weightDecay;
    }
    if (m_config.kind == LocalOptimizerKind::SGD)
    {
        const double mu = m_config.momentum;
        if (mu == 0)
        {
            x.noalias() -= lr * grad;
            return;
        }
        m_m = mu * m_m + grad;
        if (m_config.nesterov)
        {
            x.noalias() -= lr * (grad + mu * m_m);
        }
        else
        {
            x.noalias() -= lr * m_m;
        }
        return;
    }
    const double b1 = m_config.beta1;
    const double b2 = m_config.beta2;
    m_m = b1 * m_m + (1 - b1) * grad;
    m_v = b2 * m_v + (1 - b2) * grad.cwiseAbs2();
    const double t = static_cast<double>(m_steps);
    const double c1 = 1 - std::pow(b1, t);
    const double c2 = 1 - std::pow(b2, t);
    x.array() -= lr * (m_m.array() / c1) / ((m_v.array() / c2).sqrt() + m_config.epsilon);
}

uint64_t
LocalOptimizer::Steps() const
{
    return m_steps;
}

const LocalOptimizerConfig&
LocalOptimizer::Config() const
{
    return m_config;
}

} // namespace ns3
