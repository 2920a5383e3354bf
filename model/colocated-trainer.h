/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_COLOCATED_TRAINER_H
#define INTELLIGENT_NETWORK_COLOCATED_TRAINER_H

#include "batch-sampler.h"
#include "local-optimizer.h"
#include "proxy-task.h"
#include "training-metrics.h"

#include <Eigen/Dense>

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief The gold standard: the same task trained colocated, with the same compute and a free
 * network. Pure C++.
 *
 * Same total compute: the N islands' accelerators sit in one place as N data-parallel workers.
 * Worker i holds island i's shard and draws its minibatches exactly as island i's ProxyLearner
 * does (BatchSampler seeded DeriveSeed(seed, i), same batch size). One colocated step: every
 * worker computes its minibatch gradient g_i at the shared x; the gradients are all-reduced at
 * zero network cost, g = (1/N) sum_i g_i; one inner-optimiser step (the same LocalOptimizerConfig)
 * with g. A step takes computeTimeS of simulated time, like one local step of an island, and
 * costs the same N x batch sample-gradients as one local step on every island. So after k
 * steps the colocated model has used the compute of k local steps on all N islands, at time
 * k x computeTimeS (islands also spend time communicating).
 *
 * Consequences (the tests check them): with plain SGD (any weight decay), islands that all
 * start from the same x, run ONE local step per round and then average exactly over all
 * islands equal this trainer after each round, step for step, for any data: the average of
 * x - lr (g_i + wd x) is x - lr (mean g_i + wd x). With identical data on every island and
 * full-batch steps (batchSize 0), every island follows this trainer for any number of local
 * steps per round and any inner optimiser (SGD or AdamW), so a full-average round again gives
 * the colocated vector. Otherwise (several minibatch steps, or non-iid data) local steps drift
 * apart and averaging differs from colocated training: that is the gap being measured.
 */
class ColocatedTrainer
{
  public:
    /// Throws std::invalid_argument on a null task, a bad config or computeTimeS < 0.
    ColocatedTrainer(std::shared_ptr<const ProxyTask> task, const LocalOptimizerConfig& config,
                     double computeTimeS, uint64_t seed = 1);

    /// One synchronous step (see the class description).
    void Step();
    /// \p steps steps.
    void Steps(uint64_t steps);

    /**
     * Run \p steps more steps, recording the held-out loss and accuracy at the current time first,
     * then after every \p evalEvery steps and after the last one. Throws std::invalid_argument if
     * \p evalEvery is zero.
     */
    LossCurve Run(uint64_t steps, uint64_t evalEvery);
    /// Run() for as many whole steps as fit until simulated time \p horizonS (none when
    /// computeTimeS is 0).
    LossCurve RunUntil(double horizonS, uint64_t evalEvery);

    const Eigen::VectorXd& Vector() const;
    uint64_t StepsDone() const;
    /// Simulated time: StepsDone() x computeTimeS.
    double TimeS() const;
    /// Held-out loss of the current vector.
    double HeldOutLoss() const;
    /// Held-out loss and accuracy of the current vector.
    Evaluation HeldOut() const;
    /// (TimeS(), HeldOut()).
    LossPoint Point() const;

  private:
    std::shared_ptr<const ProxyTask> m_task;
    LocalOptimizer m_optimizer;
    double m_computeTimeS;
    std::vector<BatchSampler> m_samplers;
    Eigen::VectorXd m_x;
    Eigen::VectorXd m_grad;
    Eigen::VectorXd m_workerGrad;
};

} // namespace ns3

#endif
