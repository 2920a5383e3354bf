/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "classification-task.h"

#include "batch-sampler.h"

#include <random>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Random streams of a task (BatchSampler::DeriveSeed(seed, stream)).
constexpr uint64_t kGeometryStream = 0;
constexpr uint64_t kHeldOutStream = 1;
constexpr uint64_t kIdenticalStream = 2;
constexpr uint64_t kSharesStream = 3;
constexpr uint64_t kInitStream = 4;
constexpr uint64_t kFirstShardStream = 5;

/// {inputs, hidden..., classes} of \p config (validated first).
std::vector<std::size_t>
LayersOf(const ProxyTaskConfig& config)
{
    config.Validate();
    if (config.kind != ProxyTaskKind::CLASSIFICATION)
    {
        throw std::invalid_argument("classification task: the config is of kind " +
                                    ProxyTaskConfig::KindName(config.kind));
    }
    std::vector<std::size_t> layers{config.inputs};
    layers.insert(layers.end(), config.hidden.begin(), config.hidden.end());
    layers.push_back(config.classes);
    return layers;
}

} // namespace

ClassificationTask::ClassificationTask(const ProxyTaskConfig& config)
    : m_config(config)
    , m_network(LayersOf(config))
{
    const auto d = static_cast<Eigen::Index>(config.inputs);
    const auto l = static_cast<Eigen::Index>(config.latent);
    const std::size_t n = config.islands;
    const std::size_t c = config.classes;
    std::mt19937_64 rng(BatchSampler::DeriveSeed(config.seed, kGeometryStream));
    std::normal_distribution<double> gauss(0, 1);
    Eigen::MatrixXd g(d, l);
    for (Eigen::Index j = 0; j < l; ++j)
    {
        for (Eigen::Index i = 0; i < d; ++i)
        {
            g(i, j) = gauss(rng);
        }
    }
    Eigen::MatrixXd embedding =
        Eigen::HouseholderQR<Eigen::MatrixXd>(g).householderQ() * Eigen::MatrixXd::Identity(d, l);
    const auto modes = static_cast<Eigen::Index>(c * config.modesPerClass);
    Eigen::MatrixXd plane(modes, l);
    for (Eigen::Index m = 0; m < modes; ++m)
    {
        for (Eigen::Index j = 0; j < l; ++j)
        {
            plane(m, j) = gauss(rng);
        }
    }
    m_centres = plane * embedding.transpose();

    DrawIid(config.heldOutSamples, kHeldOutStream, m_heldOutFeatures, m_heldOutLabels);
    if (config.identicalData)
    {
        m_shares = Eigen::MatrixXd::Constant(n, c, 1.0 / static_cast<double>(c));
        m_features.resize(1);
        m_labels.resize(1);
        DrawIid(config.samplesPerIsland, kIdenticalStream, m_features[0], m_labels[0]);
    }
    else
    {
        m_shares = LabelSkew::Shares(n, c, config.alpha, config.placement,
                                     BatchSampler::DeriveSeed(config.seed, kSharesStream));
        m_features.resize(n);
        m_labels.resize(n);
        for (std::size_t k = 0; k < n; ++k)
        {
            std::vector<std::size_t> counts = LabelSkew::Counts(
                m_shares.row(static_cast<Eigen::Index>(k)).transpose(), config.samplesPerIsland);
            std::mt19937_64 shardRng(BatchSampler::DeriveSeed(config.seed, kFirstShardStream + k));
            m_features[k].resize(static_cast<Eigen::Index>(config.samplesPerIsland), d);
            m_labels[k].clear();
            for (std::size_t cls = 0; cls < c; ++cls)
            {
                for (std::size_t i = 0; i < counts[cls]; ++i)
                {
                    auto r = static_cast<Eigen::Index>(m_labels[k].size());
                    m_labels[k].push_back(static_cast<int>(cls));
                    DrawRow(static_cast<int>(cls), shardRng, m_features[k], r);
                }
            }
        }
    }
    m_initial = m_network.Initialize(BatchSampler::DeriveSeed(config.seed, kInitStream));
}

