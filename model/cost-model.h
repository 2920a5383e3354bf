/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_COST_MODEL_H
#define INTELLIGENT_NETWORK_COST_MODEL_H

#include "network-capabilities.h"
#include "network-graph.h"
#include "route-planner.h"
#include "schedule.h"
#include "traffic-planner.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/// What one round costs: the model and its segmentation (ExchangeSizing), and the compute.
struct CostParameters : public ExchangeSizing
{
    double computeTimeS = 0; ///< Compute time of one local step, seconds.
    uint32_t localSteps = 1; ///< Local steps per round.
    /// Overlap the communication of round r with the compute of round r+1 (Streaming DiLoCo
    /// with a one-round-delayed merge); see CostModel.
    bool overlap = false;

    /// Throws std::invalid_argument naming the bad field.
    void Validate() const;
    /// Compute time of one round: computeTimeS x localSteps.
    double RoundComputeS() const;
};

/// Timing of one stream of a round's fluid simulation.
struct FlowTiming
{
    std::size_t clique;    ///< Index of the clique (in the round's order) the stream belongs to.
    std::size_t phase;     ///< Phase of the clique's exchange it belongs to.
    double wireBits;       ///< Bits each source sends.
    double startS;         ///< When its phase started (from the start of communication).
    double lastBitS;       ///< When the source's last bit leaves (from the start of communication).
    double tailS;          ///< Propagation + store-and-forward after the last bit leaves.
    double finishS;        ///< lastBitS + tailS: the last receiver has its share of the model.
    double initialRateBps; ///< Rate of the first allocation after its start.
};

/// Cost of one round (all its cliques start communicating together after the compute).
struct RoundCost
{
    double computeS = 0;              ///< Compute phase of the round.
    double commS = 0;                 ///< Communication phase: latest clique finish (0 if none).
    double roundS = 0;                ///< Time the round adds to a run (see CostModel).
    std::vector<double> cliqueCommS;  ///< Per clique (round order): its exchange's finish.
    std::vector<double> cliqueRoundS; ///< Per clique: the round time that clique alone sees.
    /// Per clique: the exchange pattern it was costed with (singletons: the default pattern).
    std::vector<ExchangePattern> patterns;
};

/**
 * \ingroup intelligent-network
 * \brief Fluid (flow-level) model of the time of schedule rounds. Pure C++.
 *
 * Built only from the module's shared pieces, so it charges exactly what the packet level
 * does: routes from RoutePlanner, every clique's exchange (its phases and flows) from
 * TrafficPlanner::Exchange (sized by the CostParameters), bandwidth from
 * MaxMinAllocator::Allocate over TrafficPlanner::Capacities().
 *
 * One round: every island computes for RoundComputeS(); then every clique runs its exchange
 * under its pattern. An exchange is a sequence of phases (TrafficFlow::fraction of the model
 * per flow, see CliqueExchange): the flows of a phase start together, and the next phase of
 * the same clique starts when every flow of the phase has finished (its last bit plus its
 * tail). All started flows of all cliques share bandwidth max-min: event-driven progressive
 * filling allocates max-min fair rates to the unfinished flows, advances to the next flow that
 * has sent its wire bits (fraction x CostParameters::ModelWireBits: ceil(M/S) segments with
 * WireFormat's headers) or the next phase start, reallocates, repeats. A flow's tail
 * (TrafficFlow::tailS) is propagation plus one segment's store-and-forward on every hop after
 * the first; trees and aggregation add their pipeline (see TrafficPlanner). A flow with a
 * TrafficFlow::startS (the tree's pipeline fill) joins the allocation that long after its
 * phase started. This is what a packet simulation pacing segments at the allocated rate
 * measures.
 *
 * Aggregation flows are also capped by their FPGAs' slot windows: an FPGA's memory
 * (NetworkCapabilities::fpgaMemoryBytes, in slots of slotBytes) is shared equally by the
 * cliques of the round whose exchange uses it (at most aggregationSlots each), and a slot is
 * reused one round trip of its level after its first use (TrafficPlanner::WindowRateBps).
 *
 * Patterns: Round(cliques, patterns) costs the given patterns; Round(cliques) and a schedule
 * round without patterns use DefaultPattern() (the richest allowed pattern of the capability
 * set, NetworkCapabilities::DefaultPattern, which the ns-3 layer runs too). BestRound chooses the pattern of every clique jointly
 * (heuristically: it can miss an assignment that changes two cliques at once):
 * for every level of NetworkCapabilities::PatternLevels in turn (unicast patterns, then
 * +multicast, then +aggregation) it evaluates every single-pattern assignment (a clique the
 * pattern cannot carry keeps its fastest pattern alone) and the greedy assignment (every
 * clique its fastest pattern alone), keeps the fastest round (latest clique, then the sum of
 * the clique times) including the previous level's, and improves it by coordinate descent
 * (one clique's pattern at a time). Since a level starts from the previous level's best, a
 * larger capability set never gets a slower round. Patterns a clique cannot use (no FPGA on
 * its paths) are skipped.
 *
 * Rounds are barrier-synchronised: a clique's communication time is its last phase's finish,
 * the round's communication time the latest clique's. Round time (what a round adds to a run):
 * - no overlap: compute + communication;
 * - overlap (Streaming-DiLoCo-like): the communication of round r runs while round r+1
 *   computes, and round r+1's own communication starts only when both are done. In steady
 *   state a round adds max(compute, communication); a run of N rounds ends at
 *   compute + sum over r < N-1 of max(compute, comm_r) + comm_{N-1} (RunEndS). The one-round
 *   staleness of the merge is not modelled in the consensus metric.
 *
 * Results of a set of cliques that share no resource with the rest of a round are cached (the
 * model is immutable, so the cache is always valid); independent cliques are simulated apart.
 */
