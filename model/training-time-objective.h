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

/// Steady-state disagreement of a periodic schedule (TrainingTimeObjective).
struct SteadyDisagreement
{
    double mean = 0; ///< Mean over the period's rounds of trace(S_r)/n after the averaging.
    double best = 0; ///< Its minimum over the period's rounds (the best-agreeing round).
};

/**
 * \ingroup intelligent-network
 * \brief Predicted training time: mean round time x (1 + k x D + m x D_best), where D is the
 * steady-state disagreement of the islands under the schedule's mixing with unit injection
 * per round and D_best its value after the period's best-agreeing round. Pure C++.
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
 * D_best = min over the period's rounds of trace(S_r) / n: 0 when some round averages
 * everybody exactly (all-reduce, DiLoCo-h), 2/9 for the 3x3 rotating grid. Targets are met
 * at the best round of a period, and islands scored on their own models (label-skewed shards)
 * are far from the target unless some round gives everybody (nearly) the same model.
 *
 * Score = (t_1 + .. + t_p) / p x (1 + k D + m D_best) seconds: time per round times a
 * rounds-to-target factor that grows with the disagreement (k = disagreementWeight, m =
 * bestRoundWeight). Contract
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
    static constexpr double kDefaultWeight = 0.5;
    /// Default m, chosen with k.
    static constexpr double kDefaultBestWeight = 4.0;

    /// For \p islands (>= 1) islands and weights \p weight, \p bestWeight (finite, >= 0);
    /// throws std::invalid_argument otherwise.
    explicit TrainingTimeObjective(std::size_t islands, double weight = kDefaultWeight,
                                   double bestWeight = kDefaultBestWeight);

    std::string Name() const override;
    std::string Description() const override;
    /// Rounds-to-target factor 1 + k D + m D_best in MixingSummary::factor; reaches = the
    /// period contracts.
    MixingSummary Mixing(const std::vector<IndexRound>& rounds,
                         const std::vector<double>& timeBounds,
                         double scoreLimit) const override;
    double Score(const MixingSummary& mixing, const std::vector<double>& roundTimes) const override;
    /// periodTimeS / period: D >= 0 for every schedule (and = 0 for exact averaging).
    double PeriodBound(std::size_t period, double periodTimeS, std::size_t rounds) const override;

    /// Steady-state disagreement of the periodic \p rounds (+inf if the period does not
    /// contract); throws std::invalid_argument on an empty period or a bad round.
    SteadyDisagreement Steady(const std::vector<IndexRound>& rounds) const;
    /// Steady(rounds).mean.
    double Disagreement(const std::vector<IndexRound>& rounds) const;
    double Weight() const;
    double BestWeight() const;

  private:
    ConsensusMetric m_metric; ///< Mixing matrices and index checks.
    Eigen::MatrixXd m_basis;  ///< n x (n-1) orthonormal basis of the complement of 1.
    double m_weight;
    double m_bestWeight;
};

} // namespace ns3

#endif
