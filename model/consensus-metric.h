/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_CONSENSUS_METRIC_H
#define INTELLIGENT_NETWORK_CONSENSUS_METRIC_H

#include "schedule.h"

#include <Eigen/Dense>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

/// One round as cliques of island indices 0 .. n-1 (islands in no clique sit the round out).
using IndexRound = std::vector<std::vector<uint32_t>>;

/// How well, and how fast, a periodic schedule averages.
struct ConsensusScore
{
    double norm = 1;    ///< || W_T ... W_1 - 11^T/n ||_2 over one period.
    bool exact = false; ///< norm < ConsensusMetric::kExactNorm: the period averages exactly.
    double periodS = 0; ///< Sum of the period's round times.
    double rate = 0;    ///< -ln(norm) / periodS; +infinity when exact, 0 if it never contracts.
    std::size_t roundsToTarget = kNever; ///< Rounds until the error is <= the target.
    double secondsToTarget = std::numeric_limits<double>::infinity(); ///< Their total time.

    static constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();
};

/**
 * \ingroup intelligent-network
 * \brief Consensus contraction of periodic clique schedules (Eigen). Pure C++.
 *
 * Round r mixes with W_r: inside a clique every member takes the clique's mean (block
 * averaging), an island in no clique keeps its value. A period of T rounds contracts
 * disagreement by norm = || W_T ... W_1 - 11^T/n ||_2 (largest singular value) and the rate of
 * information exchange is -ln(norm) / (sum of the period's round times), in nepers per second.
 *
 * Consensus error after k rounds: the worst case over all start vectors x_0 of
 * || x_k - mean(x_0) 1 || / || x_0 - mean(x_0) 1 ||, which is || W_k ... W_1 - 11^T/n ||_2
 * (averaging keeps the mean). roundsToTarget is the first k with error <= target (1e-3 by
 * default) and secondsToTarget sums the times of those k rounds; both are finite whenever
 * the period contracts. (A single random start vector was tried first and rejected: the
 * optimizer learned to make two group means coincide for that one vector, "reaching" 1e-3 a
 * round before the schedule really averages. The worst case cannot be gamed and needs no
 * seed.)
 *
 * Ranking (Better): a period that averages exactly (norm < kExactNorm) has an unbounded rate;
 * such schedules are ranked among themselves by secondsToTarget, which stays finite. In
 * general the higher rate wins, and rates equal to a relative 1e-9 (or both unbounded) are
 * ranked by secondsToTarget, then by the shorter period.
 */
class ConsensusMetric
{
  public:
    /// Norm below which a period counts as averaging exactly.
    static constexpr double kExactNorm = 1e-9;

    /// Metric for \p islands islands and error target \p target; schedules needing more than
    /// \p maxRounds rounds count as never reaching it.
    explicit ConsensusMetric(std::size_t islands, double target = 1e-3,
                             std::size_t maxRounds = 1000000);

    std::size_t Islands() const;
    double Target() const;

    /// Mixing matrix of one round; throws std::invalid_argument on a bad or repeated index.
    Eigen::MatrixXd MixingMatrix(const IndexRound& round) const;
    /// W_T ... W_1 of \p rounds (round 0 applied first).
    Eigen::MatrixXd PeriodProduct(const std::vector<IndexRound>& rounds) const;
    /// || PeriodProduct - 11^T/n ||_2.
    double PeriodNorm(const std::vector<IndexRound>& rounds) const;
    /// Worst-case consensus error after the first \p k rounds of the periodic \p rounds.
    double Error(const std::vector<IndexRound>& rounds, std::size_t k) const;
    /// Largest singular value of \p a.
    static double TwoNorm(const Eigen::MatrixXd& a);

    /**
     * Mixing part of the score (norm, exact, roundsToTarget); time fields left at zero /
     * infinity. roundsToTarget is kNever when the period does not contract or would need more
     * than maxRounds rounds.
     */
    ConsensusScore Mixing(const std::vector<IndexRound>& rounds) const;
    /**
     * The first round k <= \p cap at which the worst-case error of the periodic \p rounds is
     * at most the target, or ConsensusScore::kNever; cheaper than Mixing when the cap is
     * small (no period norm).
     */
    std::size_t RoundsToTarget(const std::vector<IndexRound>& rounds, std::size_t cap) const;
    /// Complete \p mixing with the period's round times (one per round).
    static ConsensusScore WithTimes(ConsensusScore mixing, const std::vector<double>& roundTimes);
    /// Mixing then WithTimes.
    ConsensusScore Evaluate(const std::vector<IndexRound>& rounds,
                            const std::vector<double>& roundTimes) const;

    /// True if \p a ranks strictly before \p b (see the class description).
    static bool Better(const ConsensusScore& a, std::size_t periodA, const ConsensusScore& b,
                       std::size_t periodB);

    /// Rounds of \p schedule as indices into \p islands; throws InputError (field `city`) for
    /// a city not among \p islands.
    static std::vector<IndexRound> ToIndices(const Schedule& schedule,
                                             const std::vector<std::string>& islands);

  private:
    /// Throws std::invalid_argument on an index out of range or in two cliques of \p round.
    void Check(const IndexRound& round) const;
    /// Apply one round's block averaging to the rows of \p x in place.
    static void Apply(const IndexRound& round, Eigen::MatrixXd& x);
    /// Apply one round's block averaging to the columns of \p x (x W) in place.
    static void ApplyColumns(const IndexRound& round, Eigen::MatrixXd& x);

    std::size_t m_n;
    double m_target;
    std::size_t m_maxRounds;
};

} // namespace ns3

#endif
