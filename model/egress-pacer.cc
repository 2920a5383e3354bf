/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "egress-pacer.h"

#include "island-header.h"
#include "wire-format.h"

#include "ns3/data-rate.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EgressPacer");

void
EgressPacer::SetNode(Ptr<Node> node, double fraction)
{
    m_node = node;
    m_fraction = fraction;
}

uint64_t
EgressPacer::GetDeferred() const
{
    return m_deferred;
}

Time
EgressPacer::Backoff(Ptr<Node> node, Ptr<NetDevice> dev, double fraction, uint32_t wireBytes)
{
    Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(dev);
    if (!p2p)
    {
        return Time(0);
    }
    Ptr<Queue<Packet>> queue = p2p->GetQueue();
    uint64_t backlog = queue->GetNPackets();
    uint64_t capacity = queue->GetMaxSize().GetValue();
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    Ptr<QueueDisc> qd = tc ? tc->GetRootQueueDiscOnDevice(dev) : nullptr;
    if (qd)
    {
        backlog = qd->GetNPackets();
        capacity = qd->GetMaxSize().GetValue();
    }
    if (static_cast<double>(backlog) < fraction * static_cast<double>(capacity))
    {
        return Time(0);
    }
    DataRateValue rate;
    p2p->GetAttribute("DataRate", rate);
    return std::max(rate.Get().CalculateBytesTxTime(wireBytes), NanoSeconds(1));
}

Ptr<NetDevice>
EgressPacer::Egress(Ipv4Address to)
{
    auto it = m_routes.find(to);
    // Routes change only on a reroute: look the device up again every 10 ms.
    if (it != m_routes.end() && Simulator::Now() - it->second.second <= MilliSeconds(10))
    {
        return it->second.first;
    }
    Ptr<NetDevice> dev;
    Ptr<Ipv4> ipv4 = m_node ? m_node->GetObject<Ipv4>() : nullptr;
    if (ipv4 && ipv4->GetRoutingProtocol())
    {
        Ipv4Header header;
        header.SetDestination(to);
        header.SetProtocol(17);
        Socket::SocketErrno err;
        Ptr<Ipv4Route> route =
            ipv4->GetRoutingProtocol()->RouteOutput(Create<Packet>(), header, nullptr, err);
        if (route)
        {
            dev = route->GetOutputDevice();
        }
    }
    m_routes[to] = {dev, Simulator::Now()};
    return dev;
}

void
EgressPacer::Send(Ptr<Socket> socket, Ptr<Packet> packet, const InetSocketAddress& to, bool restamp)
{
    Pending p{socket, packet, to, restamp};
    if (m_fraction >= 1 || !m_node)
    {
        Transmit(p); // no local flow control
        return;
    }
    Ptr<NetDevice> dev = Egress(to.GetIpv4());
    if (!dev)
    {
        Transmit(p); // no route: the stack reports it as it would have
        return;
    }
    std::deque<Pending>& waiting = m_waiting[dev];
    if (waiting.empty())
    {
        Time wait = Backoff(m_node, dev, m_fraction,
                            static_cast<uint32_t>(WireFormat::WireBytes(packet->GetSize()) -
                                                  WireFormat::kIslandHeaderBytes));
        if (wait.IsZero())
        {
            Transmit(p);
            return;
        }
        m_retry[dev] = Simulator::Schedule(wait, &EgressPacer::Drain, this, dev);
    }
    ++m_deferred;
    waiting.push_back(p);
}

void
EgressPacer::Drain(Ptr<NetDevice> dev)
{
    std::deque<Pending>& waiting = m_waiting[dev];
    while (!waiting.empty())
    {
        Time wait =
            Backoff(m_node, dev, m_fraction,
                    static_cast<uint32_t>(WireFormat::WireBytes(waiting.front().packet->GetSize()) -
                                          WireFormat::kIslandHeaderBytes));
        if (!wait.IsZero())
        {
            m_retry[dev] = Simulator::Schedule(wait, &EgressPacer::Drain, this, dev);
            return;
        }
        Pending p = waiting.front();
        waiting.pop_front();
        if (p.restamp)
        {
            IslandHeader h;
            p.packet->RemoveHeader(h);
            h.timestamp = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
            p.packet->AddHeader(h);
        }
        Transmit(p);
    }
}

void
EgressPacer::Transmit(Pending& p)
{
    p.socket->SendTo(p.packet, 0, p.to);
}

void
EgressPacer::Clear()
{
    for (auto& [dev, ev] : m_retry)
    {
        ev.Cancel();
    }
    m_retry.clear();
    m_waiting.clear();
    m_routes.clear();
}

} // namespace ns3
