/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TRAFFIC_PLANNER_H
#define INTELLIGENT_NETWORK_TRAFFIC_PLANNER_H

#include "max-min-allocator.h"
#include "exchange-pattern.h"
#include "network-capabilities.h"
#include "route-planner.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief What the planner plans for: the bytes a member contributes and their segmentation.
 *
 * The planner's structural choices (ring order, tree layout, parameter-server city,
 * aggregation root) minimise a modelled time that depends on the model size, and the tails it
 * reports include one segment's store-and-forward per router hop. CostParameters extends it.
 */
struct ExchangeSizing
{
    double modelBytes = 1e9;             ///< M: model bytes every member contributes per round.
    uint32_t segmentPayloadBytes = 8192; ///< S: payload bytes of one segment (packet).

    /// Throws std::invalid_argument naming the bad field.
    void Validate() const;
    /// Segments of one model: ceil(M / S).
    uint64_t Segments() const;
    /// Wire bits of one model: M plus the per-segment overhead of WireFormat, times 8.
    double ModelWireBits() const;
    /// Wire bits of one (full) segment: WireFormat::WireBytes(min(S, M)) x 8.
    double SegmentWireBits() const;
};

/// The slot window of one FPGA of an aggregation exchange (see CostModel).
struct SlotWindow
{
    uint32_t device;   ///< Device node of the FPGA.
    double roundTripS; ///< Its level's round trip: a slot is reused this long after first use.
};

/**
 * \brief One model exchange stream of a clique, with its route and what it consumes.
 *
 * - unicast: one source, one receiver, \c down is the path;
 * - multicast: one source, the other members as receivers, \c down is the source tree;
 * - aggregation: every member is a source (its contribution travels \c up[i] to the first FPGA
 *   on its way to the root \c aggregator), every member a receiver (the sum travels the result
 *   tree \c down); the FPGAs in between are in CliqueExchange::aggregation.
 * The stream carries \c fraction of the model once per source at its (single) rate.
 */
struct TrafficFlow
{
    ExchangePattern kind;
    std::vector<uint32_t> sources;   ///< Island nodes.
    std::vector<uint32_t> receivers; ///< Island nodes.
    RoutePlanner::Path down;         ///< Path or tree towards the receivers.
    std::vector<RoutePlanner::Path> up; ///< Aggregation: member -> first FPGA (sources order).
    int64_t aggregator = -1;         ///< Aggregation: the root FPGA's device node.
    /// Resources per unit rate (links, FPGAs); for aggregation maxRate is the slot window's cap
    /// when the clique has every FPGA's memory to itself.
    FlowUsage usage;
    double latencyS = 0; ///< Propagation until the last receiver has a byte's result.
    /// From the last bit leaving the source(s) until the last receiver has everything:
    /// propagation plus one segment's store-and-forward per router hop (ExchangeSizing); for
    /// the TREE pattern the rest of the pipeline after this flow (the last chunk's way on, up
    /// to the root and down to the deepest member, see CliqueExchange), for aggregation up the
    /// reduction tree (FPGA latency at every level) and down the result tree.
    double tailS = 0;
    double fraction = 1.0; ///< Share of the model it carries (ring chunks, trees).
    /// When the flow has its first bits to send, from the start of its phase (added for the
    /// TREE pattern: the pipeline's fill up to its source, see CliqueExchange; 0 otherwise).
    double startS = 0;
    std::vector<SlotWindow> windows; ///< Aggregation: every FPGA's slot window.
};

/**
 * \brief One FPGA of a clique's aggregation (reduction) tree.
 *
 * The FPGA on \c device sums, per slot, the contributions of \c members (islands whose
 * contribution reaches it first) and the partial sums of \c children (FPGA devices), and
 * sends one partial sum to \c parent (the root, parent -1, has the clique's sum and sends it
 * down the result tree by multicast). When every device on the tree carries an FPGA, each
 * edge of the reduction tree carries exactly one (partial) copy of the model up and one copy
 * of the result down; a router without FPGA between two of them forwards every copy it gets.
 */
