/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_PLANNED_ROUTING_H
#define INTELLIGENT_NETWORK_PLANNED_ROUTING_H

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief IPv4 forwarding from precomputed tables, with O(1) lookups per packet.
 *
 * Holds what RoutePlanner decided for one node (WanNetworkHelper fills it): unicast host
 * routes in a hash map keyed by destination address, and multicast routes in a hash map
 * keyed by (group, input interface), so the cost of forwarding a packet does not grow with
 * the number of destinations, groups or interfaces (ns-3's Ipv4StaticRouting scans a list of
 * host routes; Ipv4ListRouting and Ipv4L3Protocol::IsDestinationAddress scan the
 * interfaces). It is meant to be a node's only routing protocol (PlannedRoutingHelper with
 * InternetStackHelper::SetRoutingHelper) and then does everything itself:
 *
 * - local delivery: a packet for any address of the node (any interface: weak end system, as
 *   ns-3's default), or for a broadcast address of one of its interfaces, goes up the stack;
 *   a multicast packet goes up if the node joined its group (JoinGroup);
 * - unicast forwarding: host route of the destination address, else dropped (no default
 *   route: the planner knows every destination);
 * - multicast forwarding: the route of (group, input interface) replicates the packet on its
 *   output interfaces; a node that joined the group also gets a local copy (a router that
 *   hosts a receiver);
 * - locally originated packets (RouteOutput): the host route of the destination, or, for a
 *   group this node is the root of (AddLocalMulticastRoute), the output interface asked for
 *   (a socket bound to a device) or the first branch. The source address is the address of
 *   the output interface, as in ns-3's static routing; WanNetworkHelper makes every address
 *   of every node that sends routable.
 *
 * Routes can be cleared and reinstalled at any time (a reroute after a link failure). Added
 * to an Ipv4ListRouting instead, it behaves the same but the list's own checks run first.
 */
class PlannedRouting : public Ipv4RoutingProtocol
{
  public:
    static TypeId GetTypeId();
    PlannedRouting();
    ~PlannedRouting() override;

    /// Send packets for \p destination out of \p interface to the next hop \p gateway
    /// (replaces an existing route to \p destination; ignored for an address of this node,
    /// which is always delivered locally).
    void AddHostRoute(Ipv4Address destination, uint32_t interface, Ipv4Address gateway);
    /// Forward \p group arriving on \p inputInterface out of each of \p outputInterfaces.
    void AddMulticastRoute(Ipv4Address group,
                           uint32_t inputInterface,
                           const std::vector<uint32_t>& outputInterfaces);
    /// This node sources \p group: RouteOutput sends it out of one of \p outputInterfaces.
    void AddLocalMulticastRoute(Ipv4Address group, const std::vector<uint32_t>& outputInterfaces);
    /// Deliver packets of \p group to this node's sockets as well.
    void JoinGroup(Ipv4Address group);
    /// Remove every route and group membership.
    void Clear();

    std::size_t GetNHostRoutes() const;
    std::size_t GetNMulticastRoutes() const;
    /// The host route to \p destination, or nullptr.
    Ptr<Ipv4Route> LookupHostRoute(Ipv4Address destination) const;
    /// Build the host-route index now if routes changed since it was built (the first lookup
    /// after a change does it otherwise). Installers call it when they are done, so that the
    /// index of every node is not built, cold, by the run's first packets.
    void IndexHostRoutes() const;

    // Ipv4RoutingProtocol
    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    UnicastForwardCallback ucb,
                    MulticastForwardCallback mcb,
                    LocalDeliverCallback lcb,
                    ErrorCallback ecb) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                           Time::Unit unit = Time::S) const override;

  protected:
    void DoDispose() override;

  private:
    struct HostRoute
    {
        uint32_t interface;
        Ptr<Ipv4Route> route; ///< Prebuilt: destination, gateway, source, output device.
    };

    struct MulticastRoute
    {
        std::vector<uint32_t> outputs;
        Ptr<Ipv4MulticastRoute> route; ///< Prebuilt for Ipv4L3Protocol::IpMulticastForward.
    };

    static uint64_t MulticastKey(Ipv4Address group, uint32_t interface);
    /// A route leaving by \p interface towards \p destination via \p gateway.
    Ptr<Ipv4Route> MakeRoute(Ipv4Address destination,
                             uint32_t interface,
                             Ipv4Address gateway) const;
    /// Recompute the addresses delivered locally (interfaces that are up).
    void RebuildLocalAddresses();

    /// One slot of the host-route index: open addressing over a power-of-two table, each
    /// lookup one probe into contiguous memory in the common case (the node-based hash map
    /// costs a bucket, a node and the value: three cache misses per hop on a large network).
    struct HostSlot
    {
        uint32_t destination = 0;
        uint32_t interface = 0;
        Ipv4Route* route = nullptr; ///< Owned by m_hostRoutes; null: an empty slot.
    };

    /// The host route of \p destination (null: none), from the index (rebuilt after changes).
    const HostSlot* FindHost(uint32_t destination) const;
    /// Drop every route that uses \p interface (it went down).
    void RemoveRoutesVia(uint32_t interface);

    Ptr<Ipv4> m_ipv4;
    std::unordered_map<uint32_t, HostRoute> m_hostRoutes;           ///< By destination.
    std::unordered_map<uint64_t, MulticastRoute> m_multicastRoutes; ///< By (group, input).
    std::unordered_map<uint32_t, std::vector<uint32_t>> m_localMulticast; ///< Group -> outputs.
    std::unordered_set<uint32_t> m_groups;         ///< Groups delivered locally.
    std::unordered_set<uint32_t> m_localAddresses; ///< Unicast and broadcast, all interfaces.
    mutable std::vector<HostSlot> m_hostIndex; ///< Index of m_hostRoutes (FindHost).
    mutable uint32_t m_hostShift = 32;         ///< 32 - log2(table size).
    mutable bool m_hostIndexStale = true;      ///< m_hostRoutes changed since the index.
};

} // namespace ns3

#endif
