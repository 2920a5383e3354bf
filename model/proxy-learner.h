/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_PROXY_LEARNER_H
#define INTELLIGENT_NETWORK_PROXY_LEARNER_H

#include "batch-sampler.h"
#include "island-learner.h"
#include "local-optimizer.h"
#include "proxy-task.h"

#include <Eigen/Dense>

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/// DiLoCo-style outer optimiser applied at every synchronisation (see ProxyLearner).
struct OuterOptimizerConfig
{
    double learningRate = 1; ///< Outer learning rate eta > 0.
    double momentum = 0;     ///< Outer momentum mu in [0, 1).
    bool nesterov = true;    ///< Nesterov momentum (DiLoCo) or heavy-ball.

    /// Throws std::invalid_argument naming the bad field.
    void Validate() const;
};

/// What one island did in one LocalSteps call.
struct LocalRoundRecord
{
    uint32_t round = 0;       ///< Round passed to LocalSteps.
    uint32_t steps = 0;       ///< Local steps run.
    double loss = 0;          ///< Loss on the island's full shard after the steps (NaN if not
                              ///< tracked: ProxyLearner::SetShardLossTracking).
    double meanBatchLoss = 0; ///< Mean minibatch loss seen by the steps (NaN if none).
};

/**
 * \ingroup intelligent-network
 * \brief One island's real parameter vector of a ProxyTask: the IslandLearner that a
 * TrainingIsland (or TrainingRun) drives. Pure C++.
 *
 * State: the vector x (starts at ProxyTask::InitialParameters), the anchor a (x at the last
 * synchronisation; starts equal to x), the outer momentum buffer m (starts at zero) and the
 * inner LocalOptimizer.
 *
 * LocalSteps(round, k): k steps of the inner optimiser on the island's shard; each step takes
 * the minibatch gradient at x of the next BatchSampler batch (seed DeriveSeed(seed, island)).
 *
 * Synchronisation of a clique of n >= 2 members: the average y of the members' vectors (this
 * island's own x included) -- Synchronize computes y = (x + sum of peers) / n, SynchronizeSum
 * y = sum / n with the sum as it arrives (decoded from fixed point, so quantisation shows) --
 * then the outer step on the pseudo-gradient D = a - y:
 *   m <- mu m + D;   x <- a - eta (D + mu m) (Nesterov) or x <- a - eta m (heavy-ball);
 *   a <- x.
 * With eta = 1 and mu = 0 this is x <- a - (a - y) = y: plain averaging (up to rounding; the
 * default). A clique of one (no peers, or members = 1) is no synchronisation: nothing changes,
 * so local progress keeps accumulating in the pseudo-gradient until the next real one (this is
 * DiLoCo(h) with BaselineSchedules::DiLoCo). The anchor and momentum are the island's own: in a
 * rotating-clique schedule every island applies its outer step to its own anchor. The inner
 * optimiser state (AdamW moments) stays local and is never averaged.
 *
 * Order of calls: LocalSteps(r), Parameters() (what is sent), then Synchronize(r) or
 * SynchronizeSum(r). Synchronize uses the island's current x as its own contribution, and a
 * sum replaces it, so local steps run between the send and the synchronisation (overlapped,
 * streaming rounds) are respectively mixed into the average or lost: this learner does not
 * implement a delayed merge. The \p round arguments are recorded only (LocalHistory,
 * LastSyncRound).
 */
class ProxyLearner : public IslandLearner
{
  public:
    /// Island \p island of \p task; throws std::invalid_argument on a null task, an island out
    /// of range or a bad configuration.
    ProxyLearner(std::shared_ptr<const ProxyTask> task, std::size_t island,
                 const LocalOptimizerConfig& inner,
                 const OuterOptimizerConfig& outer = OuterOptimizerConfig(), uint64_t seed = 1);

    /// One learner per island of \p task (island i at index i), all with the same settings.
    static std::vector<std::shared_ptr<ProxyLearner>> ForAllIslands(
        const std::shared_ptr<const ProxyTask>& task, const LocalOptimizerConfig& inner,
        const OuterOptimizerConfig& outer = OuterOptimizerConfig(), uint64_t seed = 1);

    // IslandLearner
    std::size_t Dimension() const override;
    void LocalSteps(uint32_t round, uint32_t steps) override;
    /// x as doubles (what is sent).
    std::vector<double> Parameters() const override;
    /// Throws std::invalid_argument if a peer vector has the wrong size.
    void Synchronize(uint32_t round, const std::vector<std::vector<double>>& peers) override;
    /// Throws std::invalid_argument if \p sum has the wrong size or \p members is zero.
    void SynchronizeSum(uint32_t round, const std::vector<double>& sum, uint32_t members) override;

    std::size_t Island() const;
    const ProxyTask& Task() const;
    /// x.
    const Eigen::VectorXd& Vector() const;
    /// Set x (and the anchor) to \p x; the outer momentum is reset to zero.
    void SetVector(const Eigen::VectorXd& x);
    /// a: x at the last synchronisation.
    const Eigen::VectorXd& Anchor() const;
    /// Loss of x on the island's full shard.
    double LocalLoss() const;
    /// Loss of x on the held-out set.
    double GlobalLoss() const;
    /// Loss and accuracy of x on the held-out set.
    Evaluation HeldOut() const;
    /// Inner steps run so far.
    uint64_t StepsDone() const;
    /// Synchronisations with at least one peer so far.
    uint32_t Synchronizations() const;
    /// Round of the last synchronisation with a peer (0 if none).
    uint32_t LastSyncRound() const;
    /// One record per LocalSteps call.
    const std::vector<LocalRoundRecord>& LocalHistory() const;
    /// Shard loss after the last LocalSteps call (NaN before the first, or when shard-loss
    /// tracking is off).
    double LastLocalLoss() const;
    /// Whether LocalSteps evaluates the loss on the full shard afterwards (on by default; a
    /// full pass over the shard per call, which the fast path turns off).
    void SetShardLossTracking(bool on);

  private:
    /// Outer step towards the clique average \p average (see the class description).
    void Merge(uint32_t round, const Eigen::VectorXd& average);

    std::shared_ptr<const ProxyTask> m_task;
    std::size_t m_island;
    OuterOptimizerConfig m_outer;
    LocalOptimizer m_optimizer;
    BatchSampler m_sampler;
    Eigen::VectorXd m_x;
    Eigen::VectorXd m_anchor;
    Eigen::VectorXd m_momentum;
    Eigen::VectorXd m_grad;
    uint32_t m_syncs;
    uint32_t m_lastSyncRound;
    bool m_trackShardLoss;
    std::vector<LocalRoundRecord> m_history;
};

} // namespace ns3

#endif
