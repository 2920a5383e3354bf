/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_WIRE_FORMAT_H
#define INTELLIGENT_NETWORK_WIRE_FORMAT_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Byte counts of a simulated segment on the wire, shared by the ns-3 layer and the
 * fluid cost model so that both charge the same overhead, and the protocol's default ports.
 */
struct WireFormat
{
    static constexpr uint16_t kIslandPort = 9000;      ///< Default port of the island protocol.
    static constexpr uint16_t kAggregationPort = 9100; ///< Default port of the FPGA service.
    static constexpr uint32_t kIslandHeaderBytes = 28; ///< Our IslandHeader (fixed size).
    static constexpr uint32_t kUdpBytes = 8;
    static constexpr uint32_t kIpv4Bytes = 20;
    static constexpr uint32_t kPppBytes = 2; ///< Point-to-point framing added by ns-3.

    /// Bytes on a link for a segment carrying \p payload bytes.
    static constexpr uint64_t WireBytes(uint64_t payload)
    {
        return payload + kIslandHeaderBytes + kUdpBytes + kIpv4Bytes + kPppBytes;
    }

    /// IP packet size (what must fit the MTU) for \p payload bytes.
    static constexpr uint64_t IpBytes(uint64_t payload)
    {
        return payload + kIslandHeaderBytes + kUdpBytes + kIpv4Bytes;
    }

    /// Largest payload that fits an MTU.
    static constexpr uint64_t MaxPayload(uint64_t mtu)
    {
        return mtu - kIslandHeaderBytes - kUdpBytes - kIpv4Bytes;
    }
};

} // namespace ns3

#endif
