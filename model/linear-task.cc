/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "linear-task.h"

#include "batch-sampler.h"

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Random streams of a task (BatchSampler::DeriveSeed(seed, stream)).
constexpr uint64_t kModelStream = 0;
constexpr uint64_t kHeldOutStream = 1;
constexpr uint64_t kIdenticalStream = 2;
constexpr uint64_t kFirstShardStream = 3;

double
Sigmoid(double z)
{
    if (z >= 0)
    {
        return 1 / (1 + std::exp(-z));
    }
    double e = std::exp(z);
    return e / (1 + e);
}

/// log(1 + exp(z)) without overflow.
double
Softplus(double z)
{
    return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z));
}

} // namespace

LinearTask::LinearTask(const ProxyTaskConfig& config)
    : m_config(config)
{
    config.Validate();
    if (config.kind == ProxyTaskKind::CLASSIFICATION)
    {
        throw std::invalid_argument("linear task: the classification kind is ClassificationTask");
    }
    const std::size_t d = config.dimension;
    const std::size_t n = config.islands;
    std::mt19937_64 rng(BatchSampler::DeriveSeed(config.seed, kModelStream));
    std::normal_distribution<double> gauss(0, 1);
    const double unit = 1 / std::sqrt(static_cast<double>(d));
    m_trueModel.resize(d);
    for (std::size_t j = 0; j < d; ++j)
    {
        m_trueModel[j] = gauss(rng) * config.signal * unit;
    }
    m_featureShift.resize(n, d);
    m_conceptShift.resize(n, d);
    for (std::size_t k = 0; k < n; ++k)
    {
        for (std::size_t j = 0; j < d; ++j)
        {
            m_featureShift(k, j) = gauss(rng) * unit;
            m_conceptShift(k, j) = gauss(rng) * config.signal * unit;
        }
    }
    m_conceptShift.rowwise() -= m_conceptShift.colwise().mean();

    Draw(n, config.heldOutSamples, kHeldOutStream, m_heldOutFeatures, m_heldOutTargets);
    const std::size_t shards = config.identicalData ? 1 : n;
    m_features.resize(shards);
    m_targets.resize(shards);
    for (std::size_t k = 0; k < shards; ++k)
    {
        if (config.identicalData)
        {
            Draw(n, config.samplesPerIsland, kIdenticalStream, m_features[k], m_targets[k]);
        }
        else
        {
            Draw(k, config.samplesPerIsland, kFirstShardStream + k, m_features[k], m_targets[k]);
        }
    }
}

void
LinearTask::Draw(std::size_t island, std::size_t rows, uint64_t stream, Matrix& x,
                 Eigen::VectorXd& y) const
{
    const std::size_t d = m_config.dimension;
    const std::size_t n = m_config.islands;
    const double h = m_config.heterogeneity;
    std::mt19937_64 rng(BatchSampler::DeriveSeed(m_config.seed, stream));
    std::normal_distribution<double> gauss(0, 1);
    std::uniform_int_distribution<std::size_t> pick(0, n - 1);
    std::uniform_real_distribution<double> uniform(0, 1);
    x.resize(rows, d);
    y.resize(rows);
    for (std::size_t r = 0; r < rows; ++r)
    {
        std::size_t k = island < n ? island : pick(rng);
        for (std::size_t j = 0; j < d; ++j)
        {
            x(r, j) = gauss(rng) + h * m_featureShift(k, j);
        }
        double z = x.row(r).dot(m_trueModel) + h * x.row(r).dot(m_conceptShift.row(k));
        if (m_config.kind == ProxyTaskKind::LEAST_SQUARES)
        {
            y[r] = z + m_config.noise * gauss(rng);
        }
        else
        {
            y[r] = uniform(rng) < Sigmoid(z) ? 1.0 : 0.0;
        }
    }
}

const ProxyTaskConfig&
LinearTask::Config() const
{
    return m_config;
}

std::size_t
LinearTask::Dimension() const
{
    return m_config.dimension;
}

void
LinearTask::CheckVector(const Eigen::VectorXd& w) const
{
    if (static_cast<std::size_t>(w.size()) != m_config.dimension)
    {
        throw std::invalid_argument("proxy task: parameter vector has " + std::to_string(w.size()) +
                                    " entries, expected " + std::to_string(m_config.dimension));
    }
}