struct AggregationNode
{
    uint32_t device;                ///< Device node carrying the FPGA.
    int64_t parent = -1;            ///< Device node of the parent FPGA; -1 for the root.
    std::vector<uint32_t> members;  ///< Island nodes whose contributions it sums directly.
    std::vector<uint32_t> children; ///< Device nodes of the child FPGAs it sums.
    RoutePlanner::Path up;          ///< Hops its partial sum travels to the parent (empty: root).
    double roundTripS = 0;          ///< Its slot window's round trip (SlotWindow).
};

/**
 * \brief The structure of one clique's exchange under one pattern: who sends what to whom.
 *
 * Produced by TrafficPlanner::Exchange and read by both the fluid CostModel (\c phases) and
 * the ns-3 exchange classes (the structural fields), so that both simulate the same exchange.
 * Contract with the packet-level exchanges (ring, tree, parameter server, aggregation trees):
 * the fields of CliqueExchange, AggregationNode, TrafficFlow and SlotWindow and their meaning
 * below are stable; changes are additive only (new fields with defaults), noted here.
 * Member indices below index \c members. The planner canonicalises: the same member set gives
 * the same exchange whatever order it is passed in.
 *
 * - ALL_TO_ALL: \c members ascending; one phase, one unicast flow per ordered pair, whole model.
 * - MULTICAST: \c members ascending; one phase, one multicast flow per member (its source
 *   tree), whole model each.
 * - RING: \c members is the ring order (member i sends to member i+1 mod k). The model is cut
 *   into k chunks; 2(k-1) steps (k-1 reduce-scatter steps, then k-1 all-gather steps). In
 *   reduce-scatter step s (0-based) member i sends chunk (i - s) mod k (its partial sum of
 *   it), in all-gather step s chunk (i + 1 - s) mod k (the final sum): after the
 *   reduce-scatter member i holds the sum of chunk (i + 1) mod k. A member sends step s as
 *   soon as its predecessor's step s-1 has arrived (and its own step s-1 has left), so steps
 *   overlap on unequal edges. One fluid phase with k flows i -> i+1, each of fraction
 *   2(k-1)/k (its 2(k-1) chunks), whose tail is the rest of the step dependency chain after
 *   its last bit (TrafficPlanner::RingOf): alone, every edge ends where the chain of steps
 *   does (2(k-1) synchronous steps on equal edges). Until 2026-12-05 the ring was 2(k-1)
 *   phases of one chunk per edge with a barrier between steps, which overcharged rings of
 *   unequal edges.
 * - TREE: \c trees holds the parent (member index, -1 for the root) of every member in each
 *   tree (a double binary tree has two, each carrying fraction 1/trees.size() of the model,
 *   every member interior in at most one). Reduction up then broadcast down, pipelined in
 *   \c chunkBytes chunks: a member forwards chunk c as soon as it has it from all children.
 *   One fluid phase with two flows per tree edge (child -> parent up, parent -> child down,
 *   each of the tree's fraction). The pipeline is charged once, per chunk: a flow starts
 *   (TrafficFlow::startS) when its source has the first chunk (leaves at 0; a member when
 *   the first chunk of every child has arrived: the child's start + one chunk at its path's
 *   bottleneck + its path tail; the root's down flows when the root has it, a member's down
 *   flows one chunk and one path later), and its tail is the last chunk's way on after its
 *   last bit: its path, then one chunk and one path per level up to the root, then down to
 *   the deepest member of the subtree. So up and down overlap (the down flows share the
 *   links with the up flows only once they run) and the clique ends at its slowest flow's
 *   last bit plus the rest of the pipeline from there.
 * - PARAMETER_SERVER: \c server is the member index of the server; two phases: every other
 *   member pushes its whole model to the server, then the server sends the average back
 *   (one unicast flow per member).
 * - AGGREGATION: \c aggregation is the reduction tree over FPGAs (root first, every node after
 *   its parent; a single node for the one-point design); one phase with one flow (the
 *   contributions up and the result down, see TrafficFlow); \c resultTree is the root's
 *   multicast tree to the members (for the tree design the reduction tree's edges reversed).
 */
