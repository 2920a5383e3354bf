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
 * \ingroup intelligent-network
 * \brief What the network can do: the "intelligent network" switches. Pure C++ value.
 *
 * A capability set: unicast forwarding is always there; `multicast` adds router replication,
 * `aggregation` in-line FPGAs (which distribute their results by multicast, so it requires
 * multicast). The sets are unicast, unicast+multicast and unicast+multicast+aggregation; a
 * set allows every pattern of the smaller sets (Allows), so more capability can only add
 * choices.
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
    /// Upper bound of the slots of a clique's pool at an FPGA; the pool also fits in
    /// fpgaMemoryBytes (shared by the cliques the FPGA serves in a round). Default: 32 MiB /
    /// 8 KiB slots, so that one clique per FPGA gets the whole memory.
    uint32_t aggregationSlots = 4096;
    uint32_t slotBytes = 8192;        ///< Payload bytes per slot (one segment's values).
    /// Slot memory of one FPGA: 32 MiB, within the 41 MB of on-chip SRAM (BRAM + UltraRAM) of
    /// a Xilinx Alveo U280 (data sheet DS963); 256 MiB per clique would need the card's HBM.
    uint64_t fpgaMemoryBytes = 32ull << 20;
    /// Aggregation trees (true): every FPGA on the members' paths sums what passes through it
    /// and sends one partial sum up; false: the one-point (SwitchML-like) design, every member
    /// sends to one FPGA.
    bool aggregationTree = true;

    /// Slots of a clique's pool at an FPGA that serves \p cliques cliques at once.
    uint32_t SlotsPerClique(uint32_t cliques) const;
    double aggregationTimeoutS = 0.5; ///< Straggler timeout for an incomplete slot.

    /// The richest pattern the set allows (aggregation, else multicast, else all-to-all).
    ExchangePattern RichestPattern() const;
    /// True if the set allows \p pattern.
    bool Allows(ExchangePattern pattern) const;
    /// Every pattern the set allows, in enum order.
    std::vector<ExchangePattern> AllowedPatterns() const;
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
    /// multicast, non-positive FPGA rate, ...).
    void Validate() const;
};

} // namespace ns3

#endif