const LinearTask::Matrix&
LinearTask::Features(std::size_t island) const
{
    CheckIsland(island);
    return m_features[m_config.identicalData ? 0 : island];
}

const Eigen::VectorXd&
LinearTask::Targets(std::size_t island) const
{
    CheckIsland(island);
    return m_targets[m_config.identicalData ? 0 : island];
}

std::size_t
LinearTask::ShardRows(std::size_t island) const
{
    return static_cast<std::size_t>(Features(island).rows());
}

const LinearTask::Matrix&
LinearTask::HeldOutFeatures() const
{
    return m_heldOutFeatures;
}

const Eigen::VectorXd&
LinearTask::HeldOutTargets() const
{
    return m_heldOutTargets;
}

const Eigen::VectorXd&
LinearTask::TrueModel() const
{
    return m_trueModel;
}

Eigen::VectorXd
LinearTask::IslandModel(std::size_t island) const
{
    CheckIsland(island);
    return m_trueModel + m_config.heterogeneity * m_conceptShift.row(island).transpose();
}

Eigen::VectorXd
LinearTask::InitialParameters() const
{
    return Eigen::VectorXd::Zero(m_config.dimension);
}

double
LinearTask::Evaluate(const Matrix& x, const Eigen::VectorXd& y, const Eigen::VectorXd& w,
                     Eigen::VectorXd* grad) const
{
    CheckVector(w);
    const double rows = static_cast<double>(x.rows());
    Eigen::VectorXd z = x * w;
    Eigen::VectorXd residual(z.size()); // d loss / d z per row
    double loss = 0;
    for (Eigen::Index r = 0; r < z.size(); ++r)
    {
        if (m_config.kind == ProxyTaskKind::LEAST_SQUARES)
        {
            residual[r] = z[r] - y[r];
            loss += 0.5 * residual[r] * residual[r];
        }
        else
        {
            residual[r] = Sigmoid(z[r]) - y[r];
            loss += Softplus(z[r]) - y[r] * z[r];
        }
    }
    if (grad)
    {
        grad->noalias() = x.transpose() * residual;
        *grad /= rows;
    }
    return loss / rows;
}

double
LinearTask::ShardLoss(std::size_t island, const Eigen::VectorXd& w) const
{
    return Evaluate(Features(island), Targets(island), w, nullptr);
}

double
LinearTask::ShardGradient(std::size_t island, const Eigen::VectorXd& w, Eigen::VectorXd& grad) const
{
    return Evaluate(Features(island), Targets(island), w, &grad);
}

double
LinearTask::BatchGradient(std::size_t island, const Eigen::VectorXd& w,
                          const std::vector<std::size_t>& rows, Eigen::VectorXd& grad) const
{
    const Matrix& x = Features(island);
    const Eigen::VectorXd& y = Targets(island);
    CheckRows(rows, static_cast<std::size_t>(x.rows()), island);
    if (rows.size() == static_cast<std::size_t>(x.rows()))
    {
        bool identity = true;
        for (std::size_t i = 0; i < rows.size() && identity; ++i)
        {
            identity = rows[i] == i;
        }
        if (identity)
        {
            return Evaluate(x, y, w, &grad);
        }
    }
    Matrix xb = x(rows, Eigen::all);
    Eigen::VectorXd yb = y(rows);
    return Evaluate(xb, yb, w, &grad);
}

Evaluation
LinearTask::HeldOut(const Eigen::VectorXd& w) const
{
    Evaluation e;
    e.loss = Evaluate(m_heldOutFeatures, m_heldOutTargets, w, nullptr);
    e.accuracy = std::numeric_limits<double>::quiet_NaN();
    if (HasAccuracy())
    {
        Eigen::VectorXd z = m_heldOutFeatures * w;
        std::size_t correct = 0;
        for (Eigen::Index r = 0; r < z.size(); ++r)
        {
            correct += (z[r] > 0) == (m_heldOutTargets[r] > 0.5) ? 1 : 0;
        }
        e.accuracy = static_cast<double>(correct) / static_cast<double>(z.size());
    }
    return e;
}

bool
LinearTask::HasAccuracy() const
{
    return m_config.kind == ProxyTaskKind::LOGISTIC;
}

} // namespace ns3
