/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_NETWORK_CAPABILITIES_H
#define INTELLIGENT_NETWORK_NETWORK_CAPABILITIES_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// How the members of a clique exchange their models.
enum class ExchangeMode
{
    UNICAST,    ///< Every member sends its model to every other member.
    MULTICAST,  ///< Every member sends once to the clique's group; routers replicate.
    AGGREGATION ///< Members send to an in-line FPGA that sums; the sum is multicast back.
};

/**
 * \ingroup intelligent-network
 * \brief What the network can do: the "intelligent network" switches. Pure C++ value.
 *
 * The three modes are unicast (both switches off), multicast, and multicast + aggregation
 * (aggregation distributes its results by multicast, so it requires multicast).
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
    uint32_t aggregationSlots = 32768; ///< Slots in an FPGA's pool (per clique it serves).
    uint32_t slotBytes = 8192;        ///< Payload bytes per slot (one segment's values).
    double aggregationTimeoutS = 0.5; ///< Straggler timeout for an incomplete slot.

    /// The mode these switches give.
    ExchangeMode Mode() const;
    /// Capabilities with the switches of \p mode set (other fields default).
    static NetworkCapabilities ForMode(ExchangeMode mode);
    /// "unicast" | "multicast" | "aggregation"; throws std::invalid_argument otherwise.
    static ExchangeMode ParseMode(const std::string& name);
    static std::string ModeName(ExchangeMode mode);
    /// True if \p device carries an FPGA.
    bool HasFpga(const std::string& device) const;
    /// Throws std::invalid_argument naming the bad field (zero slots, aggregation without
    /// multicast, non-positive FPGA rate, ...).
    void Validate() const;
};

} // namespace ns3

#endif
