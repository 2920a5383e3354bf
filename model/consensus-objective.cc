/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "consensus-objective.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace ns3
{

ConsensusTimeObjective::ConsensusTimeObjective(std::size_t islands, double target)
    : m_metric(islands, target)
{
}

std::string
ConsensusTimeObjective::Name() const
{
    return "seconds-to-consensus";
}

std::string
ConsensusTimeObjective::Description() const
{
    std::ostringstream o;
    o << "seconds until the worst-case consensus error reaches " << m_metric.Target()
      << ", in whole periods";
    return o.str();
}

const ConsensusMetric&
ConsensusTimeObjective::Metric() const
{
    return m_metric;
}

MixingSummary
ConsensusTimeObjective::Mixing(const std::vector<IndexRound>& rounds,
                               const std::vector<double>& timeBounds, double scoreLimit) const
{
    MixingSummary m;
    double period = 0;
    for (double t : timeBounds)
    {
        period += t;
    }
    if (std::isfinite(scoreLimit) && period > 0)
    {
        // Only periods P with P x period < scoreLimit can beat the limit: K <= P x p rounds.
        double periods = std::ceil(scoreLimit / period) - 1;
        std::size_t cap = periods < 1 ? 0
                                      : static_cast<std::size_t>(std::min(
                                            periods * static_cast<double>(rounds.size()), 1e7));
        std::size_t k = cap == 0 ? ConsensusScore::kNever : m_metric.RoundsToTarget(rounds, cap);
        if (k == ConsensusScore::kNever)
        {
            m.limited = true;
            return m;
        }
        m.reaches = true;
        m.consensus.roundsToTarget = k;
        return m;
    }
    m.consensus = m_metric.Mixing(rounds);
    m.reaches = m.consensus.roundsToTarget != ConsensusScore::kNever;
    return m;
}

double
ConsensusTimeObjective::Score(const MixingSummary& mixing,
                              const std::vector<double>& roundTimes) const
{
    if (!mixing.reaches || roundTimes.empty())
    {
        return std::numeric_limits<double>::infinity();
    }
    double period = 0;
    for (double t : roundTimes)
    {
        period += t;
    }
    std::size_t p = roundTimes.size();
    std::size_t periods = (mixing.consensus.roundsToTarget + p - 1) / p;
    return static_cast<double>(std::max<std::size_t>(periods, 1)) * period;
}

double
ConsensusTimeObjective::PeriodBound(std::size_t period, double periodTimeS,
                                    std::size_t rounds) const
{
    // Until every island has heard from every other some entry of W_k..W_1 is 0, so the
    // error is at least 1/n > target (for n < 1/target): at least `rounds` rounds, in whole
    // periods.
    if (m_metric.Islands() >= 1 / m_metric.Target())
    {
        rounds = 1;
    }
    std::size_t p = std::max<std::size_t>(period, 1);
    std::size_t periods = std::max<std::size_t>((rounds + p - 1) / p, 1);
    return static_cast<double>(periods) * periodTimeS;
}

} // namespace ns3