void
ClassificationTask::DrawRow(int label, std::mt19937_64& rng, Matrix& x, Eigen::Index r) const
{
    std::uniform_int_distribution<std::size_t> pickMode(0, m_config.modesPerClass - 1);
    std::normal_distribution<double> gauss(0, 1);
    auto mode = static_cast<Eigen::Index>(static_cast<std::size_t>(label) * m_config.modesPerClass +
                                          pickMode(rng));
    for (Eigen::Index j = 0; j < x.cols(); ++j)
    {
        x(r, j) = m_centres(mode, j) + m_config.modeNoise * gauss(rng);
    }
}

void
ClassificationTask::DrawIid(std::size_t rows, uint64_t stream, Matrix& x, std::vector<int>& y) const
{
    std::mt19937_64 rng(BatchSampler::DeriveSeed(m_config.seed, stream));
    std::uniform_int_distribution<int> pickClass(0, static_cast<int>(m_config.classes) - 1);
    x.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(m_config.inputs));
    y.resize(rows);
    for (std::size_t r = 0; r < rows; ++r)
    {
        y[r] = pickClass(rng);
        DrawRow(y[r], rng, x, static_cast<Eigen::Index>(r));
    }
}

const ProxyTaskConfig&
ClassificationTask::Config() const
{
    return m_config;
}

std::size_t
ClassificationTask::Dimension() const
{
    return m_network.Parameters();
}

std::size_t
ClassificationTask::ShardRows(std::size_t island) const
{
    return Labels(island).size();
}

Eigen::VectorXd
ClassificationTask::InitialParameters() const
{
    return m_initial;
}

bool
ClassificationTask::HasAccuracy() const
{
    return true;
}

const Mlp&
ClassificationTask::Network() const
{
    return m_network;
}

const ClassificationTask::Matrix&
ClassificationTask::Features(std::size_t island) const
{
    CheckIsland(island);
    return m_features[m_config.identicalData ? 0 : island];
}

const std::vector<int>&
ClassificationTask::Labels(std::size_t island) const
{
    CheckIsland(island);
    return m_labels[m_config.identicalData ? 0 : island];
}

std::vector<std::size_t>
ClassificationTask::ClassCounts(std::size_t island) const
{
    std::vector<std::size_t> counts(m_config.classes, 0);
    for (int y : Labels(island))
    {
        ++counts[static_cast<std::size_t>(y)];
    }
    return counts;
}

double
ClassificationTask::BatchGradient(std::size_t island, const Eigen::VectorXd& w,
                                  const std::vector<std::size_t>& rows, Eigen::VectorXd& grad) const
{
    const Matrix& x = Features(island);
    const std::vector<int>& y = Labels(island);
    CheckRows(rows, y.size(), island);
    Matrix xb = x(rows, Eigen::all);
    std::vector<int> yb(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        yb[i] = y[rows[i]];
    }
    return m_network.Loss(w, xb, yb, &grad);
}

double
ClassificationTask::ShardLoss(std::size_t island, const Eigen::VectorXd& w) const
{
    return m_network.Loss(w, Features(island), Labels(island), nullptr);
}

double
ClassificationTask::ShardGradient(std::size_t island, const Eigen::VectorXd& w,
                                  Eigen::VectorXd& grad) const
{
    return m_network.Loss(w, Features(island), Labels(island), &grad);
}

Evaluation
ClassificationTask::ShardEvaluation(std::size_t island, const Eigen::VectorXd& w) const
{
    return m_network.Evaluate(w, Features(island), Labels(island));
}

Evaluation
ClassificationTask::HeldOut(const Eigen::VectorXd& w) const
{
    return m_network.Evaluate(w, m_heldOutFeatures, m_heldOutLabels);
}

const ClassificationTask::Matrix&
ClassificationTask::HeldOutFeatures() const
{
    return m_heldOutFeatures;
}

const std::vector<int>&
ClassificationTask::HeldOutLabels() const
{
    return m_heldOutLabels;
}

const Eigen::MatrixXd&
ClassificationTask::ClassShares() const
{
    return m_shares;
}

const ClassificationTask::Matrix&
ClassificationTask::Centres() const
{
    return m_centres;
}

} // namespace ns3