struct CliqueExchange
{
    ExchangePattern pattern = ExchangePattern::ALL_TO_ALL;
    std::vector<uint32_t> members; ///< Island nodes, in the pattern's order (see above).
    /// Fluid phases: the flows of phase p+1 start when every flow of phase p has finished
    /// (its last bit plus its tail). TrafficFlow::fraction scales the model bytes a flow carries.
    std::vector<std::vector<TrafficFlow>> phases;
    std::vector<std::vector<int32_t>> trees; ///< TREE: parent member index per tree.
    double chunkBytes = 0;                   ///< TREE: pipelining chunk (payload bytes).
    int32_t server = -1;                     ///< PARAMETER_SERVER: member index of the server.
    std::vector<AggregationNode> aggregation; ///< AGGREGATION: reduction tree, root first.
    RoutePlanner::Path resultTree; ///< AGGREGATION: the root's multicast tree to the members.
    /// The clique alone: sum over phases of the fluid lower bound of the phase
    /// (TrafficPlanner::PhaseBoundS). The structural choices minimise it.
    double boundS = 0;
};

/**
 * \ingroup intelligent-network
 * \brief Turns a clique into its traffic: routes, trees, aggregator choice, resource usage.
 *
 * The single place where "what does a clique exchange cost the network" is decided; used by
 * the fluid CostModel and by the ns-3 layer (rate controller, multicast routes, FPGA
 * placement). Resources are the NetworkGraph's directed links (0 .. 2E-1) followed by one
 * resource per FPGA device (capacity NetworkCapabilities::fpgaThroughputBps). Pure C++.
 *
 * Exchange() plans any pattern (see CliqueExchange). Its structural choices minimise the
 * clique's modelled time alone (CliqueExchange::boundS) for the sizing of SetSizing():
 * - RING: the order minimising the slowest step (the largest of chunk / path bottleneck +
 *   path latency over the ring's edges, ties by their sum): every order for up to 8 members,
 *   else nearest-neighbour tours from every member improved by 2-opt;
 * - TREE: NCCL's double binary tree over the ring order (tree 1 in-order over positions
 *   1..k by lowest set bit, tree 2 the same mirrored (k even) or shifted by one (k odd)), at
 *   the rotation of the ring order with the smallest bound;
 * - PARAMETER_SERVER: the member with the smallest bound;
 * - AGGREGATION (tree design): the root among the FPGA devices on the clique's paths with the
 *   smallest bound (ties: smallest largest member latency, then lowest node).
 *
 * Aggregator() (the one-point design, and the ns-3 layer's choice today): among the FPGA
 * devices lying on the clique's paths (the shortest paths between its members), the one
 * minimising the largest member latency (ties: smallest sum, then lowest node). No such device
 * is a configuration error there; Exchange() reports it through CanExchange.
 */
class TrafficPlanner
{
  public:
    /// Keeps references: \p routes and \p caps must outlive the planner.
    TrafficPlanner(const RoutePlanner& routes, const NetworkCapabilities& caps);

    /// The payload the structural choices and tails are computed for (default ExchangeSizing).
    void SetSizing(const ExchangeSizing& sizing);
    const ExchangeSizing& Sizing() const;

    /**
     * True if \p pattern can carry the clique \p members (island nodes, two or more): the
     * capabilities allow it, every member reaches every other, and for AGGREGATION an FPGA
     * lies on the clique's paths. Otherwise false, with the reason in \p why.
     */
    bool CanExchange(const std::vector<uint32_t>& members, ExchangePattern pattern,
                     std::string* why = nullptr) const;
    /// The exchange of \p members under \p pattern (see CliqueExchange); a clique of fewer
    /// than two has no phases. Throws std::invalid_argument (the CanExchange reason) otherwise.
    CliqueExchange Exchange(const std::vector<uint32_t>& members, ExchangePattern pattern) const;
    /**
     * Fluid lower bound of the flows of one phase run alone (Sizing's model): the largest of
     * every flow's bits at the best rate it could get alone plus its tail, and every
     * resource's total load over its capacity plus the smallest tail of a flow through it.
     */
    double PhaseBoundS(const std::vector<TrafficFlow>& phase) const;
    /**
     * Largest wire rate (bit/s) an aggregation flow can keep up through FPGA window \p w when
     * \p sharing cliques share the FPGA's memory: its slots (min(aggregationSlots,
     * PoolSlots() / sharing)) carry slots x slotBytes payload bytes per round trip of the
     * level; infinite when the whole model fits in the window.
     */
    double WindowRateBps(const SlotWindow& w, double sharing) const;

