/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-time-objective.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{
/// Doubling steps of the Lyapunov sum: A^(2^64) is zero for any contracting A in doubles.
constexpr int kMaxDoublings = 64;
} // namespace

TrainingTimeObjective::TrainingTimeObjective(std::size_t islands, double weight,
                                             double bestWeight)
    : m_metric(islands),
      m_weight(weight),
      m_bestWeight(bestWeight)
{
    if (!(weight >= 0) || !std::isfinite(weight) || !(bestWeight >= 0) ||
        !std::isfinite(bestWeight))
    {
        throw std::invalid_argument("TrainingTimeObjective: disagreement weights must be finite "
                                    "and >= 0");
    }
}

std::string
TrainingTimeObjective::Name() const
{
    return "predicted-training-time";
}

std::string
TrainingTimeObjective::Description() const
{
    std::ostringstream o;
    o << "mean round time x (1 + " << m_weight << " x D + " << m_bestWeight
      << " x D_best), D the steady-state disagreement with unit drift per round";
    return o.str();
}

double
TrainingTimeObjective::Weight() const
{
    return m_weight;
}

double
TrainingTimeObjective::BestWeight() const
{
    return m_bestWeight;
}

double
TrainingTimeObjective::Disagreement(const std::vector<IndexRound>& rounds) const
{
    return Steady(rounds).mean;
}

SteadyDisagreement
TrainingTimeObjective::Steady(const std::vector<IndexRound>& rounds) const
{
    if (rounds.empty())
    {
        throw std::invalid_argument("TrainingTimeObjective: empty period");
    }
    const std::size_t n = m_metric.Islands();
    const double inf = std::numeric_limits<double>::infinity();
    const SteadyDisagreement never{inf, inf};
    if (n == 1)
    {
        for (const IndexRound& r : rounds)
        {
            m_metric.MixingMatrix(r); // checks indices
        }
        return SteadyDisagreement{};
    }
    const Eigen::MatrixXd j = Eigen::MatrixXd::Constant(n, n, 1.0 / n);
    const Eigen::MatrixXd proj = Eigen::MatrixXd::Identity(n, n) - j; // injection, off 1
    std::vector<Eigen::MatrixXd> b;
    b.reserve(rounds.size());
    for (const IndexRound& r : rounds)
    {
        b.push_back(m_metric.MixingMatrix(r) - j);
    }
    // One period from S = 0: A = B_p .. B_1, Q = S after the period.
    Eigen::MatrixXd a = Eigen::MatrixXd::Identity(n, n);
    Eigen::MatrixXd q = Eigen::MatrixXd::Zero(n, n);
    for (const auto& br : b)
    {
        a = br * a;
        q = br * (q + proj) * br.transpose();
    }
    if (ConsensusMetric::TwoNorm(a) >= 1 - 1e-12)
    {
        return never; // some disagreement direction is never contracted
    }
    // Steady state at the period boundary: S = sum_k A^k Q A^kT (Smith's doubling).
    Eigen::MatrixXd s = q;
    bool converged = false;
    for (int step = 0; step < kMaxDoublings; ++step)
    {
        Eigen::MatrixXd next = s + a * s * a.transpose();
        a = a * a;
        double change = (next - s).norm();
        s = next;
        if (change <= 1e-15 * std::max(1.0, s.norm()) || a.norm() < 1e-300)
        {
            converged = true;
            break;
        }
    }
    if (!converged || !s.allFinite())
    {
        return never;
    }
    // Walk one period from the steady state; D is the mean of trace(S_r) / n after each round.
    double sum = 0;
    double best = inf;
    for (const auto& br : b)
    {
        s = br * (s + proj) * br.transpose();
        double d = std::max(0.0, s.trace() / static_cast<double>(n));
        sum += d;
        best = std::min(best, d);
    }
    return SteadyDisagreement{sum / static_cast<double>(b.size()), best};
}

MixingSummary
TrainingTimeObjective::Mixing(const std::vector<IndexRound>& rounds,
                              const std::vector<double>& timeBounds, double scoreLimit) const
{
    MixingSummary m;
    SteadyDisagreement d = Steady(rounds);
    m.factor = 1 + m_weight * d.mean + m_bestWeight * d.best;
    m.reaches = std::isfinite(m.factor);
    if (m.reaches && std::isfinite(scoreLimit) && timeBounds.size() == rounds.size() &&
        Score(m, timeBounds) >= scoreLimit)
    {
        m.limited = true;
        m.reaches = false;
    }
    return m;
}

double
TrainingTimeObjective::Score(const MixingSummary& mixing,
                             const std::vector<double>& roundTimes) const
{
    if (!mixing.reaches || roundTimes.empty() || !std::isfinite(mixing.factor))
    {
        return std::numeric_limits<double>::infinity();
    }
    double period = 0;
    for (double t : roundTimes)
    {
        period += t;
    }
    return period / static_cast<double>(roundTimes.size()) * mixing.factor;
}

double
TrainingTimeObjective::PeriodBound(std::size_t period, double periodTimeS,
                                   std::size_t /* rounds */) const
{
    return periodTimeS / static_cast<double>(std::max<std::size_t>(period, 1));
}

} // namespace ns3
