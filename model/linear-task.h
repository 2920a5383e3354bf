/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_LINEAR_TASK_H
#define INTELLIGENT_NETWORK_LINEAR_TASK_H

#include "proxy-task.h"

#include <Eigen/Dense>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Least squares or logistic regression on synthetic, optionally non-iid shards: the
 * earlier proxy task (kinds LEAST_SQUARES and LOGISTIC). Pure C++.
 *
 * A convex task whose islands, trained alone, each approach a model close to the global one:
 * it cannot show that communication is necessary (islands that never communicate reach a
 * target on the average of their vectors first). Kept for its analytic checks and as the
 * counterpart of ClassificationTask.
 *
 * Generation (all Gaussians from mt19937_64 streams derived from the seed, so a task is the
 * same for the same config on the same standard library):
 * - true model w* with entries N(0, s^2/d), so ||w*|| ~ s;
 * - per island k: a feature shift u_k with entries N(0, 1/d) (||u_k|| ~ 1) and a concept shift
 *   v_k with entries N(0, s^2/d), centred over the islands (v_k minus the mean of all v_j, so
 *   the shifts cancel on average; v = 0 for a single island);
 * - island k's distribution: features x = z + h u_k with z ~ N(0, I_d); its model is
 *   w_k = w* + h v_k; least squares targets y = w_k.x + noise * N(0, 1), logistic labels
 *   y ~ Bernoulli(sigmoid(w_k.x)).
 * So the heterogeneity knob h moves every island's features by h u_k and its optimum by
 * h v_k (about h s away from w*, comparable to ||w*|| at h = 1); h = 0 gives iid shards.
 * - shard k: samplesPerIsland rows of island k's distribution;
 * - held-out set: heldOutSamples rows of the mixture: each row from island k chosen uniformly
 *   at random. The global loss is measured on it; the logistic accuracy counts w.x > 0 as
 *   label 1 (least squares has no accuracy: NaN);
 * - identicalData: a single shard of samplesPerIsland mixture rows, used by every island.
 * Training starts at the zero vector. Storage is dense double, row-major:
 * 8 d (N samplesPerIsland + heldOutSamples) bytes, ~180 MB for d = 2048, N = 9.
 */
class LinearTask : public ProxyTask
{
  public:
    using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

    /// Validates \p config (std::invalid_argument; its kind must be LEAST_SQUARES or
    /// LOGISTIC) and generates the data.
    explicit LinearTask(const ProxyTaskConfig& config);

    // ProxyTask
    const ProxyTaskConfig& Config() const override;
    std::size_t Dimension() const override;
    std::size_t ShardRows(std::size_t island) const override;
    Eigen::VectorXd InitialParameters() const override;
    bool HasAccuracy() const override;
    double BatchGradient(std::size_t island, const Eigen::VectorXd& w,
                         const std::vector<std::size_t>& rows,
                         Eigen::VectorXd& grad) const override;
    double ShardLoss(std::size_t island, const Eigen::VectorXd& w) const override;
    double ShardGradient(std::size_t island, const Eigen::VectorXd& w,
                         Eigen::VectorXd& grad) const override;
    Evaluation HeldOut(const Eigen::VectorXd& w) const override;

    /// Shard of island \p island (std::out_of_range if there is no such island).
    const Matrix& Features(std::size_t island) const;
    const Eigen::VectorXd& Targets(std::size_t island) const;
    const Matrix& HeldOutFeatures() const;
    const Eigen::VectorXd& HeldOutTargets() const;
    /// w*.
    const Eigen::VectorXd& TrueModel() const;
    /// w_k = w* + h v_k (the model island k's data is generated from).
    Eigen::VectorXd IslandModel(std::size_t island) const;

  private:
    /// Mean loss of \p w on (\p x, \p y); the mean gradient into \p grad if non-null.
    double Evaluate(const Matrix& x, const Eigen::VectorXd& y, const Eigen::VectorXd& w,
                    Eigen::VectorXd* grad) const;
    void CheckVector(const Eigen::VectorXd& w) const;
    /// \p rows rows of island \p island's distribution (island = N: the mixture).
    void Draw(std::size_t island, std::size_t rows, uint64_t stream, Matrix& x,
              Eigen::VectorXd& y) const;

    ProxyTaskConfig m_config;
    Eigen::VectorXd m_trueModel;
    Matrix m_featureShift; ///< Row k: u_k.
    Matrix m_conceptShift; ///< Row k: v_k (centred).
    std::vector<Matrix> m_features;
    std::vector<Eigen::VectorXd> m_targets;
    Matrix m_heldOutFeatures;
    Eigen::VectorXd m_heldOutTargets;
};

} // namespace ns3

#endif
