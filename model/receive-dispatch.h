/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_RECEIVE_DISPATCH_H
#define INTELLIGENT_NETWORK_RECEIVE_DISPATCH_H

#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Ipv4L3Protocol;
class TrafficControlLayer;

/**
 * \ingroup intelligent-network
 * \brief Hands a node's received frames to IPv4 with one protocol handler for all its devices.
 *
 * ns-3 3.37's Ipv4L3Protocol::AddInterface registers two protocol handlers on the node per
 * interface (IPv4 and ARP, each bound to its device), and Node::ReceiveFromDevice scans that
 * list for every frame received, as TrafficControlLayer::Receive scans its own; on a node
 * with one device per link (an internet node of a 64-city mesh has about 70) that is two scans
 * of about 140 entries per packet-hop, a cost that grows with the network. Install() replaces the
 * node's per-device pairs by this one handler, which looks the device up by its index:
 * IPv4 frames go straight to Ipv4L3Protocol::Receive (what TrafficControlLayer::Receive
 * would call: ns-3 3.37 has no ingress queue discs), ARP frames to TrafficControlLayer::Receive
 * as before. Packets, their order and their timing are unchanged.
 *
 * Devices that get an IPv4 interface after Install() keep ns-3's own handlers (the dispatcher
 * ignores them), and so does the loopback device (Ipv4L3Protocol registers it directly).
 */
class ReceiveDispatch : public Object
{
  public:
    static TypeId GetTypeId();

    /// Replaces the per-device IPv4/ARP handlers of \p node (with Ipv4L3Protocol and
    /// TrafficControlLayer, without IPv6) by one dispatcher, aggregated to the node.
    /// Returns the dispatcher, or null if the node is not eligible (no IPv4, IPv6
    /// installed) or already has one.
    static Ptr<ReceiveDispatch> Install(Ptr<Node> node);

    /// Devices whose frames it dispatches.
    uint32_t GetNDevices() const;

  protected:
    void DoDispose() override;

  private:
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType type);

    Ptr<Ipv4L3Protocol> m_ipv4;
    Ptr<TrafficControlLayer> m_tc;
    std::vector<Ptr<NetDevice>> m_devices; ///< By the device's index on the node (null: not ours).
};

} // namespace ns3

#endif
