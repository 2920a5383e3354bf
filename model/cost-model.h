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

/// What one round costs besides the network: the model, its segmentation and the compute.
struct CostParameters
{
    double modelBytes = 1e9;             ///< M: model bytes every member contributes per round.
    uint32_t segmentPayloadBytes = 8192; ///< S: payload bytes of one segment (packet).
    double computeTimeS = 0;             ///< Compute time of one local step, seconds.
    uint32_t localSteps = 1;             ///< Local steps per round.
    /// Overlap the communication of round r with the compute of round r+1 (Streaming DiLoCo
    /// with a one-round-delayed merge); see CostModel.
    bool overlap = false;

    /// Throws std::invalid_argument naming the bad field.
    void Validate() const;
    /// Segments of one model: ceil(M / S).
    uint64_t Segments() const;
    /// Wire bits of one model: M plus the per-segment overhead of WireFormat, times 8.
    double ModelWireBits() const;
    /// Wire bits of one (full) segment: WireFormat::WireBytes(min(S, M)) x 8.
    double SegmentWireBits() const;
    /// Compute time of one round: computeTimeS x localSteps.
    double RoundComputeS() const;
};

/// Timing of one stream of a round's fluid simulation.
struct FlowTiming
{
    std::size_t clique;    ///< Index of the clique (in the round's order) the stream belongs to.
    double wireBits;       ///< Bits each source sends.
    double lastBitS;       ///< When the source's last bit leaves (from the start of communication).
    double tailS;          ///< Propagation + store-and-forward after the last bit leaves.
    double finishS;        ///< lastBitS + tailS: the last receiver has the whole model.
    double initialRateBps; ///< Rate of the first allocation.
};

/// Cost of one round (all its cliques start communicating together after the compute).
struct RoundCost
{
    double computeS = 0;              ///< Compute phase of the round.
    double commS = 0;                 ///< Communication phase: latest clique finish (0 if none).
    double roundS = 0;                ///< Time the round adds to a run (see CostModel).
    std::vector<double> cliqueCommS;  ///< Per clique (round order): its last stream's finish.
    std::vector<double> cliqueRoundS; ///< Per clique: the round time that clique alone sees.
};

/**
 * \ingroup intelligent-network
 * \brief Fluid (flow-level) model of the time of schedule rounds. Pure C++.
 *
 * Built only from the module's shared pieces, so it charges exactly what the ns-3 layer does:
 * routes from RoutePlanner, per-mode streams from TrafficPlanner::CliqueFlows, bandwidth from
 * MaxMinAllocator::Allocate over TrafficPlanner::Capacities().
 *
 * One round: every island computes for RoundComputeS(); then all streams of all cliques of the
 * round start together. Event-driven progressive filling: allocate max-min fair rates to the
 * unfinished streams, advance to the next stream that has sent its wire bits
 * (CostParameters::ModelWireBits: ceil(M/S) segments, each with WireFormat's headers),
 * reallocate, repeat. A stream finishes when its last bit leaves the source plus its tail:
 * propagation along the path plus one segment's store-and-forward (SegmentWireBits / capacity)
 * on every hop after the first (trees: the latest receiver; aggregation: the slowest member's
 * contribution reaches the FPGA, the FPGA latency, then the result tree, whose every hop is
 * store-and-forward). This is what a packet simulation pacing segments at the allocated rate
 * measures. Aggregation streams are also capped by the SwitchML slot window: at most
 * aggregationSlots x slotBytes payload bytes in flight per clique, each slot reused after one
 * round trip (the stream's tail, member -> FPGA -> member), i.e. a wire rate of
 * slots x slotBytes x 8 / tail x WireBytes(S) / S.
 *
 * Rounds are barrier-synchronised: a clique's communication time is its last stream's finish,
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

    /// Fluid simulation of the streams of \p cliques started together (no compute).
    std::vector<FlowTiming> SimulateFlows(const NodeCliques& cliques) const;
    /// Communication time of each clique of \p cliques when they run concurrently (cached).
    std::vector<double> CliqueCommTimes(const NodeCliques& cliques) const;
    /// Cost of one round given as island node cliques (singletons and empty cliques cost 0).
    RoundCost Round(const NodeCliques& cliques) const;
    /// Cost of one schedule round (city codes).
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
     * the larger of (a) every stream's bits at the best rate it could get alone plus its tail,
     * and (b) every resource's total load over its capacity plus the smallest tail through it.
     */
    double CommLowerBound(const NodeCliques& cliques) const;

    /// Number of distinct independent clique sets simulated so far (cache size).
    std::size_t CachedComponents() const;

  private:
    struct Stream;
    struct Impl;

    /// Streams of one clique, in any member order (cached per sorted member list).
    const std::vector<Stream>& StreamsOf(std::vector<uint32_t> members) const;
    /// Groups of cliques that share resources (indices into \p cliques).
    std::vector<std::vector<std::size_t>> Components(const NodeCliques& cliques) const;
    /// Per-stream last-bit times of \p streams run together.
    std::vector<double> Fill(const std::vector<const Stream*>& streams) const;

    std::unique_ptr<Impl> m_impl;
};

} // namespace ns3

#endif
