/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_PROXY_TASK_H
#define INTELLIGENT_NETWORK_PROXY_TASK_H

#include "label-skew.h"
#include "mlp.h"

#include <Eigen/Dense>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/// Which learning task the proxy trains.
enum class ProxyTaskKind
{
    CLASSIFICATION, ///< ClassificationTask: MLP on a Gaussian mixture, label-skewed shards.
    LEAST_SQUARES,  ///< LinearTask: l(w; x, y) = (w.x - y)^2 / 2 (blind to communication).
    LOGISTIC        ///< LinearTask: l(w; x, y) = log(1 + exp(w.x)) - y w.x, y in {0, 1}.
};

/**
 * Settings of a ProxyTask. Common fields first, then those of each kind (the other kind's
 * fields are ignored). Defaults: the classification task, nine islands.
 */
struct ProxyTaskConfig
{
    ProxyTaskKind kind = ProxyTaskKind::CLASSIFICATION;
    std::size_t islands = 9; ///< N: number of shards, > 0.
    /// Rows of every island's shard, > 0 (linear tasks store d values per row: lower it there).
    std::size_t samplesPerIsland = 4096;
    std::size_t heldOutSamples = 1000; ///< Rows of the held-out set, > 0.
    /// Every island gets the same shard, drawn like the held-out set (iid over everything).
    bool identicalData = false;
    uint64_t seed = 1; ///< Everything (data, initial parameters) is generated from this seed.

    // Classification (ClassificationTask).
    /// "synthetic" (the Gaussian mixture below) or "fashion-mnist" (Debian's
    /// dataset-fashion-mnist: 784 inputs, 10 classes; the mixture fields are then ignored).
    std::string dataset = "synthetic";
    /// Folder of the Fashion-MNIST IDX files (train-/t10k-images-idx3-ubyte.gz, -labels-idx1-).
    std::string datasetDir = "/usr/share/datasets/fashion-mnist";
    std::size_t inputs = 32;       ///< D: features per row, >= latent.
    std::size_t latent = 8;        ///< L: dimension of the plane holding the mode centres, > 0.
    std::size_t classes = 10;      ///< C >= 2.
    std::size_t modesPerClass = 4; ///< M > 0: Gaussian modes of every class.
    double modeNoise = 0.6;        ///< sigma > 0: standard deviation around a mode centre.
    std::vector<std::size_t> hidden = {128, 64}; ///< Hidden layer widths (may be empty).
    double alpha = 0.1; ///< Dirichlet concentration of the islands' class shares (inf = iid).
    ClassPlacement placement = ClassPlacement::ROTATED; ///< See LabelSkew.

    // Linear tasks (LinearTask).
    std::size_t dimension = 2048; ///< d: number of parameters, > 0.
    double heterogeneity = 0;     ///< h >= 0: 0 = iid shards (see LinearTask).
    double noise = 0.1;           ///< Least squares: target noise standard deviation.
    double signal = 1;            ///< s > 0: scale of the true model (||w*|| ~ s).

    /// Throws std::invalid_argument naming the bad field.
    void Validate() const;
    /// "classification" | "least-squares" | "logistic"; throws std::invalid_argument otherwise.
    static ProxyTaskKind ParseKind(const std::string& name);
    static std::string KindName(ProxyTaskKind kind);
    /// "128,64" -> {128, 64}; "" or "none" -> {} (no hidden layer); throws
    /// std::invalid_argument naming the bad entry.
    static std::vector<std::size_t> ParseHidden(const std::string& text);
    static std::string HiddenText(const std::vector<std::size_t>& hidden);
    /// Rows per shard the programs use when none is given: 4096 for the synthetic
    /// classification task, 1024 for Fashion-MNIST (784 values a row) and the linear tasks
    /// (dimension values a row).
    static std::size_t DefaultSamplesPerIsland(ProxyTaskKind kind, const std::string& dataset);
};

/**
 * \ingroup intelligent-network
 * \brief A learning task sharded across islands, generated from a seed: what every learner
 * (ProxyLearner), the colocated trainer and the metrics share. Pure C++ interface.
 *
 * A task has a flat real parameter vector of Dimension() entries (what islands exchange),
 * one data shard per island (rows 0 .. ShardRows(i) - 1), and a held-out set drawn iid from
 * the distribution of all islands together, on which the global loss and accuracy are
 * measured. Losses are means over rows; gradients are mean gradients (no regulariser: weight
 * decay belongs to the optimiser). Implementations: ClassificationTask (the default: an MLP on
 * label-skewed shards, where islands must communicate) and LinearTask (least squares /
 * logistic regression, the earlier proxy).
 */
class ProxyTask
{
  public:
    virtual ~ProxyTask() = default;

    /// Validates \p config (std::invalid_argument) and generates the task of its kind.
    static std::shared_ptr<const ProxyTask> Create(const ProxyTaskConfig& config);

    virtual const ProxyTaskConfig& Config() const = 0;
    /// Number of parameters.
    virtual std::size_t Dimension() const = 0;
    std::size_t Islands() const;
    /// Rows of island \p island's shard (std::out_of_range if there is no such island).
    virtual std::size_t ShardRows(std::size_t island) const = 0;
    /// Where training starts (the same for every island and the colocated trainer).
    virtual Eigen::VectorXd InitialParameters() const = 0;
    /// True if the task has an accuracy (classification, logistic).
    virtual bool HasAccuracy() const = 0;

    /// Loss of \p w on rows \p rows of island \p island's shard; their mean gradient into
    /// \p grad (std::out_of_range for a row beyond the shard, std::invalid_argument for an
    /// empty batch or a vector of the wrong size).
    virtual double BatchGradient(std::size_t island, const Eigen::VectorXd& w,
                                 const std::vector<std::size_t>& rows,
                                 Eigen::VectorXd& grad) const = 0;
    /// Loss of \p w on island \p island's full shard.
    virtual double ShardLoss(std::size_t island, const Eigen::VectorXd& w) const = 0;
    /// Loss of \p w on island \p island's full shard; its gradient into \p grad.
    virtual double ShardGradient(std::size_t island, const Eigen::VectorXd& w,
                                 Eigen::VectorXd& grad) const = 0;
    /// Loss and accuracy (NaN where HasAccuracy() is false) of \p w on the held-out set.
    virtual Evaluation HeldOut(const Eigen::VectorXd& w) const = 0;
    /// HeldOut(w).loss.
    double HeldOutLoss(const Eigen::VectorXd& w) const;

  protected:
    /// Throws std::out_of_range unless \p island < Islands().
    void CheckIsland(std::size_t island) const;
    /// Throws std::invalid_argument on an empty batch or a row index not below \p rows.
    static void CheckRows(const std::vector<std::size_t>& rows, std::size_t shardRows,
                          std::size_t island);
};

} // namespace ns3

#endif
