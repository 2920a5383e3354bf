/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "mlp.h"

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

namespace ns3
{

Mlp::Mlp(std::vector<std::size_t> layers)
    : m_layers(std::move(layers))
    , m_parameters(0)
{
    if (m_layers.size() < 2)
    {
        throw std::invalid_argument("mlp: needs at least an input and an output layer (got " +
                                    std::to_string(m_layers.size()) + " layer sizes)");
    }
    for (std::size_t l = 0; l < m_layers.size(); ++l)
    {
        if (m_layers[l] == 0)
        {
            throw std::invalid_argument("mlp: layer " + std::to_string(l) + " has no units");
        }
    }
    if (m_layers.back() < 2)
    {
        throw std::invalid_argument("mlp: needs at least 2 classes (got " +
                                    std::to_string(m_layers.back()) + ")");
    }
    for (std::size_t l = 0; l + 1 < m_layers.size(); ++l)
    {
        m_offsets.push_back(m_parameters);
        m_parameters += (m_layers[l] + 1) * m_layers[l + 1];
    }
}

const std::vector<std::size_t>&
Mlp::Layers() const
{
    return m_layers;
}

std::size_t
Mlp::Inputs() const
{
    return m_layers.front();
}

std::size_t
Mlp::Classes() const
{
    return m_layers.back();
}

std::size_t
Mlp::Parameters() const
{
    return m_parameters;
}

Eigen::VectorXd
Mlp::Initialize(uint64_t seed) const
{
    Eigen::VectorXd w = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(m_parameters));
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> gauss(0, 1);
    for (std::size_t l = 0; l + 1 < m_layers.size(); ++l)
    {
        const double scale = std::sqrt(2.0 / static_cast<double>(m_layers[l]));
        const std::size_t weights = m_layers[l] * m_layers[l + 1];
        for (std::size_t j = 0; j < weights; ++j)
        {
            w[static_cast<Eigen::Index>(m_offsets[l] + j)] = scale * gauss(rng);
        }
    }
    return w;
}

void
Mlp::Check(const Eigen::VectorXd& w, const Matrix& x, const std::vector<int>* labels) const
{
    if (static_cast<std::size_t>(w.size()) != m_parameters)
    {
        throw std::invalid_argument("mlp: parameter vector has " + std::to_string(w.size()) +
                                    " entries, expected " + std::to_string(m_parameters));
    }
    if (static_cast<std::size_t>(x.cols()) != Inputs())
    {
        throw std::invalid_argument("mlp: rows have " + std::to_string(x.cols()) +
                                    " features, expected " + std::to_string(Inputs()));
    }
    if (x.rows() == 0)
    {
        throw std::invalid_argument("mlp: empty batch");
    }
    if (!labels)
    {
        return;
    }
    if (labels->size() != static_cast<std::size_t>(x.rows()))
    {
        throw std::invalid_argument("mlp: " + std::to_string(labels->size()) + " labels for " +
                                    std::to_string(x.rows()) + " rows");
    }
    for (int y : *labels)
    {
        if (y < 0 || static_cast<std::size_t>(y) >= Classes())
        {
            throw std::invalid_argument("mlp: label " + std::to_string(y) + " outside [0, " +
                                        std::to_string(Classes()) + ")");
        }
    }
}

void
Mlp::Forward(const Eigen::VectorXd& w, const Matrix& x, std::vector<Matrix>& z) const
{
    const std::size_t layers = m_layers.size() - 1;
    z.resize(layers);
    for (std::size_t l = 0; l < layers; ++l)
    {
        const auto in = static_cast<Eigen::Index>(m_layers[l]);
        const auto out = static_cast<Eigen::Index>(m_layers[l + 1]);
        Eigen::Map<const Matrix> weights(w.data() + m_offsets[l], in, out);
        Eigen::Map<const Eigen::VectorXd> bias(w.data() + m_offsets[l] + in * out, out);
        if (l == 0)
        {
            z[l].noalias() = x * weights;
        }
        else
        {
            z[l].noalias() = z[l - 1].cwiseMax(0.0) * weights;
        }
        z[l].rowwise() += bias.transpose();
    }
}

Mlp::Matrix
Mlp::Logits(const Eigen::VectorXd& w, const Matrix& x) const
{
    Check(w, x, nullptr);
    std::vector<Matrix> z;
    Forward(w, x, z);
    return z.back();
}

double
Mlp::Loss(const Eigen::VectorXd& w, const Matrix& x, const std::vector<int>& labels,
          Eigen::VectorXd* grad) const
{
    Check(w, x, &labels);
    std::vector<Matrix> z;
    Forward(w, x, z);
    const Eigen::Index rows = x.rows();
    Matrix& logits = z.back();
    // Row-wise softmax, stabilised by the row maximum; the loss from the log-sum-exp.
    Eigen::VectorXd rowMax = logits.rowwise().maxCoeff();
    Matrix p = (logits.colwise() - rowMax).array().exp().matrix();
    Eigen::VectorXd rowSum = p.rowwise().sum();
    double loss = 0;
    for (Eigen::Index r = 0; r < rows; ++r)
    {
        loss += rowMax[r] + std::log(rowSum[r]) - logits(r, labels[r]);
    }
    loss /= static_cast<double>(rows);
    if (!grad)
    {
        return loss;
    }
    grad->resize(static_cast<Eigen::Index>(m_parameters));
    // dZ of the output layer: (softmax - onehot) / B.
    Matrix dz = (p.array().colwise() / rowSum.array()).matrix();
    for (Eigen::Index r = 0; r < rows; ++r)
    {
        dz(r, labels[r]) -= 1;
    }
    dz /= static_cast<double>(rows);
    for (std::size_t l = m_layers.size() - 1; l-- > 0;)
    {
        const auto in = static_cast<Eigen::Index>(m_layers[l]);
        const auto out = static_cast<Eigen::Index>(m_layers[l + 1]);
        Eigen::Map<Matrix> dWeights(grad->data() + m_offsets[l], in, out);
        Eigen::Map<Eigen::VectorXd> dBias(grad->data() + m_offsets[l] + in * out, out);
        if (l == 0)
        {
            dWeights.noalias() = x.transpose() * dz;
        }
        else
        {
            dWeights.noalias() = z[l - 1].cwiseMax(0.0).transpose() * dz;
        }
        dBias = dz.colwise().sum().transpose();
        if (l > 0)
        {
            Eigen::Map<const Matrix> weights(w.data() + m_offsets[l], in, out);
            Matrix da = dz * weights.transpose();
            dz = (z[l - 1].array() > 0).select(da.array(), 0.0).matrix();
        }
    }
    return loss;
}

Evaluation
Mlp::Evaluate(const Eigen::VectorXd& w, const Matrix& x, const std::vector<int>& labels) const
{
    Check(w, x, &labels);
    std::vector<Matrix> z;
    Forward(w, x, z);
    const Matrix& logits = z.back();
    Evaluation e;
    std::size_t correct = 0;
    for (Eigen::Index r = 0; r < logits.rows(); ++r)
    {
        Eigen::Index best = 0;
        double top = logits.row(r).maxCoeff(&best);
        double sum = (logits.row(r).array() - top).exp().sum();
        e.loss += top + std::log(sum) - logits(r, labels[r]);
        correct += best == labels[r] ? 1 : 0;
    }
    e.loss /= static_cast<double>(logits.rows());
    e.accuracy = static_cast<double>(correct) / static_cast<double>(logits.rows());
    return e;
}

} // namespace ns3
