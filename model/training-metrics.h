/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TRAINING_METRICS_H
#define INTELLIGENT_NETWORK_TRAINING_METRICS_H

#include "proxy-learner.h"
#include "proxy-task.h"

#include <Eigen/Dense>

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/// One point of a loss- (and accuracy-) versus-simulated-time series.
struct LossPoint
{
    double timeS; ///< Simulated wall-clock time, seconds.
    double loss;  ///< Held-out loss at that time.
    /// Held-out accuracy at that time (NaN where the task has none).
    double accuracy = std::numeric_limits<double>::quiet_NaN();
};

/// A loss-versus-time series, in non-decreasing time order.
using LossCurve = std::vector<LossPoint>;

/// Which models a distributed run is scored on (the criterion of time to target).
enum class TargetMetric
{
    /// The mean over islands of the held-out accuracy (and loss) of each island's OWN model:
    /// an island that never learns the other islands' classes keeps this low. The default.
    ISLAND_MEAN,
    /// The worst island's own model: the lowest accuracy (highest loss).
    ISLAND_MIN,
    /// The model averaged over all islands (what exact all-reduce would deploy): islands that
    /// never communicate can score here by averaging models that never met.
    AVERAGE_MODEL
};

/**
 * \ingroup intelligent-network
 * \brief How far training has got, and how fast, across islands. Pure C++.
 *
 * Definitions (x_1 .. x_N the islands' parameter vectors, xbar their mean):
 * - Mean: xbar = (1/N) sum_i x_i.
 * - ConsensusDistance: (1/N) sum_i ||x_i - xbar||_2 (0 when all islands agree).
 * - GlobalLoss: held-out loss of xbar (ProxyTask::HeldOutLoss); AverageModel: its loss and
 *   accuracy.
 * - IslandGlobalLosses: held-out loss of every x_i; IslandEvaluations: loss and accuracy.
 * - Score(islands, average, metric): the point a distributed run is judged by (TargetMetric):
 *   ISLAND_MEAN = mean loss and mean accuracy of the islands' own models, ISLAND_MIN = their
 *   highest loss and lowest accuracy, AVERAGE_MODEL = \p average.
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
 *   0 = the reference's final loss, which the reference reaches exactly at its end). It
 *   depends on where the reference ends: on a curve that overfits (its loss climbs again) the
 *   target moves up with the horizon. The programs use TargetAccuracy (the held-out best).
 * - TimeToAccuracy(curve, target): the same for accuracy: the first time accuracy >= target,
 *   interpolated linearly; +infinity if never (NaN accuracy never counts).
 * - BestAccuracy(curve): the highest accuracy on the curve (the "held-out best": later
 *   overfitting does not lower it). TargetAccuracy(reference, fraction) = fraction x
 *   BestAccuracy(reference), fraction in (0, 1]: the target of time to target.
 * - GapRatio(mode, colocated, target) and AccuracyGapRatio: time to target over colocated time
 *   to target, as above.
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
    static Evaluation AverageModel(const ProxyTask& task,
                                   const std::vector<Eigen::VectorXd>& vectors);
    static std::vector<Evaluation> IslandEvaluations(const ProxyTask& task,
                                                     const std::vector<Eigen::VectorXd>& vectors);
    /// Throws std::invalid_argument if \p islands is empty.
    static Evaluation Score(const std::vector<Evaluation>& islands, const Evaluation& average,
                            TargetMetric metric);
    /// "islands-mean" | "islands-min" | "average-model"; throws std::invalid_argument otherwise.
    static TargetMetric ParseMetric(const std::string& name);
    static std::string MetricName(TargetMetric metric);
    /// The learners' vectors, in order.
    static std::vector<Eigen::VectorXd> Vectors(
        const std::vector<std::shared_ptr<ProxyLearner>>& learners);

    static double TimeToTarget(const LossCurve& curve, double target);
    static double GapRatio(const LossCurve& mode, const LossCurve& colocated, double target);
    /// Throws std::invalid_argument on an empty curve or a fraction outside [0, 1].
    static double TargetLoss(const LossCurve& reference, double fraction);

    static double TimeToAccuracy(const LossCurve& curve, double target);
    static double AccuracyGapRatio(const LossCurve& mode, const LossCurve& colocated,
                                   double target);
    /// Highest accuracy of \p curve; throws std::invalid_argument if it has no finite one.
    static double BestAccuracy(const LossCurve& curve);
    /// fraction x BestAccuracy(reference); throws std::invalid_argument on a fraction outside
    /// (0, 1].
    static double TargetAccuracy(const LossCurve& reference, double fraction);
};

} // namespace ns3

#endif
