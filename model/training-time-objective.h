/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TRAINING_TIME_OBJECTIVE_H
#define INTELLIGENT_NETWORK_TRAINING_TIME_OBJECTIVE_H

#include "consensus-metric.h"
#include "schedule-objective.h"

#include <Eigen/Dense>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Predicted training time: mean round time x (1 + k x D), where D is the steady-state
 * disagreement of the islands under the schedule's mixing with unit injection per round.
 * Pure C++.
 *
 * Model: local steps re-inject disagreement every round. Each island's model drifts by an
 * independent unit-variance amount per round (x <- x + e, e ~ N(0, I)), then the round mixes
 * (x <- W_r x, block averaging in cliques, ConsensusMetric::MixingMatrix). Disagreement is
 * x - mean(x) 1; its covariance S (on the n-1 dimensional complement of 1) evolves as
 * S <- B_r (S + I) B_r^T with B_r = W_r restricted to that complement. For a periodic
 * schedule whose period contracts (every island eventually hears from every other) S
 * converges to a periodic steady state, found exactly by solving the discrete Lyapunov
 * equation S_0 = A S_0 A^T + Q over one period (A = B_p .. B_1, Q = the period's accumulated
 * injections). D is the mean over the period's rounds of trace(S_r) / n after round r: the
 * mean squared distance of an island's model from the average, in units of one round's
 * injection. D = 0 for exact averaging every round (all-reduce), D = (n-1)/n x h' for the
 * like of DiLoCo with averaging every h rounds, and D is unbounded (score +inf) when the
 * period does not connect every island (islands that never communicate never agree, and
 * label-skewed shards never reach the target).
 *
 * Score = (t_1 + .. + t_p) / p x (1 + k D) seconds: time per round times a rounds-to-target
 * factor that grows with the disagreement (k = disagreementWeight). Contract
 * (ScheduleObjective): the score is non-decreasing in every round time (D does not depend on
 * them); a disconnected period scores +inf; PeriodBound(p, T, r) = T / p, since D >= 0 for
 * every schedule (and D = 0 for all-in-one averaging every round, so the bound is tight).
 *
 * The steady state is computed by Smith's doubling (S = sum_k A^k Q A^kT, squaring A each
 * step) on n x n matrices projected off 1: O(n^3 log) per candidate, no Kronecker system.
 */
class TrainingTimeObjective : public ScheduleObjective
{
  public:
    /// Default k, chosen on the calibration configuration (doc/objective-validation.rst).
    static constexpr double kDefaultWeight = 1.0;

    /// For \p islands (>= 1) islands and disagreement weight \p weight (finite, >= 0); throws
    /// std::invalid_argument otherwise.
    explicit TrainingTimeObjective(std::size_t islands, double weight = kDefaultWeight);

    std::string Name() const override;
    std::string Description() const override;
    /// Steady-state disagreement in MixingSummary::factor; reaches = the period contracts.
    MixingSummary Mixing(const std::vector<IndexRound>& rounds,
                         const std::vector<double>& timeBounds,
                         double scoreLimit) const override;
    double Score(const MixingSummary& mixing, const std::vector<double>& roundTimes) const override;
    /// periodTimeS / period: D >= 0 for every schedule (and = 0 for exact averaging).
    double PeriodBound(std::size_t period, double periodTimeS, std::size_t rounds) const override;

    /// Steady-state disagreement D of the periodic \p rounds (+inf if the period does not
    /// contract); throws std::invalid_argument on an empty period or a bad round.
    double Disagreement(const std::vector<IndexRound>& rounds) const;
    double Weight() const;

  private:
    ConsensusMetric m_metric; ///< Mixing matrices and index checks.
    Eigen::MatrixXd m_basis;  ///< n x (n-1) orthonormal basis of the complement of 1.
    double m_weight;
};

} // namespace ns3

#endif
