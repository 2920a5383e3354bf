/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_MLP_H
#define INTELLIGENT_NETWORK_MLP_H

#include <Eigen/Dense>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/// Held-out (or any set's) quality of a parameter vector.
struct Evaluation
{
    double loss = 0;     ///< Mean loss over the rows.
    double accuracy = 0; ///< Fraction of rows classified correctly (NaN where not defined).
};

/**
 * \ingroup intelligent-network
 * \brief A multilayer perceptron classifier on one flat parameter vector: ReLU hidden layers,
 * a linear output layer and the softmax cross-entropy loss, with forward and backward passes
 * written out with Eigen. Pure C++, stateless (the parameters are passed in).
 *
 * Layers n_0 (inputs), n_1 .. n_{L-1} (hidden), n_L (classes). For a batch X (B x n_0):
 *   A_0 = X;  Z_l = A_l W_l + 1 b_l^T (W_l: n_l x n_{l+1});  A_{l+1} = max(Z_l, 0) (l < L-1);
 *   logits = Z_{L-1};  loss = (1/B) sum_r [ logsumexp(logits_r) - logits_{r, y_r} ].
 * Backward: dZ_{L-1} = (softmax(logits) - onehot(y)) / B; dW_l = A_l^T dZ_l; db_l = column
 * sums of dZ_l; dZ_{l-1} = (dZ_l W_l^T) .* [Z_{l-1} > 0] (the ReLU derivative at 0 is 0).
 *
 * Parameter layout: layer by layer, W_l (column-major, n_l x n_{l+1}) then b_l; so
 * Parameters() = sum_l (n_l + 1) n_{l+1}. Initialize(): W_l entries N(0, 2 / n_l) (He), b_l = 0.
 * Accuracy counts a row as correct when its label has the largest logit (ties: the lowest
 * class index wins, as Eigen's maxCoeff).
 */
class Mlp
{
  public:
    using Matrix = Eigen::MatrixXd;

    /// \p layers: {inputs, hidden..., classes}; at least two entries, each positive, classes
    /// >= 2 (std::invalid_argument otherwise).
    explicit Mlp(std::vector<std::size_t> layers);

    const std::vector<std::size_t>& Layers() const;
    std::size_t Inputs() const;
    std::size_t Classes() const;
    /// Number of parameters (weights and biases).
    std::size_t Parameters() const;

    /// Initial parameters drawn from \p seed (see the class description).
    Eigen::VectorXd Initialize(uint64_t seed) const;

    /// Mean cross-entropy of \p w on rows \p x with labels \p labels; its gradient into
    /// \p grad when non-null. Throws std::invalid_argument on size mismatches, an empty batch or
    /// a label outside [0, classes).
    double Loss(const Eigen::VectorXd& w, const Matrix& x, const std::vector<int>& labels,
                Eigen::VectorXd* grad) const;
    /// Loss and accuracy of \p w on rows \p x with labels \p labels.
    Evaluation Evaluate(const Eigen::VectorXd& w, const Matrix& x,
                        const std::vector<int>& labels) const;
    /// The logits (B x classes).
    Matrix Logits(const Eigen::VectorXd& w, const Matrix& x) const;

  private:
    /// Forward pass; keeps the pre-activations Z_l in \p z (one per layer).
    void Forward(const Eigen::VectorXd& w, const Matrix& x, std::vector<Matrix>& z) const;
    void Check(const Eigen::VectorXd& w, const Matrix& x, const std::vector<int>* labels) const;

    std::vector<std::size_t> m_layers;
    std::vector<std::size_t> m_offsets; ///< Start of W_l in the flat vector (b_l follows it).
    std::size_t m_parameters;
};

} // namespace ns3

#endif
