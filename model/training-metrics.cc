/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

void
CheckVectors(const std::vector<Eigen::VectorXd>& vectors)
{
    if (vectors.empty())
    {
        throw std::invalid_argument("training metrics: no parameter vectors");
    }
    for (const auto& v : vectors)
    {
        if (v.size() != vectors.front().size())
        {
            throw std::invalid_argument("training metrics: parameter vectors differ in size (" +
                                        std::to_string(v.size()) + " and " +
                                        std::to_string(vectors.front().size()) + ")");
        }
    }
}

/// The first time \p value(point) >= \p threshold on \p curve, interpolated linearly
/// between the last point below and the first at or above; the first point's time if it
/// already is; +infinity if never (NaN never counts). Checks the times.
template <typename Value>
double
FirstCrossing(const LossCurve& curve, Value value, double threshold)
{
    for (std::size_t i = 0; i < curve.size(); ++i)
    {
        if (!std::isfinite(curve[i].timeS) || (i > 0 && curve[i].timeS < curve[i - 1].timeS))
        {
            throw std::invalid_argument("training metrics: curve times must be finite and "
                                        "non-decreasing (point " +
                                        std::to_string(i) + ")");
        }
    }
    for (std::size_t i = 0; i < curve.size(); ++i)
    {
        double v = value(curve[i]);
        if (!(v >= threshold))
        {
            continue;
        }
        double before = i == 0 ? NAN : value(curve[i - 1]);
        if (i == 0 || !std::isfinite(before))
        {
            return curve[i].timeS;
        }
        double fraction = (threshold - before) / (v - before); // before < threshold <= v
        return curve[i - 1].timeS + fraction * (curve[i].timeS - curve[i - 1].timeS);
    }
    return std::numeric_limits<double>::infinity();
}

} // namespace

Eigen::VectorXd
TrainingMetrics::Mean(const std::vector<Eigen::VectorXd>& vectors)
{
    CheckVectors(vectors);
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(vectors.front().size());
    for (const auto& v : vectors)
    {
        sum += v;
    }
    return sum / static_cast<double>(vectors.size());
}

double
TrainingMetrics::ConsensusDistance(const std::vector<Eigen::VectorXd>& vectors)
{
    Eigen::VectorXd mean = Mean(vectors);
    double total = 0;
    for (const auto& v : vectors)
    {
        total += (v - mean).norm();
    }
    return total / static_cast<double>(vectors.size());
}

double
TrainingMetrics::GlobalLoss(const ProxyTask& task, const std::vector<Eigen::VectorXd>& vectors)
{
    return task.HeldOutLoss(Mean(vectors));
}

std::vector<double>
TrainingMetrics::IslandGlobalLosses(const ProxyTask& task,
                                    const std::vector<Eigen::VectorXd>& vectors)
{
    CheckVectors(vectors);
    std::vector<double> out;
    for (const auto& v : vectors)
    {
        out.push_back(task.HeldOutLoss(v));
    }
    return out;
}

std::vector<Eigen::VectorXd>
TrainingMetrics::Vectors(const std::vector<std::shared_ptr<ProxyLearner>>& learners)
{
    std::vector<Eigen::VectorXd> out;
    for (const auto& l : learners)
    {
        if (!l)
        {
            throw std::invalid_argument("training metrics: null learner");
        }
        out.push_back(l->Vector());
    }
    return out;
}

double
TrainingMetrics::TimeToTarget(const LossCurve& curve, double target)
{
    return FirstCrossing(
        curve, [](const LossPoint& p) { return -p.loss; }, -target);
}

double
TrainingMetrics::GapRatio(const LossCurve& mode, const LossCurve& colocated, double target)
{
    double reference = TimeToTarget(colocated, target);
    double t = TimeToTarget(mode, target);
    if (!std::isfinite(reference) || !(reference > 0))
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return t / reference;
}