class CostModel
{
  public:
    /// Cliques given as island node ids of the graph.
    using NodeCliques = std::vector<std::vector<uint32_t>>;
    using Patterns = std::vector<ExchangePattern>;

    /// Validates \p caps and \p params (std::invalid_argument).
    CostModel(const NetworkGraph& graph, const NetworkCapabilities& caps,
              const CostParameters& params);
    ~CostModel();
    CostModel(CostModel&&) noexcept;
    CostModel& operator=(CostModel&&) noexcept;

    const CostParameters& Parameters() const;
    const NetworkCapabilities& Capabilities() const;
    const RoutePlanner& Routes() const;
    const TrafficPlanner& Planner() const;
    const NetworkGraph& Graph() const;

    /// Island node of \p city; throws InputError (field `city`) if unknown.
    uint32_t IslandNode(const std::string& city) const;
    /// The pattern of a clique that names none: NetworkCapabilities::DefaultPattern() (the
    /// set's richest pattern if allowed, else the first allowed one), as in the ns-3 layer.
    ExchangePattern DefaultPattern() const;
    /// True if \p pattern can carry \p members (TrafficPlanner::CanExchange; cached).
    bool Feasible(const std::vector<uint32_t>& members, ExchangePattern pattern) const;
    /// The exchange of \p members under \p pattern, as planned for this model's sizing.
    CliqueExchange Exchange(const std::vector<uint32_t>& members, ExchangePattern pattern) const;

    /// Fluid simulation of the flows of \p cliques started together (no compute).
    std::vector<FlowTiming> SimulateFlows(const NodeCliques& cliques) const;
    std::vector<FlowTiming> SimulateFlows(const NodeCliques& cliques,
                                          const Patterns& patterns) const;
    /// Communication time of each clique of \p cliques when they run concurrently (cached).
    std::vector<double> CliqueCommTimes(const NodeCliques& cliques) const;
    std::vector<double> CliqueCommTimes(const NodeCliques& cliques,
                                        const Patterns& patterns) const;
    /// Cost of one round given as island node cliques (singletons and empty cliques cost 0),
    /// every clique with DefaultPattern().
    RoundCost Round(const NodeCliques& cliques) const;
    /// Cost of one round with the pattern of every clique; throws std::invalid_argument if a
    /// pattern cannot carry its clique.
    RoundCost Round(const NodeCliques& cliques, const Patterns& patterns) const;
    /// The fastest round over the pattern assignments described in the class description. If
    /// some clique can use no allowed pattern (e.g. only aggregation and no FPGA on its paths)
    /// the round cannot run: roundS and that clique's times are +infinity (no exception).
    RoundCost BestRound(const NodeCliques& cliques) const;
    /// A lower bound of BestRound(cliques).roundS, without simulating: every clique needs at
    /// least the smallest CliqueExchange::boundS of the patterns it may use.
    double BestRoundLowerBound(const NodeCliques& cliques) const;
    /// Cost of one schedule round (city codes; its patterns, or DefaultPattern()).
    RoundCost Round(const ScheduleRound& round) const;
    /// Cost of the first \p rounds run rounds of \p schedule (round r uses period round r mod P).
    std::vector<RoundCost> Run(const Schedule& schedule, std::size_t rounds) const;
    /// Round times (RoundCost::roundS) of one period of \p schedule.
    std::vector<double> PeriodRoundTimes(const Schedule& schedule) const;
    /// End time of a run whose rounds cost \p rounds (see the class description).
    double RunEndS(const std::vector<RoundCost>& rounds) const;
    /// Round time of a round whose communication takes \p commS.
    double RoundTimeOf(double commS) const;

    /**
     * A lower bound of the communication time of \p cliques run together, without simulating:
     * the larger of (a) every clique's CliqueExchange::boundS (the sum over its phases of the
     * phase's bound alone) and (b) every resource's total load over all phases and cliques over
     * its capacity plus the smallest tail through it.
     */
    double CommLowerBound(const NodeCliques& cliques) const;
    double CommLowerBound(const NodeCliques& cliques, const Patterns& patterns) const;

    /// Number of distinct independent clique sets simulated so far (cache size).
    std::size_t CachedComponents() const;

  private:
    struct Stream;
    struct Plan;
    struct Impl;

    /// The plan of one clique under one pattern (cached per member set and pattern).
    const Plan& PlanOf(const std::vector<uint32_t>& members, ExchangePattern pattern) const;
    /// Patterns for \p cliques: \p patterns, or DefaultPattern() for every clique if empty.
    Patterns Resolve(const NodeCliques& cliques, const Patterns& patterns) const;
    /// Groups of cliques that share resources (indices into \p cliques, cliques of 2+ only).
    std::vector<std::vector<std::size_t>> Components(const NodeCliques& cliques,
                                                     const Patterns& patterns) const;
    /// Event-driven simulation of the plans run together; per plan its finish, and optionally
    /// every stream's timing.
    std::vector<double> Simulate(const std::vector<const Plan*>& plans,
                                 std::vector<FlowTiming>* timings) const;

    std::unique_ptr<Impl> m_impl;
};

} // namespace ns3

#endif
