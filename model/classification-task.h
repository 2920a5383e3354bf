/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_CLASSIFICATION_TASK_H
#define INTELLIGENT_NETWORK_CLASSIFICATION_TASK_H

#include "mlp.h"
#include "proxy-task.h"

#include <Eigen/Dense>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief The default proxy task: a multilayer perceptron classifying a Gaussian mixture, with
 * label-skewed (Dirichlet) shards, so that an island's own data does not generalise and the
 * islands must communicate. Pure C++.
 *
 * Data (everything from mt19937_64 streams derived from the seed; same config, same task on
 * the same standard library):
 * - an embedding E (D x L, orthonormal columns: the Q of a Gaussian matrix) of an L-dimensional
 *   plane into the D-dimensional input space;
 * - C classes of M modes each; the centre of mode m of class c is mu_cm ~ N(0, I_L) in the
 *   plane; a row of class c is x = E mu_cm + sigma z, with m uniform in [0, M) and z ~ N(0, I_D)
 *   (sigma = modeNoise). C M centres in a low-dimensional plane make the classes multi-modal and
 *   interleaved: no linear classifier separates them, an MLP largely does, and sigma sets how
 *   much the modes overlap (the Bayes accuracy is below 1);
 * - label skew: island k's class shares p_k = row k of LabelSkew::Shares(N, C, alpha,
 *   placement); its shard has exactly LabelSkew::Counts(p_k, samplesPerIsland) rows of every
 *   class (in class order; minibatches are shuffled by BatchSampler). An island that sees a few
 *   classes cannot classify the others: its own model does not generalise;
 * - the held-out set: heldOutSamples rows iid over all classes (class uniform, then mode and
 *   noise as above), whatever the shards' skew;
 * - identicalData: one shard drawn like the held-out set, used by every island.
 * With dataset = "fashion-mnist" the rows are real images instead (Fashion-MNIST, as Debian's
 * dataset-fashion-mnist ships it under datasetDir; D = 784 pixels scaled to [0, 1], C = 10):
 * island k's shard takes LabelSkew::Counts(p_k, samplesPerIsland) images of every class from
 * the 60,000 training images, each class's images in a seeded random order and shared out
 * without replacement across the islands until a class's 6,000 run out (then its order starts
 * again: only then do two shards share an image); the held-out set is the first
 * heldOutSamples images of a seeded permutation of the 10,000 test images (iid, balanced);
 * identicalData: samplesPerIsland training images drawn without replacement. Storage:
 * 8 x 784 bytes per row (231 MB for nine shards of 4096 rows: the programs default to 1024
 * rows there, 58 MB). Missing or malformed files throw InputError naming the file (IdxFile).
 * Model: Mlp with layers {D, hidden..., C}; initial parameters Mlp::Initialize (one draw from
 * the seed, the same for every island and the colocated trainer). Loss: softmax
 * cross-entropy; accuracy: argmax. Storage: 8 D (N samplesPerIsland + heldOutSamples) bytes
 * of features (~3 MB for the defaults).
 */
class ClassificationTask : public ProxyTask
{
  public:
    using Matrix = Mlp::Matrix;

    /// Validates \p config (its kind must be CLASSIFICATION) and generates the data.
    explicit ClassificationTask(const ProxyTaskConfig& config);

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

    const Mlp& Network() const;
    /// Island \p island's shard (std::out_of_range if there is no such island).
    const Matrix& Features(std::size_t island) const;
    const std::vector<int>& Labels(std::size_t island) const;
    /// Rows of every class in island \p island's shard.
    std::vector<std::size_t> ClassCounts(std::size_t island) const;
    /// Loss and accuracy of \p w on island \p island's full shard.
    Evaluation ShardEvaluation(std::size_t island, const Eigen::VectorXd& w) const;
    const Matrix& HeldOutFeatures() const;
    const std::vector<int>& HeldOutLabels() const;
    /// The islands' Dirichlet class shares (N x C; all 1/C rows with identicalData).
    const Eigen::MatrixXd& ClassShares() const;
    /// Mode centres in the input space (row c M + m: E mu_cm).
    const Matrix& Centres() const;

  private:
    /// The Gaussian mixture (dataset "synthetic").
    void BuildSynthetic();
    /// Shards and held-out set from the Fashion-MNIST files.
    void BuildFashionMnist();
    /// One row of class \p label into row \p r of \p x.
    void DrawRow(int label, std::mt19937_64& rng, Matrix& x, Eigen::Index r) const;
    /// \p rows rows iid over all classes.
    void DrawIid(std::size_t rows, uint64_t stream, Matrix& x, std::vector<int>& y) const;

    ProxyTaskConfig m_config;
    Mlp m_network;
    Matrix m_centres;
    Eigen::MatrixXd m_shares;
    std::vector<Matrix> m_features;
    std::vector<std::vector<int>> m_labels;
    Matrix m_heldOutFeatures;
    std::vector<int> m_heldOutLabels;
    Eigen::VectorXd m_initial;
};

} // namespace ns3

#endif
