/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_MULTICAST_SENDER_H
#define INTELLIGENT_NETWORK_MULTICAST_SENDER_H

#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/socket.h"

#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Sends locally originated multicast out of several devices of a node.
 *
 * ns-3 (like Unix sockets) sources a multicast datagram on one interface only, chosen by the
 * unicast table. When a distribution tree branches at its root (an island or FPGA attached to
 * several next hops), the root must put one copy on each branch: this keeps one UDP socket
 * bound to each output device and sends a copy through each. One copy per tree edge, as the
 * routers do downstream.
 */
class MulticastSender
{
  public:
    /// Use \p node's devices.
    void SetNode(Ptr<Node> node);
    /// Send a copy of \p packet to \p group:\p port out of each device index in \p devices.
    void Send(Ptr<Packet> packet,
              Ipv4Address group,
              uint16_t port,
              const std::vector<uint32_t>& devices);
    /// IPv4 TOS byte of every copy sent (e.g. ECT(0) = 2 for ECN-capable packets).
    void SetIpTos(uint8_t tos);
    /// Close all sockets.
    void Close();

  private:
    Ptr<Node> m_node;
    std::map<uint32_t, Ptr<Socket>> m_sockets;
    uint8_t m_tos = 0;
};

} // namespace ns3

#endif
