/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-metrics.h"

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
        if (!(curve[i].loss <= target))
        {
            continue;
        }
        if (i == 0 || !std::isfinite(curve[i - 1].loss))
        {
            return curve[i].timeS;
        }
        const LossPoint& a = curve[i - 1];
        const LossPoint& b = curve[i];
        double fraction = (a.loss - target) / (a.loss - b.loss); // a.loss > target >= b.loss
        return a.timeS + fraction * (b.timeS - a.timeS);
    }
    return std::numeric_limits<double>::infinity();
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

} // namespace ns3
