/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "link-monitor.h"

#include "ns3/ipv4-header.h"
#include "ns3/island-header.h"
#include "ns3/ppp-header.h"
#include "ns3/udp-header.h"

namespace ns3
{

void
LinkMonitor::Install(const WanNetwork& network)
{
    m_network = &network;
    const NetworkGraph& g = network.Graph();
    m_counters.assign(g.ResourceCount(), Counters{});
    for (uint32_t e = 0; e < g.EdgeCount(); ++e)
    {
        const GraphEdge& edge = g.Edges()[e];
        uint32_t ends[2] = {edge.a, edge.b};
        for (int side = 0; side < 2; ++side)
        {
            uint32_t resource = g.Resource(e, ends[side]);
            network.Edge(e).device[side]->TraceConnectWithoutContext(
                "PhyTxBegin",
                MakeCallback(&LinkMonitor::OnTx, this).Bind(resource, edge.capacityBps));
        }
    }
}

void
LinkMonitor::OnTx(uint32_t resource, double rateBps, Ptr<const Packet> packet)
{
    Counters& c = m_counters[resource];
    uint32_t size = packet->GetSize();
    c.bytes += size;
    c.packets += 1;
    c.busyS += size * 8.0 / rateBps;
    const uint32_t headers = 2 + 20 + 8 + IslandHeader::SERIALIZED_SIZE;
    if (size < headers)
    {
        return;
    }
    Ptr<Packet> copy = packet->Copy();
    PppHeader ppp;
    Ipv4Header ip;
    UdpHeader udp;
    IslandHeader island;
    copy->RemoveHeader(ppp);
    copy->RemoveHeader(ip);
    if (ip.GetProtocol() != 17 || ip.GetFragmentOffset() != 0)
    {
        return;
    }
    copy->RemoveHeader(udp);
    copy->RemoveHeader(island);
    if (island.type == IslandHeader::DATA || island.type == IslandHeader::CONTRIBUTION ||
        island.type == IslandHeader::RESULT)
    {
        c.dataPackets += 1;
        c.dataPayloadBytes += copy->GetSize();
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
