/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_LINK_MONITOR_H
#define INTELLIGENT_NETWORK_LINK_MONITOR_H

#include "wan-network.h"

#include "ns3/ipv4-header.h"
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
 * Cheap per packet-hop: no packet is copied and no header is deserialised on the links. Where
 * a UDP packet enters IPv4 at its source (Ipv4L3Protocol's SendOutgoing trace), the monitor
 * reads the one type byte of the module's IslandHeader and, for model segments
 * (DATA/CONTRIBUTION/RESULT), tags the packet with its model payload (ModelPayloadTag); on
 * every link it crosses, the device trace only peeks that tag. The trace's callback holds its
 * link's counters and rate inline (one object per device, not ns-3's bound-argument chain of
 * three), so a packet-hop touches that object and one cache line of counters. Model bytes are
 * counted for
 * whole (unfragmented) packets, which is all the module sends (segments must fit the MTU).
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

  private:
    static void Count(Counters& c, double rateBps, Ptr<const Packet> packet);
    void OnSendOutgoing(const Ipv4Header& header, Ptr<const Packet> packet, uint32_t interface);

    const WanNetwork* m_network = nullptr;
    std::vector<Counters> m_counters; ///< Indexed by directed resource.
};

} // namespace ns3

#endif
