/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TRAINING_METRICS_H
#define INTELLIGENT_NETWORK_TRAINING_METRICS_H

#include "proxy-learner.h"
#include "proxy-task.h"

#include <Eigen/Dense>

#include <memory>
#include <vector>

namespace ns3
{

/// One point of a loss-versus-simulated-time series.
struct LossPoint
{
    double timeS; ///< Simulated wall-clock time, seconds.
    double loss;  ///< Loss at that time.
};

/// A loss-versus-time series, in non-decreasing time order.
using LossCurve = std::vector<LossPoint>;

/**
 * \ingroup intelligent-network
 * \brief How far training has got, and how fast, across islands. Pure C++.
 *
 * Definitions (x_1 .. x_N the islands' parameter vectors, xbar their mean):
 * - Mean: xbar = (1/N) sum_i x_i.
 * - ConsensusDistance: (1/N) sum_i ||x_i - xbar||_2 (0 when all islands agree).
 * - GlobalLoss: held-out loss of xbar (ProxyTask::HeldOutLoss), the model one would deploy.
 * - IslandGlobalLosses: held-out loss of every x_i.
 * - TimeToTarget(curve, target): the first time the curve reaches loss <= target, linearly
 *   interpolated between the last point above the target and the first at or below it; the
 *   first point's time if it is already at or below; +infinity if never reached (a NaN loss
 *   counts as above the target). Times must be finite and non-decreasing.
 * - GapRatio(mode, colocated, target): TimeToTarget(mode) / TimeToTarget(colocated); 1 means
 *   no gap to colocated training; +infinity if the mode never reaches the target; NaN (no
 *   meaningful ratio) if the colocated curve never reaches it or reaches it at time <= 0.
 * - TargetLoss(reference, fraction): a target for TimeToTarget taken from a reference curve
 *   (normally the colocated one): last + fraction x (first - last) of its losses, i.e. the loss
 *   at which the reference has closed 1 - fraction of its own progress (fraction in [0, 1];
 *   0 = the reference's final loss, which the reference reaches exactly at its end).
 * Empty input (no vectors) throws std::invalid_argument, as do vectors of unequal sizes.
 */
class TrainingMetrics
{
  public:
    static Eigen::VectorXd Mean(const std::vector<Eigen::VectorXd>& vectors);
    static double ConsensusDistance(const std::vector<Eigen::VectorXd>& vectors);
    static double GlobalLoss(const ProxyTask& task, const std::vector<Eigen::VectorXd>& vectors);
    static std::vector<double> IslandGlobalLosses(const ProxyTask& task,
                                                  const std::vector<Eigen::VectorXd>& vectors);
    /// The learners' vectors, in order.
    static std::vector<Eigen::VectorXd> Vectors(
        const std::vector<std::shared_ptr<ProxyLearner>>& learners);

    static double TimeToTarget(const LossCurve& curve, double target);
    static double GapRatio(const LossCurve& mode, const LossCurve& colocated, double target);
    /// Throws std::invalid_argument on an empty curve or a fraction outside [0, 1].
    static double TargetLoss(const LossCurve& reference, double fraction);
};

} // namespace ns3

#endif
