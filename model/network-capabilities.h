/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_NETWORK_CAPABILITIES_H
#define INTELLIGENT_NETWORK_NETWORK_CAPABILITIES_H

#include "exchange-pattern.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief How in-network aggregation is laid out for one clique (NetworkCapabilities).
 *
 * - TREE: a reduction tree over the FPGAs on the members' paths: every FPGA sums the
 *   contributions of its members and the partial sums of its child FPGAs and forwards one
 *   partial sum to its parent; the root multicasts the result down the same tree (SHARP-like).
 * - SINGLE: one FPGA per clique sums every member's contribution and multicasts the sum back:
 *   the one-switch design of SwitchML.
 */
enum class AggregationDesign
{
    TREE,
    SINGLE
};

/// "tree" | "single".
std::string AggregationDesignName(AggregationDesign design);
/// Inverse of AggregationDesignName; throws std::invalid_argument naming the accepted values.
AggregationDesign ParseAggregationDesign(const std::string& name);

/**
 * \ingroup intelligent-network
 * \brief What the network can do: the "intelligent network" switches. Pure C++ value.
 *
 * A capability set: unicast forwarding is always there; `multicast` adds router replication,
 * `aggregation` in-line FPGAs (which distribute their results by multicast, so it requires
 * multicast). The sets are unicast, unicast+multicast and unicast+multicast+aggregation; a
 * set allows every pattern of the smaller sets (Allows), so more capability can only add
 * choices.
 *
 * FPGA memory: every FPGA holds its aggregation slots in fpgaMemoryBytes, shared equally by
 * the cliques it serves in a round (and at most aggregationSlots per clique). The default,
 * 8 GiB, is the HBM2 of an AMD (Xilinx) Alveo U280 card (two HBM2 stacks, 8 GB, 460 GB/s;
 * AMD UG1393, "HBM Configuration and Use"). On-chip SRAM alone (block RAM + UltraRAM, some
 * tens of MB on the same card) cannot hold a WAN round trip's worth of slots: set
 * fpgaMemoryBytes accordingly to model an SRAM-only design (see doc/intelligent-network.rst).
 */
struct NetworkCapabilities
{
    bool multicast = false;   ///< Routers replicate multicast packets.
    bool aggregation = false; ///< In-line FPGAs sum contributions.
    /// Devices that carry an FPGA; empty with fpgaOnAllDevices = every device has one.
    std::vector<std::string> fpgaDevices;
    bool fpgaOnAllDevices = true;
    double fpgaThroughputBps = 100e9; ///< FPGA summing rate, in contribution bits per second.
    double fpgaLatencyS = 2e-6;       ///< FPGA pipeline latency per slot.
    /// Slot-index space of one clique at one FPGA (the protocol's per-clique cap); the default
    /// (2^20 slots of 8 KiB = 8 GiB) leaves the limit to fpgaMemoryBytes.
    uint32_t aggregationSlots = 1u << 20;
    uint32_t slotBytes = 8192;        ///< Payload bytes per slot (one segment's values).
    /// Slots of a clique's pool at an FPGA that serves \p cliques cliques at once:
    /// min(aggregationSlots, floor(PoolSlots() / cliques)), as the planner's window.
    uint32_t SlotsPerClique(uint32_t cliques) const;
    double aggregationTimeoutS = 0.5; ///< Straggler timeout for an incomplete slot.
    /// Memory of one FPGA for aggregation slots, bytes (shared by the cliques it serves).
    double fpgaMemoryBytes = 8.0 * (1u << 30);
    /// Reduction tree (default) or one FPGA per clique (the SwitchML-like design).
    AggregationDesign aggregationDesign = AggregationDesign::TREE;
    /// TREE pattern (tree all-reduce): pipelining chunk, payload bytes. The default, 512 KiB,
    /// is one step of NCCL's simple protocol (4 MiB buffer in 8 steps).
    double treeChunkBytes = 512 * 1024;
    /// Patterns the programs may choose from; empty = every pattern the set allows. An
    /// experiment's restriction (e.g. to compare one pattern alone), not a network property.
    std::vector<ExchangePattern> patterns;

    /// The richest pattern of the set (aggregation, else multicast, else all-to-all), ignoring
    /// the restriction \c patterns: what the ns-3 layer runs for a clique without a pattern.
    ExchangePattern RichestPattern() const;
    /// The pattern of a clique whose schedule names none, for every program (the fluid
    /// CostModel and the ns-3 layer alike): RichestPattern() if allowed, else the first
    /// allowed pattern (a restriction such as patterns = {ring} makes that ring).
    ExchangePattern DefaultPattern() const;
    /// True if the set allows \p pattern (and \c patterns, when not empty, lists it).
    bool Allows(ExchangePattern pattern) const;
    /// True if the switches allow \p pattern, whatever the restriction \c patterns says.
    bool SetAllows(ExchangePattern pattern) const;
    /// Why \p pattern is not allowed, as the end of a sentence ("pattern tree is excluded by
    /// the restriction to the patterns ring" or "pattern multicast is not allowed by the
    /// capability set unicast"); empty if it is allowed.
    std::string WhyNotAllowed(ExchangePattern pattern) const;
    /// Every pattern the set allows, in enum order.
    std::vector<ExchangePattern> AllowedPatterns() const;
    /**
     * The allowed patterns by capability level: level 0 the unicast patterns, level 1 adds
     * multicast, level 2 aggregation (levels the set does not reach are left out, and a level
     * the restriction \c patterns leaves equal to the previous one is merged with it). Each
     * level contains the previous one; the cost model chooses within every level in turn so
     * that a larger set never does worse.
     */
    std::vector<std::vector<ExchangePattern>> PatternLevels() const;
    /// Restrict \c patterns to a comma-separated list of pattern names (ParsePattern); throws
    /// std::invalid_argument naming a bad or disallowed item.
    void SetPatterns(const std::string& list);
    /// Set aggregationDesign from "tree" or "single" (std::invalid_argument otherwise).
    void SetAggregationDesign(const std::string& name);
    /// Slots of one FPGA's memory: floor(fpgaMemoryBytes / slotBytes).
    double PoolSlots() const;
    /// The smallest set (other fields default) that allows \p pattern.
    static NetworkCapabilities ForPattern(ExchangePattern pattern);
    /// Set the switches from a list such as "unicast", "unicast,multicast" or
    /// "unicast,multicast,aggregation" (order free; "unicast" may be left out; aggregation
    /// implies multicast). Throws std::invalid_argument naming a bad item.
    void SetSwitches(const std::string& list);
    /// "unicast", "unicast,multicast" or "unicast,multicast,aggregation".
    std::string SetName() const;
    /// True if \p device carries an FPGA.
    bool HasFpga(const std::string& device) const;
    /// Throws std::invalid_argument naming the bad field (zero slots, aggregation without
    /// multicast, non-positive FPGA rate, memory below one slot, a restriction naming a
    /// pattern the set does not allow, ...).
    void Validate() const;
};

} // namespace ns3

#endif
