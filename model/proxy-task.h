/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_PROXY_TASK_H
#define INTELLIGENT_NETWORK_PROXY_TASK_H

#include <Eigen/Dense>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// The loss of the proxy task.
enum class ProxyLoss
{
    LEAST_SQUARES, ///< l(w; x, y) = (w.x - y)^2 / 2.
    LOGISTIC       ///< l(w; x, y) = log(1 + exp(w.x)) - y w.x, y in {0, 1}.
};

/// Settings of a ProxyTask (d = dimension, N = islands, h = heterogeneity).
struct ProxyTaskConfig
{
    ProxyLoss loss = ProxyLoss::LEAST_SQUARES;
    std::size_t dimension = 2048;        ///< d: number of parameters, > 0.
    std::size_t islands = 9;             ///< N: number of shards, > 0.
    std::size_t samplesPerIsland = 1024; ///< Rows of every island's shard, > 0.
    std::size_t heldOutSamples = 2048;   ///< Rows of the held-out set, > 0.
    double heterogeneity = 0;            ///< h >= 0: 0 = iid shards (see ProxyTask).
    double noise = 0.1;                  ///< Least squares: target noise standard deviation.
    double signal = 1;                   ///< s > 0: scale of the true model (||w*|| ~ s).
    /// Every island gets the same shard (drawn from the mixture, like the held-out set).
    bool identicalData = false;
    uint64_t seed = 1; ///< Everything is generated from this seed.

    /// Throws std::invalid_argument naming the bad field.
    void Validate() const;
    /// "least-squares" | "logistic"; throws std::invalid_argument otherwise.
    static ProxyLoss ParseLoss(const std::string& name);
    static std::string LossName(ProxyLoss loss);
};

/**
 * \ingroup intelligent-network
 * \brief A synthetic learning task sharded across islands, generated from a seed. Pure C++.
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
 *   at random. The global loss is measured on it;
 * - identicalData: a single shard of samplesPerIsland mixture rows, used by every island.
 *
 * Loss on a set of rows: the mean of l over the rows (no regulariser; weight decay belongs to
 * the optimiser); gradients are the mean gradients. Storage is dense double, row-major:
 * 8 d (N samplesPerIsland + heldOutSamples) bytes, ~180 MB for the defaults with N = 9.
 */
class ProxyTask
{
  public:
    using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

    /// Validates \p config (std::invalid_argument) and generates the data.
    explicit ProxyTask(const ProxyTaskConfig& config);

    const ProxyTaskConfig& Config() const;
    std::size_t Dimension() const;
    std::size_t Islands() const;

    /// Shard of island \p island (std::out_of_range if there is no such island).
    const Matrix& Features(std::size_t island) const;
    const Eigen::VectorXd& Targets(std::size_t island) const;
    /// Rows of island \p island's shard.
    std::size_t ShardRows(std::size_t island) const;
    const Matrix& HeldOutFeatures() const;
    const Eigen::VectorXd& HeldOutTargets() const;

    /// w*.
    const Eigen::VectorXd& TrueModel() const;
    /// w_k = w* + h v_k (the model island k's data is generated from).
    Eigen::VectorXd IslandModel(std::size_t island) const;
    /// Where training starts: the zero vector.
    Eigen::VectorXd InitialParameters() const;

    /// Loss of \p w on island \p island's full shard.
    double ShardLoss(std::size_t island, const Eigen::VectorXd& w) const;
    /// Loss of \p w on island \p island's full shard; its gradient into \p grad.
    double ShardGradient(std::size_t island, const Eigen::VectorXd& w, Eigen::VectorXd& grad) const;
    /// Loss of \p w on rows \p rows of island \p island's shard; their mean gradient into
    /// \p grad (std::out_of_range for a row index beyond the shard).
    double BatchGradient(std::size_t island, const Eigen::VectorXd& w,
                         const std::vector<std::size_t>& rows, Eigen::VectorXd& grad) const;
    /// Global loss: loss of \p w on the held-out set.
    double HeldOutLoss(const Eigen::VectorXd& w) const;

  private:
    /// Mean loss of \p w on (\p x, \p y); the mean gradient into \p grad if non-null.
    double Evaluate(const Matrix& x, const Eigen::VectorXd& y, const Eigen::VectorXd& w,
                    Eigen::VectorXd* grad) const;
    void CheckIsland(std::size_t island) const;
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
