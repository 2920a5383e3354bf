/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_CONSENSUS_OBJECTIVE_H
#define INTELLIGENT_NETWORK_CONSENSUS_OBJECTIVE_H

#include "consensus-metric.h"
#include "schedule-objective.h"

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Seconds to consensus, counted in whole periods: the default ScheduleObjective.
 *
 * With K the first round at which the worst-case consensus error ||W_K..W_1 - 11^T/n||_2
 * reaches the target (ConsensusMetric), the score of a period of p rounds with round times
 * t_1..t_p is ceil(K / p) x (t_1 + ... + t_p): the schedule runs whole periods, so every round
 * of the period counts, including the rounds after the target is reached within the last
 * period (otherwise a period whose first round averages exactly would get every other round
 * for free). A period that never contracts scores +inf.
 */
class ConsensusTimeObjective : public ScheduleObjective
{
  public:
    /// For \p islands islands and error target \p target (ConsensusMetric's checks).
    ConsensusTimeObjective(std::size_t islands, double target = 1e-3);

    std::string Name() const override;
    std::string Description() const override;
    MixingSummary Mixing(const std::vector<IndexRound>& rounds,
                         const std::vector<double>& timeBounds,
                         double scoreLimit) const override;
    double Score(const MixingSummary& mixing, const std::vector<double>& roundTimes) const override;
    /// ceil(rounds / period) x periodTimeS: consensus needs every island to have heard from
    /// every other (an error of 1/n > target otherwise), in whole periods.
    double PeriodBound(std::size_t period, double periodTimeS, std::size_t rounds) const override;

    const ConsensusMetric& Metric() const;

  private:
    ConsensusMetric m_metric;
};

} // namespace ns3

#endif
