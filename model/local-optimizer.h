/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_LOCAL_OPTIMIZER_H
#define INTELLIGENT_NETWORK_LOCAL_OPTIMIZER_H

#include <Eigen/Dense>

#include <cstdint>
#include <string>

namespace ns3
{

/// The inner (local) optimisation rule.
enum class LocalOptimizerKind
{
    SGD,  ///< Minibatch SGD, optionally with (Nesterov) momentum.
    ADAMW ///< Adam with decoupled weight decay.
};

/// Settings of the inner optimiser, shared by the islands' learners and the colocated trainer.
struct LocalOptimizerConfig
{
    LocalOptimizerKind kind = LocalOptimizerKind::SGD;
    double learningRate = 0.01; ///< lr > 0.
    /// Rows per minibatch, per island (per worker when colocated); 0 = the full shard.
    uint32_t batchSize = 32;
    double weightDecay = 0; ///< Decoupled weight decay wd >= 0 (both kinds).
    double momentum = 0;    ///< SGD momentum mu in [0, 1) (0 = plain SGD).
    bool nesterov = false;  ///< SGD: Nesterov momentum (with momentum > 0).
    double beta1 = 0.9;     ///< AdamW first-moment decay, in [0, 1).
    double beta2 = 0.999;   ///< AdamW second-moment decay, in [0, 1).
    double epsilon = 1e-8;  ///< AdamW denominator guard, > 0.

    /// Throws std::invalid_argument naming the bad field.
    void Validate() const;
    /// "sgd" | "adamw"; throws std::invalid_argument otherwise.
    static LocalOptimizerKind ParseKind(const std::string& name);
    static std::string KindName(LocalOptimizerKind kind);
};

/**
 * \ingroup intelligent-network
 * \brief One optimiser instance (its state) applying steps to a parameter vector. Pure C++.
 *
 * With gradient g of step t = 1, 2, ... (lr, wd, b1, b2, eps from LocalOptimizerConfig):
 * - SGD:   x <- x - lr * wd * x; then with momentum mu = 0: x <- x - lr * g; with mu > 0
 *          (PyTorch's SGD): b <- mu b + g (b starts at zero), x <- x - lr * b, or with Nesterov
 *          x <- x - lr * (g + mu b).
 * - AdamW: x <- x - lr * wd * x; m <- b1 m + (1 - b1) g; v <- b2 v + (1 - b2) g^2;
 *          x <- x - lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)   (element-wise;
 *          Loshchilov & Hutter, as PyTorch's AdamW). m and v start at zero.
 * The state (b, m, v, t) belongs to the island: synchronisation does not touch it.
 */
class LocalOptimizer
{
  public:
    /// Validates \p config; \p dimension > 0 (std::invalid_argument otherwise).
    LocalOptimizer(const LocalOptimizerConfig& config, std::size_t dimension);

    /// Apply one step with gradient \p grad to \p x.
    void Step(Eigen::VectorXd& x, const Eigen::VectorXd& grad);
    /// Steps applied so far.
    uint64_t Steps() const;
    const LocalOptimizerConfig& Config() const;

  private:
    LocalOptimizerConfig m_config;
    Eigen::VectorXd m_m; ///< AdamW first moment, or the SGD momentum buffer b.
    Eigen::VectorXd m_v;
    uint64_t m_steps;
};

} // namespace ns3

#endif
