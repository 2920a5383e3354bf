/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_INDEXED_IPV4_L3_PROTOCOL_H
#define INTELLIGENT_NETWORK_INDEXED_IPV4_L3_PROTOCOL_H

#include "ns3/ipv4-l3-protocol.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief ns-3's Ipv4L3Protocol with the interface of a device found by the device's index.
 *
 * Ipv4L3Protocol::GetInterfaceForDevice looks the device up in a std::map keyed by pointer,
 * and IPv4 asks it twice per packet-hop (Receive for the incoming device, IpForward for the
 * outgoing one). On a node with one device per link (an internet node of a 64-city mesh has
 * about 70) that is two walks down a tree of about seven cold nodes per packet-hop, a cost
 * that grows with the network. This subclass keeps, beside ns-3's map, a vector indexed by
 * the device's index on the node (NetDevice::GetIfIndex): one slot per lookup. Everything else
 * is ns-3's Ipv4L3Protocol (attributes, trace sources, GetObject<Ipv4L3Protocol>, Config paths
 * with $ns3::Ipv4L3Protocol). WanNetworkHelper aggregates it to every node before
 * InternetStackHelper::Install, which then keeps it instead of creating an Ipv4L3Protocol.
 */
class IndexedIpv4L3Protocol : public Ipv4L3Protocol
{
  public:
    static TypeId GetTypeId();

    uint32_t AddInterface(Ptr<NetDevice> device) override;
    int32_t GetInterfaceForDevice(Ptr<const NetDevice> device) const override;

  protected:
    void DoDispose() override;

  private:
    struct Slot
    {
        const NetDevice* device = nullptr;
        int32_t interface = -1;
    };

    std::vector<Slot> m_byDeviceIndex; ///< Indexed by NetDevice::GetIfIndex on this node.
};

} // namespace ns3

#endif
