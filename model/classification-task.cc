/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "classification-task.h"

#include "batch-sampler.h"
#include "idx-file.h"
#include "input-error.h"

#include <algorithm>
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

/// Fashion-MNIST: 28 x 28 pixels, 10 classes.
constexpr std::size_t kFashionPixels = 784;
constexpr std::size_t kFashionClasses = 10;

/// \p config validated, with the inputs and classes of a real data set.
ProxyTaskConfig
Effective(ProxyTaskConfig config)
{
    config.Validate();
    if (config.kind != ProxyTaskKind::CLASSIFICATION)
    {
        throw std::invalid_argument("classification task: the config is of kind " +
                                    ProxyTaskConfig::KindName(config.kind));
    }
    if (config.dataset == "fashion-mnist")
    {
        config.inputs = kFashionPixels;
        config.classes = kFashionClasses;
        config.latent = std::min(config.latent, config.inputs);
    }
    return config;
}

/// {inputs, hidden..., classes} of an Effective() config.
std::vector<std::size_t>
LayersOf(const ProxyTaskConfig& config)
{
    std::vector<std::size_t> layers{config.inputs};
    layers.insert(layers.end(), config.hidden.begin(), config.hidden.end());
    layers.push_back(config.classes);
    return layers;
}

} // namespace

ClassificationTask::ClassificationTask(const ProxyTaskConfig& config)
    : m_config(Effective(config))
    , m_network(LayersOf(m_config))
{
    const std::size_t n = m_config.islands;
    const std::size_t c = m_config.classes;
    if (m_config.identicalData)
    {
        m_shares = Eigen::MatrixXd::Constant(n, c, 1.0 / static_cast<double>(c));
    }
    else
    {
        m_shares = LabelSkew::Shares(n, c, m_config.alpha, m_config.placement,
                                     BatchSampler::DeriveSeed(m_config.seed, kSharesStream));
    }
    if (m_config.dataset == "fashion-mnist")
    {
        BuildFashionMnist();
    }
    else
    {
        BuildSynthetic();
    }
    m_initial = m_network.Initialize(BatchSampler::DeriveSeed(m_config.seed, kInitStream));
}

void
ClassificationTask::BuildSynthetic()
{
    const ProxyTaskConfig& config = m_config;
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
}

void
ClassificationTask::BuildFashionMnist()
{
    const std::string dir = m_config.datasetDir + "/";
    auto load = [&](const std::string& images, const std::string& labels, IdxFile& x, IdxFile& y) {
        x = IdxFile::Read(dir + images);
        y = IdxFile::Read(dir + labels);
        if (x.ItemSize() != kFashionPixels || x.Sizes().size() != 3)
        {
            throw InputError(dir + images, 0, "dimensions", "images must be 28 x 28");
        }
        if (y.Sizes().size() != 1 || y.Items() != x.Items())
        {
            throw InputError(dir + labels, 0, "dimensions",
                             std::to_string(y.Items()) + " labels for " +
                                 std::to_string(x.Items()) + " images");
        }
        for (uint8_t label : y.Values())
        {
            if (label >= kFashionClasses)
            {
                throw InputError(dir + labels, 0, "data",
                                 "label " + std::to_string(label) + " is not below 10");
            }
        }
    };
    IdxFile trainX;
    IdxFile trainY;
    IdxFile testX;
    IdxFile testY;
    load("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", trainX, trainY);
    load("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz", testX, testY);
    if (m_config.heldOutSamples > testX.Items())
    {
        throw std::invalid_argument("proxy task: heldOutSamples (" +
                                    std::to_string(m_config.heldOutSamples) + ") exceeds the " +
                                    std::to_string(testX.Items()) + " Fashion-MNIST test images");
    }
    auto copyRows = [](const IdxFile& images, const IdxFile& labels,
                       const std::vector<std::size_t>& rows, Matrix& x, std::vector<int>& y) {
        x.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(kFashionPixels));
        y.resize(rows.size());
        for (std::size_t r = 0; r < rows.size(); ++r)
        {
            const uint8_t* pixel = images.Values().data() + rows[r] * kFashionPixels;
            for (std::size_t j = 0; j < kFashionPixels; ++j)
            {
                x(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(j)) = pixel[j] / 255.0;
            }
            y[r] = labels.Values()[rows[r]];
        }
    };
    auto permutation = [](std::size_t size, uint64_t seed) {
        std::vector<std::size_t> order(size);
        for (std::size_t i = 0; i < size; ++i)
        {
            order[i] = i;
        }
        std::mt19937_64 rng(seed);
        std::shuffle(order.begin(), order.end(), rng);
        return order;
    };
    std::vector<std::size_t> heldOut =
        permutation(testX.Items(), BatchSampler::DeriveSeed(m_config.seed, kHeldOutStream));
    heldOut.resize(m_config.heldOutSamples);
    copyRows(testX, testY, heldOut, m_heldOutFeatures, m_heldOutLabels);
    std::vector<std::size_t> order =
        permutation(trainX.Items(), BatchSampler::DeriveSeed(m_config.seed, kIdenticalStream));
    if (m_config.identicalData)
    {
        std::vector<std::size_t> rows;
        for (std::size_t i = 0; i < m_config.samplesPerIsland; ++i)
        {
            rows.push_back(order[i % order.size()]);
        }
        m_features.resize(1);
        m_labels.resize(1);
        copyRows(trainX, trainY, rows, m_features[0], m_labels[0]);
        return;
    }
    // Every class's images in the seeded order; shared out across the islands in turn.
    std::vector<std::vector<std::size_t>> pool(kFashionClasses);
    for (std::size_t i : order)
    {
        pool[trainY.Values()[i]].push_back(i);
    }
    std::vector<std::size_t> cursor(kFashionClasses, 0);
    m_features.resize(m_config.islands);
    m_labels.resize(m_config.islands);
    for (std::size_t k = 0; k < m_config.islands; ++k)
    {
        std::vector<std::size_t> counts = LabelSkew::Counts(
            m_shares.row(static_cast<Eigen::Index>(k)).transpose(), m_config.samplesPerIsland);
        std::vector<std::size_t> rows;
        for (std::size_t cls = 0; cls < kFashionClasses; ++cls)
        {
            if (counts[cls] > 0 && pool[cls].empty())
            {
                throw InputError(dir + "train-labels-idx1-ubyte.gz", 0, "data",
                                 "no image of class " + std::to_string(cls));
            }
            for (std::size_t i = 0; i < counts[cls]; ++i)
            {
                rows.push_back(pool[cls][cursor[cls] % pool[cls].size()]);
                ++cursor[cls];
            }
        }
        copyRows(trainX, trainY, rows, m_features[k], m_labels[k]);
    }
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