double
TrainingMetrics::TargetLoss(const LossCurve& reference, double fraction)
{
    if (reference.empty())
    {
        throw std::invalid_argument("training metrics: no reference curve for the target");
    }
    if (!(fraction >= 0 && fraction <= 1))
    {
        throw std::invalid_argument("training metrics: target fraction must be in [0, 1] (got " +
                                    std::to_string(fraction) + ")");
    }
    return reference.back().loss + fraction * (reference.front().loss - reference.back().loss);
}

Evaluation
TrainingMetrics::AverageModel(const ProxyTask& task, const std::vector<Eigen::VectorXd>& vectors)
{
    return task.HeldOut(Mean(vectors));
}

std::vector<Evaluation>
TrainingMetrics::IslandEvaluations(const ProxyTask& task,
                                   const std::vector<Eigen::VectorXd>& vectors)
{
    CheckVectors(vectors);
    std::vector<Evaluation> out;
    for (const auto& v : vectors)
    {
        out.push_back(task.HeldOut(v));
    }
    return out;
}

Evaluation
TrainingMetrics::Score(const std::vector<Evaluation>& islands, const Evaluation& average,
                       TargetMetric metric)
{
    if (islands.empty())
    {
        throw std::invalid_argument("training metrics: no island evaluations to score");
    }
    if (metric == TargetMetric::AVERAGE_MODEL)
    {
        return average;
    }
    Evaluation out;
    if (metric == TargetMetric::ISLAND_MIN)
    {
        out = islands.front();
        for (const Evaluation& e : islands)
        {
            out.loss = std::max(out.loss, e.loss);
            out.accuracy = std::min(out.accuracy, e.accuracy);
        }
        return out;
    }
    for (const Evaluation& e : islands)
    {
        out.loss += e.loss / static_cast<double>(islands.size());
        out.accuracy += e.accuracy / static_cast<double>(islands.size());
    }
    return out;
}

TargetMetric
TrainingMetrics::ParseMetric(const std::string& name)
{
    if (name == "islands-mean")
    {
        return TargetMetric::ISLAND_MEAN;
    }
    if (name == "islands-min")
    {
        return TargetMetric::ISLAND_MIN;
    }
    if (name == "average-model")
    {
        return TargetMetric::AVERAGE_MODEL;
    }
    throw std::invalid_argument("training metrics: unknown target metric '" + name +
                                "' (islands-mean | islands-min | average-model)");
}

std::string
TrainingMetrics::MetricName(TargetMetric metric)
{
    switch (metric)
    {
    case TargetMetric::ISLAND_MEAN:
        return "islands-mean";
    case TargetMetric::ISLAND_MIN:
        return "islands-min";
    case TargetMetric::AVERAGE_MODEL:
        return "average-model";
    }
    return "?";
}

double
TrainingMetrics::TimeToAccuracy(const LossCurve& curve, double target)
{
    return FirstCrossing(
        curve, [](const LossPoint& p) { return p.accuracy; }, target);
}

double
TrainingMetrics::AccuracyGapRatio(const LossCurve& mode, const LossCurve& colocated, double target)
{
    double reference = TimeToAccuracy(colocated, target);
    double t = TimeToAccuracy(mode, target);
    if (!std::isfinite(reference) || !(reference > 0))
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return t / reference;
}

double
TrainingMetrics::BestAccuracy(const LossCurve& curve)
{
    double best = -std::numeric_limits<double>::infinity();
    for (const LossPoint& p : curve)
    {
        if (std::isfinite(p.accuracy))
        {
            best = std::max(best, p.accuracy);
        }
    }
    if (!std::isfinite(best))
    {
        throw std::invalid_argument("training metrics: the curve has no accuracy");
    }
    return best;
}

double
TrainingMetrics::TargetAccuracy(const LossCurve& reference, double fraction)
{
    if (!(fraction > 0 && fraction <= 1))
    {
        throw std::invalid_argument("training metrics: target fraction must be in (0, 1] (got " +
                                    std::to_string(fraction) + ")");
    }
    return fraction * BestAccuracy(reference);
}

} // namespace ns3
