/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "receive-dispatch.h"

#include "ns3/arp-l3-protocol.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReceiveDispatch");
NS_OBJECT_ENSURE_REGISTERED(ReceiveDispatch);

TypeId
ReceiveDispatch::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ReceiveDispatch")
                            .SetParent<Object>()
                            .SetGroupName("IntelligentNetwork")
                            .AddConstructor<ReceiveDispatch>();
    return tid;
}

Ptr<ReceiveDispatch>
ReceiveDispatch::Install(Ptr<Node> node)
{
    Ptr<Ipv4L3Protocol> ipv4 = node->GetObject<Ipv4L3Protocol>();
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    if (!ipv4 || !tc || node->GetObject<Ipv6>() || node->GetObject<ReceiveDispatch>())
    {
        return nullptr;
    }
    Ptr<ReceiveDispatch> d = CreateObject<ReceiveDispatch>();
    d->m_ipv4 = ipv4;
    d->m_tc = tc;
    d->m_devices.assign(node->GetNDevices(), nullptr);
    // Ipv4L3Protocol::AddInterface registered TrafficControlLayer::Receive twice per
    // non-loopback interface (IPv4, ARP), and nothing else registers it without IPv6:
    // Node::UnregisterProtocolHandler removes one such entry per call.
    const Node::ProtocolHandler tcReceive = MakeCallback(&TrafficControlLayer::Receive, tc);
    for (uint32_t i = 0; i < ipv4->GetNInterfaces(); ++i)
    {
        Ptr<NetDevice> dev = ipv4->GetNetDevice(i);
        if (DynamicCast<LoopbackNetDevice>(dev) || dev->GetNode() != node)
        {
            continue;
        }
        node->UnregisterProtocolHandler(tcReceive);
        node->UnregisterProtocolHandler(tcReceive);
        d->m_devices.at(dev->GetIfIndex()) = dev;
    }
    node->AggregateObject(d);
    // A raw pointer: the node owns the dispatcher (aggregate) and clears its handlers on
    // disposal.
    node->RegisterProtocolHandler(MakeCallback(&ReceiveDispatch::Receive, PeekPointer(d)),
                                  0,
                                  nullptr);
    NS_LOG_LOGIC("node " << node->GetId() << ": one handler for " << d->GetNDevices()
                         << " devices");
    return d;
}

uint32_t
ReceiveDispatch::GetNDevices() const
{
    return static_cast<uint32_t>(
        std::count_if(m_devices.begin(), m_devices.end(), [](const auto& d) { return bool(d); }));
}

void
ReceiveDispatch::Receive(Ptr<NetDevice> device,
                         Ptr<const Packet> packet,
                         uint16_t protocol,
                         const Address& from,
                         const Address& to,
                         NetDevice::PacketType type)
{
    const uint32_t index = device->GetIfIndex();
    if (index >= m_devices.size() || m_devices[index] != device)
    {
        return; // not one of ours: the handlers ns-3 registered for it deliver it
    }
    if (protocol == Ipv4L3Protocol::PROT_NUMBER)
    {
        m_ipv4->Receive(device, packet, protocol, from, to, type);
    }
    else if (protocol == ArpL3Protocol::PROT_NUMBER)
    {
        m_tc->Receive(device, packet, protocol, from, to, type);
    }
}

void
ReceiveDispatch::DoDispose()
{
    m_ipv4 = nullptr;
    m_tc = nullptr;
    m_devices.clear();
    Object::DoDispose();
}

} // namespace ns3
