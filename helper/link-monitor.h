/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_LINK_MONITOR_H
#define INTELLIGENT_NETWORK_LINK_MONITOR_H

#include "wan-network.h"

#include "ns3/packet.h"
#include "ns3/results-database.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Counts what every link direction transmits: bytes, packets, busy time, and the
 * model-exchange DATA payload among it.
 *
 * Hooks each point-to-point device's PhyTxBegin trace (FlowMonitor ignores multicast, so the
 * module counts on the devices). Bytes include the PPP, IPv4 and UDP headers.
 *
 * Cheap per packet-hop: no packet is copied, no header object is deserialised and no tag is
 * set or read. The device trace copies out the frame's first few dozen bytes (PPP, IPv4 and
 * transport headers, the island header's type byte), which the device has just written and
 * the forwarding node has just read, so they are in cache; the packet's own state (its tag
 * list) is not touched. A whole (unfragmented) IPv4 packet carries model bytes when it is
 * UDP with an IslandHeader of type DATA, CONTRIBUTION or RESULT (its payload after the two
 * headers) or a TCP segment with payload (the tcp transport's stream bytes). The trace's
 * callback holds its link's counters and rate inline (one object per device, not ns-3's
 * bound-argument chain of three), so a packet-hop touches that object and one cache line of
 * counters.
 */
class LinkMonitor
{
  public:
    /// Counters of one direction of one edge (one cache line each: a packet-hop touches one).
    struct alignas(64) Counters
    {
        uint64_t bytes = 0;
        uint64_t packets = 0;
        uint64_t dataPackets = 0; ///< Packets carrying model segments (DATA/CONTRIBUTION/RESULT).
        uint64_t dataPayloadBytes = 0; ///< Model bytes carried by them.
        double busyS = 0;
    };

    LinkMonitor() = default;
    LinkMonitor(const LinkMonitor&) = delete;
    LinkMonitor& operator=(const LinkMonitor&) = delete;

    /// Start counting on every link of \p network (keep the monitor alive while it runs).
    void Install(const WanNetwork& network);
    /// Counters of \p edge in the direction leaving graph node \p from.
    const Counters& Get(uint32_t edge, uint32_t from) const;
    /// One LinkRecord per link direction that carried anything (all when \p all).
    std::vector<LinkRecord> Records(double durationS, bool all = false) const;
    /**
     * Whether \p frame (as a point-to-point device sends it: PPP header first) is a whole
     * IPv4 packet carrying model bytes, and how many (\p payloadBytes, set only then).
     */
    static bool ModelPayload(const Packet& frame, uint32_t& payloadBytes);

  private:
    static void Count(Counters& c, double rateBps, Ptr<const Packet> packet);

    const WanNetwork* m_network = nullptr;
    std::vector<Counters> m_counters; ///< Indexed by directed resource.
};

} // namespace ns3

#endif