    /// Streams of one clique (island nodes) in the capabilities' richest pattern (one-point
    /// aggregation); kept for the ns-3 layer until it reads Exchange().
    std::vector<TrafficFlow> CliqueFlows(const std::vector<uint32_t>& members) const;
    /// Streams of one clique in an explicit mode.
    std::vector<TrafficFlow> CliqueFlows(const std::vector<uint32_t>& members,
                                         ExchangePattern mode) const;

    /// One unicast stream \p source -> \p receiver.
    TrafficFlow UnicastFlow(uint32_t source, uint32_t receiver) const;
    /// One multicast stream from \p source to \p receivers along its source tree.
    TrafficFlow MulticastFlow(uint32_t source, const std::vector<uint32_t>& receivers) const;
    /// The aggregation stream of \p members (all send to the aggregator, the sum comes back).
    TrafficFlow AggregationFlow(const std::vector<uint32_t>& members) const;
    /// The same through a given FPGA device node (e.g. the one chosen before a reroute).
    TrafficFlow AggregationFlow(const std::vector<uint32_t>& members, uint32_t aggregator) const;

    /// The FPGA device node that aggregates for \p members; throws std::invalid_argument if none.
    uint32_t Aggregator(const std::vector<uint32_t>& members) const;

    /// Capacities of all resources (links then FPGAs), bit/s.
    std::vector<double> Capacities() const;
    /// Resource of the FPGA on device node \p device; throws if it has none.
    uint32_t FpgaResource(uint32_t device) const;
    std::size_t ResourceCount() const;

    const RoutePlanner& Routes() const;
    const NetworkCapabilities& Capabilities() const;

  private:
    /// Arrival offsets of the last segment at every node of \p hops (a path or ordered tree)
    /// from \p root at time \p start; \p sfFirst charges store-and-forward on the root's hops.
    std::map<uint32_t, double> Arrivals(const RoutePlanner::Path& hops, uint32_t root,
                                        double start, bool sfFirst) const;
    /// Fill usage, latency and tail of a unicast or multicast flow from its \c down.
    void Finish(TrafficFlow& f) const;
    /// Set boundS from the phases.
    void Bound(CliqueExchange& x) const;
    /// FPGA devices on the shortest paths between the members.
    std::vector<uint32_t> FpgasOnPaths(const std::vector<uint32_t>& members) const;
    CliqueExchange Ring(const std::vector<uint32_t>& members) const;
    CliqueExchange RingOf(const std::vector<uint32_t>& order) const;
    CliqueExchange Tree(const std::vector<uint32_t>& members) const;
    CliqueExchange TreeOf(const std::vector<uint32_t>& order) const;
    CliqueExchange ParameterServer(const std::vector<uint32_t>& members) const;
    CliqueExchange ParameterServerAt(const std::vector<uint32_t>& members, int32_t server) const;
    CliqueExchange Aggregation(const std::vector<uint32_t>& members) const;
    /// Reduction tree of \p members rooted at FPGA \p root (tree design).
    CliqueExchange AggregationTreeAt(const std::vector<uint32_t>& members, uint32_t root) const;
    /// One-point aggregation at \p root (single design).
    CliqueExchange AggregationSingleAt(const std::vector<uint32_t>& members,
                                       uint32_t root) const;

    const RoutePlanner& m_routes;
    const NetworkCapabilities& m_caps;
    ExchangeSizing m_sizing;
    std::vector<uint32_t> m_fpgaNodes; ///< Device nodes with an FPGA, in node order.
    std::vector<int64_t> m_fpgaResource; ///< Per node: its FPGA resource, or -1.
    std::vector<double> m_capacities;  ///< Capacities(), computed once.
    /// UnicastFlow by (source, receiver): every pattern reuses the same few flows.
    mutable std::map<std::pair<uint32_t, uint32_t>, TrafficFlow> m_unicast;
};

} // namespace ns3

#endif
