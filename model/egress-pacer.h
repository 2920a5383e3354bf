/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_EGRESS_PACER_H
#define INTELLIGENT_NETWORK_EGRESS_PACER_H

#include "ns3/event-id.h"
#include "ns3/inet-socket-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/socket.h"

#include <deque>
#include <map>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Local flow control for packets sent outside a paced stream: repair requests, resent
 * (partial) sums and their redundant copies, which a member or an FPGA sends in bursts.
 *
 * A host does not drop its own packets (TCP Small Queues, qdisc back-pressure), and an FPGA
 * holds what it sends until its port can take it. A packet leaves at once while the egress
 * queue of the device it leaves by (device queue plus queue discipline) holds less than
 * \p fraction of its capacity; otherwise it waits, in order with the packets to the same
 * device, and the queue is tried again one packet time later. Before, a member that learnt at
 * the root's end-of-sums marker that 488 sums were lost sent 2440 requests (5 copies each) into
 * its 2000-packet device queue at one instant: the last 440, every copy of the requests for the
 * highest sums, were dropped by its own queue.
 */
class EgressPacer
{
  public:
    /// Send from \p node's devices; a packet waits while its device's queue holds at least
    /// \p fraction of its capacity.
    void SetNode(Ptr<Node> node, double fraction);
    /// Send \p packet from \p socket to \p to, now if the device's queue has room, else once it
    /// has. \p restamp: a packet that had to wait gets its IslandHeader's timestamp set to the
    /// time it leaves (one-way delays measured from it then exclude the wait here).
    void Send(Ptr<Socket> socket, Ptr<Packet> packet, const InetSocketAddress& to, bool restamp);
    /// Drop whatever still waits and cancel the retries.
    void Clear();
    /// Packets that had to wait (a burst larger than the queue's free share).
    uint64_t GetDeferred() const;
    /// How long a packet must wait before \p dev's egress queue on \p node holds less than
    /// \p fraction of its capacity (zero: send now); one transmission time of
    /// \p wireBytes at the device's rate when it is full. Point-to-point devices only.
    static Time Backoff(Ptr<Node> node, Ptr<NetDevice> dev, double fraction, uint32_t wireBytes);

  private:
    struct Pending
    {
        Ptr<Socket> socket;
        Ptr<Packet> packet;
        InetSocketAddress to;
        bool restamp;
    };
    /// The device a unicast packet to \p to leaves this node by (null: none known).
    Ptr<NetDevice> Egress(Ipv4Address to);
    void Drain(Ptr<NetDevice> dev);
    static void Transmit(Pending& p);

    Ptr<Node> m_node;
    double m_fraction = 0.5;
    std::map<Ptr<NetDevice>, std::deque<Pending>> m_waiting;
    std::map<Ptr<NetDevice>, EventId> m_retry;
    /// Destination -> egress device and when it was looked up (routes change on a reroute).
    std::map<Ipv4Address, std::pair<Ptr<NetDevice>, Time>> m_routes;
    uint64_t m_deferred = 0;
};

} // namespace ns3

#endif // INTELLIGENT_NETWORK_EGRESS_PACER_H
