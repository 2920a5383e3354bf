/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "multicast-sender.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/udp-socket-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MulticastSender");

void
MulticastSender::SetNode(Ptr<Node> node)
{
    m_node = node;
}

void
MulticastSender::Send(Ptr<Packet> packet,
                      Ipv4Address group,
                      uint16_t port,
                      const std::vector<uint32_t>& devices)
{
    NS_ABORT_MSG_IF(!m_node, "MulticastSender: no node");
    for (std::size_t i = 0; i < devices.size(); ++i)
    {
        uint32_t dev = devices[i];
        auto it = m_sockets.find(dev);
        if (it == m_sockets.end())
        {
            Ptr<Socket> s = Socket::CreateSocket(m_node, UdpSocketFactory::GetTypeId());
            NS_ABORT_MSG_IF(s->Bind() != 0, "MulticastSender: cannot bind");
            s->BindToNetDevice(m_node->GetDevice(dev));
            it = m_sockets.emplace(dev, s).first;
        }
        Ptr<Packet> copy = i + 1 < devices.size() ? packet->Copy() : packet;
        // The TOS travels in the address: ns-3 3.37's UdpSocketImpl::SendTo ignores
        // Socket::SetIpTos.
        InetSocketAddress to(group, port);
        to.SetTos(m_tos);
        it->second->SendTo(copy, 0, to);
    }
}

void
MulticastSender::SetIpTos(uint8_t tos)
{
    m_tos = tos;
}

void
MulticastSender::Close()
{
    for (auto& [dev, s] : m_sockets)
    {
        s->Close();
    }
    m_sockets.clear();
    m_node = nullptr;
}

} // namespace ns3
