/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "link-monitor.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/island-header.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/wire-format.h"

#include <algorithm>
#include <type_traits>

namespace ns3
{

namespace
{

constexpr uint8_t kIpv4Protocol = 0x21; ///< PPP's protocol number of IPv4 (0x0021).
constexpr uint32_t kMaxIpv4Bytes = 60;  ///< An IPv4 header with the most options (IHL 15).
constexpr uint32_t kTcpHead = 13;       ///< A TCP header up to its data offset (byte 12).
/// The frame's first bytes that hold what is read of it with an IPv4 header without options:
/// PPP, IPv4 and TCP up to its data offset, or UDP and the island header's type.
constexpr uint32_t kShortHead = WireFormat::kPppBytes + WireFormat::kIpv4Bytes + kTcpHead;

} // namespace

void
LinkMonitor::Install(const WanNetwork& network)
{
    NS_ABORT_MSG_IF(m_network, "LinkMonitor::Install: installed already");
    m_network = &network;
    const NetworkGraph& g = network.Graph();
    m_counters.assign(g.ResourceCount(), Counters{});
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

bool
LinkMonitor::ModelPayload(const Packet& frame, uint32_t& payloadBytes)
{
    // The frame's head as the device sends it: PPP header, IPv4 header, transport header and,
    // for UDP, the island header (type first). Copied out, a few dozen bytes (not the packet).
    uint8_t head[WireFormat::kPppBytes + kMaxIpv4Bytes + kTcpHead];
    const uint32_t size = frame.GetSize();
    uint32_t got = frame.CopyData(head, std::min(size, kShortHead));
    if (got < WireFormat::kPppBytes + WireFormat::kIpv4Bytes || head[0] != 0 ||
        head[1] != kIpv4Protocol)
    {
        return false;
    }
    const uint8_t* ip = head + WireFormat::kPppBytes;
    const uint32_t ipHeader = 4u * (ip[0] & 0x0f);
    const uint32_t ipBytes = (uint32_t(ip[2]) << 8) | ip[3];
    const bool fragment = (ip[6] & 0x20) != 0 || (((ip[6] & 0x1f) << 8) | ip[7]) != 0;
    if (fragment || ipHeader < WireFormat::kIpv4Bytes || ipBytes < ipHeader ||
        ipBytes > size - WireFormat::kPppBytes)
    {
        return false; // model bytes are counted for whole packets only
    }
    if (ipHeader > WireFormat::kIpv4Bytes)
    {
        got = frame.CopyData(head,
                             std::min<uint32_t>(size, WireFormat::kPppBytes + ipHeader + kTcpHead));
    }
    const uint8_t* l4 = ip + ipHeader;
    const uint32_t l4Bytes = ipBytes - ipHeader;
    if (ip[9] == UdpL4Protocol::PROT_NUMBER)
    {
        // The module's UDP transports: UDP header, IslandHeader, model bytes.
        const uint32_t headers = WireFormat::kUdpBytes + IslandHeader::SERIALIZED_SIZE;
        if (l4Bytes < headers || got < WireFormat::kPppBytes + ipHeader + WireFormat::kUdpBytes + 1)
        {
            return false;
        }
        const uint8_t type = l4[WireFormat::kUdpBytes];
        if (type != IslandHeader::DATA && type != IslandHeader::CONTRIBUTION &&
            type != IslandHeader::RESULT)
        {
            return false;
        }
        payloadBytes = l4Bytes - headers;
        return true;
    }
    if (ip[9] == TcpL4Protocol::PROT_NUMBER && got >= WireFormat::kPppBytes + ipHeader + kTcpHead)
    {
        // The tcp transport: a segment's payload is the stream's bytes, the model's with its
        // messages' framing (TcpTransport: 28 bytes per message); acks carry none.
        const uint32_t tcpHeader = 4u * (l4[12] >> 4);
        if (l4Bytes > tcpHeader)
        {
            payloadBytes = l4Bytes - tcpHeader;
            return true;
        }
    }
    return false;
}

void
LinkMonitor::Count(Counters& c, double rateBps, Ptr<const Packet> packet)
{
    uint32_t size = packet->GetSize();
    c.bytes += size;
    c.packets += 1;
    c.busyS += size * 8.0 / rateBps;
    uint32_t payload = 0;
    if (ModelPayload(*packet, payload))
    {
        c.dataPackets += 1;
        c.dataPayloadBytes += payload;
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
