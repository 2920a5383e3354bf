/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_ISLAND_LEARNER_H
#define INTELLIGENT_NETWORK_ISLAND_LEARNER_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief What a TrainingIsland trains: a real parameter vector. Pure C++ interface.
 *
 * The island calls LocalSteps() when a round's compute ends, sends Parameters() to its clique
 * (carried as real values in the first segments of the modelled payload), and when the round
 * ends hands over what arrived: the peers' vectors (unicast, multicast) or the aggregator's
 * fixed-point sum over all members, itself included, decoded to doubles (aggregation).
 * An island without a learner exchanges opaque bytes only.
 */
class IslandLearner
{
  public:
    virtual ~IslandLearner() = default;

    /// Number of parameters.
    virtual std::size_t Dimension() const = 0;
    /// Run \p steps local optimisation steps of round \p round.
    virtual void LocalSteps(uint32_t round, uint32_t steps) = 0;
    /// The vector this island contributes to the round's synchronization.
    virtual std::vector<double> Parameters() const = 0;
    /// Unicast/multicast: the other members' vectors, in clique order.
    virtual void Synchronize(uint32_t round, const std::vector<std::vector<double>>& peers) = 0;
    /// Aggregation: the sum over all \p members (this island included) as summed in-network.
    virtual void SynchronizeSum(uint32_t round,
                                const std::vector<double>& sum,
                                uint32_t members) = 0;
};

} // namespace ns3

#endif
