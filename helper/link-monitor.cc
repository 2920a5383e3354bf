/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "link-monitor.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/island-header.h"
#include "ns3/model-payload-tag.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/udp-l4-protocol.h"

#include <type_traits>

namespace ns3
{

void
LinkMonitor::Install(const WanNetwork& network)
{
    NS_ABORT_MSG_IF(m_network, "LinkMonitor::Install: installed already");
    m_network = &network;
    const NetworkGraph& g = network.Graph();
    m_counters.assign(g.ResourceCount(), Counters{});
    for (uint32_t n = 0; n < g.NodeCount(); ++n)
    {
        network.GetNode(n)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "SendOutgoing",
            MakeCallback(&LinkMonitor::OnSendOutgoing, this));
    }
    for (uint32_t e = 0; e < g.EdgeCount(); ++e)
    {
        const GraphEdge& edge = g.Edges()[e];
        uint32_t ends[2] = {edge.a, edge.b};
        for (int side = 0; side < 2; ++side)
        {
            Counters* c = &m_counters[g.Resource(e, ends[side])]; // never reallocated
            const double rateBps = edge.capacityBps;
            auto count = [c, rateBps](Ptr<const Packet> packet) { Count(*c, rateBps, packet); };
            // 16 trivially copyable bytes: std::function keeps them inside the CallbackImpl.
            static_assert(sizeof(count) <= 16 && std::is_trivially_copyable_v<decltype(count)>);
            Callback<void, Ptr<const Packet>> onTx(
                Create<CallbackImpl<void, Ptr<const Packet>>>(count, CallbackComponentVector{}));
            network.Edge(e).device[side]->TraceConnectWithoutContext("PhyTxBegin", onTx);
        }
    }
}

void
LinkMonitor::OnSendOutgoing(const Ipv4Header& header, Ptr<const Packet> packet, uint32_t)
{
    ModelPayloadTag tag;
    if (packet->PeekPacketTag(tag))
    {
        return;
    }
    if (header.GetProtocol() == TcpL4Protocol::PROT_NUMBER)
    {
        // The tcp transport: a segment's payload is the stream's bytes, the model's with its
        // messages' framing (TcpTransport: 28 bytes per message); acks carry none.
        uint8_t tcp[13];
        if (packet->GetSize() < 20)
        {
            return;
        }
        packet->CopyData(tcp, sizeof(tcp));
        const uint32_t tcpHeader = 4u * (tcp[12] >> 4);
        if (packet->GetSize() > tcpHeader)
        {
            packet->AddPacketTag(ModelPayloadTag(packet->GetSize() - tcpHeader,
                                                 packet->GetSize() + header.GetSerializedSize()));
        }
        return;
    }
    // The packet holds the UDP header, the IslandHeader (type first) and the payload.
    const uint32_t headers = 8 + IslandHeader::SERIALIZED_SIZE;
    if (header.GetProtocol() != UdpL4Protocol::PROT_NUMBER || packet->GetSize() < headers)
    {
        return;
    }
    uint8_t bytes[9];
    packet->CopyData(bytes, sizeof(bytes)); // nine bytes, not the packet
    uint8_t type = bytes[8];
    if (type == IslandHeader::DATA || type == IslandHeader::CONTRIBUTION ||
        type == IslandHeader::RESULT)
    {
        packet->AddPacketTag(ModelPayloadTag(packet->GetSize() - headers,
                                             packet->GetSize() + header.GetSerializedSize()));
    }
}

void
LinkMonitor::Count(Counters& c, double rateBps, Ptr<const Packet> packet)
{
    uint32_t size = packet->GetSize();
    c.bytes += size;
    c.packets += 1;
    c.busyS += size * 8.0 / rateBps;
    ModelPayloadTag tag;
    // The PPP header (2 bytes) precedes IPv4 here; a fragment is smaller than its packet.
    if (packet->PeekPacketTag(tag) && size == tag.GetIpBytes() + 2)
    {
        c.dataPackets += 1;
        c.dataPayloadBytes += tag.GetPayloadBytes();
    }
}

const LinkMonitor::Counters&
LinkMonitor::Get(uint32_t edge, uint32_t from) const
{
    return m_counters.at(m_network->Graph().Resource(edge, from));
}

std::vector<LinkRecord>
LinkMonitor::Records(double durationS, bool all) const
{
    std::vector<LinkRecord> out;
    const NetworkGraph& g = m_network->Graph();
    for (uint32_t e = 0; e < g.EdgeCount(); ++e)
    {
        const GraphEdge& edge = g.Edges()[e];
        uint32_t ends[2] = {edge.a, edge.b};
        for (int side = 0; side < 2; ++side)
        {
            const Counters& c = m_counters[g.Resource(e, ends[side])];
            if (c.packets == 0 && !all)
            {
                continue;
            }
            out.push_back(LinkRecord{g.EdgeName(e),
                                     NetworkGraph::KindName(edge.kind),
                                     g.Nodes()[ends[side]].name,
                                     g.Nodes()[ends[1 - side]].name,
                                     edge.capacityBps,
                                     c.bytes,
                                     c.packets,
                                     c.dataPayloadBytes,
                                     c.busyS,
                                     durationS > 0 ? c.busyS / durationS : 0.0});
        }
    }
    return out;
}

} // namespace ns3
