/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "indexed-ipv4-l3-protocol.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IndexedIpv4L3Protocol");
NS_OBJECT_ENSURE_REGISTERED(IndexedIpv4L3Protocol);

TypeId
IndexedIpv4L3Protocol::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IndexedIpv4L3Protocol")
                            .SetParent<Ipv4L3Protocol>()
                            .SetGroupName("IntelligentNetwork")
                            .AddConstructor<IndexedIpv4L3Protocol>();
    return tid;
}

uint32_t
IndexedIpv4L3Protocol::AddInterface(Ptr<NetDevice> device)
{
    uint32_t interface = Ipv4L3Protocol::AddInterface(device);
    const uint32_t index = device->GetIfIndex();
    if (index >= m_byDeviceIndex.size())
    {
        m_byDeviceIndex.resize(index + 1);
    }
    m_byDeviceIndex[index] = Slot{PeekPointer(device), static_cast<int32_t>(interface)};
    NS_LOG_LOGIC("device " << index << " -> interface " << interface);
    return interface;
}

int32_t
IndexedIpv4L3Protocol::GetInterfaceForDevice(Ptr<const NetDevice> device) const
{
    const uint32_t index = device->GetIfIndex();
    if (index < m_byDeviceIndex.size() && m_byDeviceIndex[index].device == PeekPointer(device))
    {
        return m_byDeviceIndex[index].interface;
    }
    // The loopback interface (added by Ipv4L3Protocol itself), another node's device, or
    // none: ns-3's own map answers.
    return Ipv4L3Protocol::GetInterfaceForDevice(device);
}

void
IndexedIpv4L3Protocol::DoDispose()
{
    m_byDeviceIndex.clear();
    Ipv4L3Protocol::DoDispose();
}

} // namespace ns3
