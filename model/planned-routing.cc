/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "planned-routing.h"

#include "ns3/log.h"
#include "ns3/names.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <iomanip>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PlannedRouting");
NS_OBJECT_ENSURE_REGISTERED(PlannedRouting);

TypeId
PlannedRouting::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PlannedRouting")
                            .SetParent<Ipv4RoutingProtocol>()
                            .SetGroupName("IntelligentNetwork")
                            .AddConstructor<PlannedRouting>();
    return tid;
}

PlannedRouting::PlannedRouting() = default;
PlannedRouting::~PlannedRouting() = default;

void
PlannedRouting::DoDispose()
{
    Clear();
    m_localAddresses.clear();
    m_ipv4 = nullptr;
    Ipv4RoutingProtocol::DoDispose();
}

uint64_t
PlannedRouting::MulticastKey(Ipv4Address group, uint32_t interface)
{
    return (static_cast<uint64_t>(group.Get()) << 32) | interface;
}

Ptr<Ipv4Route>
PlannedRouting::MakeRoute(Ipv4Address destination, uint32_t interface, Ipv4Address gateway) const
{
    NS_ABORT_MSG_UNLESS(m_ipv4, "PlannedRouting: no IPv4 stack yet");
    NS_ABORT_MSG_UNLESS(interface < m_ipv4->GetNInterfaces(),
                        "PlannedRouting: no interface " << interface);
    Ptr<Ipv4Route> r = Create<Ipv4Route>();
    r->SetDestination(destination);
    r->SetGateway(gateway);
    r->SetOutputDevice(m_ipv4->GetNetDevice(interface));
    // The output interface's (first) address, as ns-3's static routing does.
    r->SetSource(m_ipv4->GetNAddresses(interface) > 0 ? m_ipv4->GetAddress(interface, 0).GetLocal()
                                                      : Ipv4Address::GetAny());
    return r;
}

void
PlannedRouting::AddHostRoute(Ipv4Address destination, uint32_t interface, Ipv4Address gateway)
{
    NS_LOG_FUNCTION(this << destination << interface << gateway);
    if (m_localAddresses.count(destination.Get()))
    {
        NS_LOG_WARN(destination << " is an address of this node: delivered locally, not routed");
        return;
    }
    m_hostRoutes[destination.Get()] = HostRoute{interface, MakeRoute(destination, interface, gateway)};
    m_hostIndexStale = true;
}

void
PlannedRouting::AddMulticastRoute(Ipv4Address group,
                                  uint32_t inputInterface,
                                  const std::vector<uint32_t>& outputInterfaces)
{
    NS_LOG_FUNCTION(this << group << inputInterface);
    NS_ABORT_MSG_UNLESS(group.IsMulticast(), group << " is not a multicast group");
    NS_ABORT_MSG_UNLESS(m_ipv4, "PlannedRouting: no IPv4 stack yet");
    Ptr<Ipv4MulticastRoute> r = Create<Ipv4MulticastRoute>();
    r->SetGroup(group);
    r->SetOrigin(Ipv4Address::GetAny());
    r->SetParent(inputInterface);
    for (uint32_t out : outputInterfaces)
    {
        NS_ABORT_MSG_UNLESS(out < m_ipv4->GetNInterfaces(), "PlannedRouting: no interface " << out);
        r->SetOutputTtl(out, Ipv4MulticastRoute::MAX_TTL - 1);
    }
    m_multicastRoutes[MulticastKey(group, inputInterface)] = MulticastRoute{outputInterfaces, r};
}

void
PlannedRouting::AddLocalMulticastRoute(Ipv4Address group,
                                       const std::vector<uint32_t>& outputInterfaces)
{
    NS_ABORT_MSG_UNLESS(group.IsMulticast(), group << " is not a multicast group");
    NS_ABORT_MSG_IF(outputInterfaces.empty(), "a multicast source needs an output interface");
    m_localMulticast[group.Get()] = outputInterfaces;
}

void
PlannedRouting::JoinGroup(Ipv4Address group)
{
    NS_ABORT_MSG_UNLESS(group.IsMulticast(), group << " is not a multicast group");
    m_groups.insert(group.Get());
}

void
PlannedRouting::Clear()
{
    m_hostRoutes.clear();
    m_hostIndexStale = true;
    m_multicastRoutes.clear();
    m_localMulticast.clear();
    m_groups.clear();
}

std::size_t
PlannedRouting::GetNHostRoutes() const
{
    return m_hostRoutes.size();
}

std::size_t
PlannedRouting::GetNMulticastRoutes() const
{
    return m_multicastRoutes.size();
}

Ptr<Ipv4Route>
PlannedRouting::LookupHostRoute(Ipv4Address destination) const
{
    const HostSlot* h = FindHost(destination.Get());
    return h ? Ptr<Ipv4Route>(h->route) : nullptr;
}

Ptr<Ipv4Route>
PlannedRouting::RouteOutput(Ptr<Packet> p,
                            const Ipv4Header& header,
                            Ptr<NetDevice> oif,
                            Socket::SocketErrno& sockerr)
{
    Ipv4Address dst = header.GetDestination();
    int32_t wanted = oif ? m_ipv4->GetInterfaceForDevice(oif) : -1;
    sockerr = Socket::ERROR_NOTERROR;
    if (dst.IsMulticast())
    {
        auto it = m_localMulticast.find(dst.Get());
        if (it != m_localMulticast.end())
        {
            const auto& outs = it->second;
            if (wanted < 0)
            {
                return MakeRoute(dst, outs.front(), Ipv4Address::GetAny());
            }
            if (std::find(outs.begin(), outs.end(), static_cast<uint32_t>(wanted)) != outs.end())
            {
                return MakeRoute(dst, static_cast<uint32_t>(wanted), Ipv4Address::GetAny());
            }
        }
        NS_LOG_LOGIC("no local multicast route for " << dst);
        sockerr = Socket::ERROR_NOROUTETOHOST;
        return nullptr;
    }
    const HostSlot* h = FindHost(dst.Get());
    if (h && (wanted < 0 || h->interface == static_cast<uint32_t>(wanted)))
    {
        return Ptr<Ipv4Route>(h->route);
    }
    bool loopback = (dst.Get() >> 24) == 127;
    if (loopback || m_localAddresses.count(dst.Get()))
    {
        // To itself: through the loopback interface (0), as ns-3's stack expects.
        Ptr<Ipv4Route> r = MakeRoute(dst, 0, Ipv4Address::GetAny());
        r->SetSource(loopback ? Ipv4Address::GetLoopback() : dst);
        return r;
    }
    NS_LOG_LOGIC("no route to " << dst);
    sockerr = Socket::ERROR_NOROUTETOHOST;
    return nullptr;
}

bool
PlannedRouting::RouteInput(Ptr<const Packet> p,
                           const Ipv4Header& header,
                           Ptr<const NetDevice> idev,
                           UnicastForwardCallback ucb,
                           MulticastForwardCallback mcb,
                           LocalDeliverCallback lcb,
                           ErrorCallback ecb)
{
    // By index on a WanNetwork node (IndexedIpv4L3Protocol): the slot IPv4's Receive just read.
    const int32_t iif = m_ipv4->GetInterfaceForDevice(idev);
    NS_ASSERT_MSG(iif >= 0, "PlannedRouting: packet from a device without IPv4");
    Ipv4Address dst = header.GetDestination();
    if (dst.IsMulticast())
    {
        bool handled = false;
        if (!lcb.IsNull() && m_groups.count(dst.Get()))
        {
            lcb(p, header, iif); // a router that also hosts a receiver of the group
            handled = true;
        }
        auto it = m_multicastRoutes.find(MulticastKey(dst, iif));
        if (it != m_multicastRoutes.end())
        {
            mcb(it->second.route, p, header);
            handled = true;
        }
        return handled;
    }
    // Transit first (one lookup per hop): no host route is ever kept for a local address.
    const HostSlot* h = FindHost(dst.Get());
    if (h)
    {
        if (!m_ipv4->IsForwarding(iif))
        {
            ecb(p, header, Socket::ERROR_NOROUTETOHOST);
            return true;
        }
        ucb(Ptr<Ipv4Route>(h->route), p, header);
        return true;
    }
    if (lcb.IsNull() || !(m_localAddresses.count(dst.Get()) || dst.IsBroadcast()))
    {
        return false; // no route: Ipv4L3Protocol drops it (DROP_NO_ROUTE)
    }
    lcb(p, header, iif);
    return true;
}

void
PlannedRouting::IndexHostRoutes() const
{
    if (m_hostIndexStale)
    {
        std::size_t size = 8;
        uint32_t shift = 29;
        while (size < 2 * m_hostRoutes.size())
        {
            size *= 2;
            --shift;
        }
        m_hostIndex.assign(size, HostSlot{});
        m_hostShift = shift;
        for (const auto& [dst, r] : m_hostRoutes)
        {
            std::size_t i = (dst * 2654435769u) >> m_hostShift;
            while (m_hostIndex[i].route)
            {
                i = (i + 1) & (size - 1);
            }
            m_hostIndex[i] = HostSlot{dst, r.interface, PeekPointer(r.route)};
        }
        m_hostIndexStale = false;
    }
}

const PlannedRouting::HostSlot*
PlannedRouting::FindHost(uint32_t destination) const
{
    IndexHostRoutes();
    // At most half full: a probe sequence always ends at an empty slot.
    const std::size_t mask = m_hostIndex.size() - 1;
    for (std::size_t i = (destination * 2654435769u) >> m_hostShift;; i = (i + 1) & mask)
    {
        const HostSlot& slot = m_hostIndex[i];
        if (!slot.route)
        {
            return nullptr;
        }
        if (slot.destination == destination)
        {
            return &slot;
        }
    }
}

void
PlannedRouting::RebuildLocalAddresses()
{
    m_localAddresses.clear();
    if (!m_ipv4)
    {
        return;
    }
    for (uint32_t i = 0; i < m_ipv4->GetNInterfaces(); ++i)
    {
        if (!m_ipv4->IsUp(i))
        {
            continue;
        }
        for (uint32_t j = 0; j < m_ipv4->GetNAddresses(i); ++j)
        {
            Ipv4InterfaceAddress a = m_ipv4->GetAddress(i, j);
            m_localAddresses.insert(a.GetLocal().Get());
            m_localAddresses.insert(a.GetBroadcast().Get());
        }
    }
}

void
PlannedRouting::RemoveRoutesVia(uint32_t interface)
{
    for (auto it = m_hostRoutes.begin(); it != m_hostRoutes.end();)
    {
        it = it->second.interface == interface ? m_hostRoutes.erase(it) : std::next(it);
    }
    m_hostIndexStale = true;
    for (auto it = m_multicastRoutes.begin(); it != m_multicastRoutes.end();)
    {
        const auto& outs = it->second.outputs;
        bool uses = it->second.route->GetParent() == interface ||
                    std::find(outs.begin(), outs.end(), interface) != outs.end();
        it = uses ? m_multicastRoutes.erase(it) : std::next(it);
    }
}

void
PlannedRouting::NotifyInterfaceUp(uint32_t interface)
{
    // Incremental (a node with n interfaces comes up in O(n), not O(n^2)).
    for (uint32_t j = 0; j < m_ipv4->GetNAddresses(interface); ++j)
    {
        NotifyAddAddress(interface, m_ipv4->GetAddress(interface, j));
    }
}

void
PlannedRouting::NotifyInterfaceDown(uint32_t interface)
{
    RebuildLocalAddresses();
    RemoveRoutesVia(interface);
}

void
PlannedRouting::NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address)
{
    if (m_ipv4 && m_ipv4->IsUp(interface))
    {
        m_localAddresses.insert(address.GetLocal().Get()); // no rescan: O(1) per address
        m_localAddresses.insert(address.GetBroadcast().Get());
    }
}

void
PlannedRouting::NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address)
{
    RebuildLocalAddresses();
}

void
PlannedRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    NS_ASSERT(ipv4);
    m_ipv4 = ipv4;
    RebuildLocalAddresses();
}

void
PlannedRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit) const
{
    std::ostream& os = *stream->GetStream();
    os << "Node: " << m_ipv4->GetObject<Node>()->GetId() << ", Time: " << Now().As(unit)
       << ", PlannedRouting: " << m_hostRoutes.size() << " host routes, "
       << m_multicastRoutes.size() << " multicast routes\n";
    std::map<uint32_t, const HostRoute*> hosts; // sorted for a readable table
    for (const auto& [dst, r] : m_hostRoutes)
    {
        hosts[dst] = &r;
    }
    for (const auto& [dst, r] : hosts)
    {
        os << "  " << std::left << std::setw(16) << Ipv4Address(dst) << " via " << std::setw(16)
           << r->route->GetGateway() << " if " << r->interface << "\n";
    }
    std::map<uint64_t, const MulticastRoute*> groups;
    for (const auto& [key, r] : m_multicastRoutes)
    {
        groups[key] = &r;
    }
    for (const auto& [key, r] : groups)
    {
        os << "  " << std::left << std::setw(16) << Ipv4Address(static_cast<uint32_t>(key >> 32))
           << " from if " << (key & 0xffffffffu) << " to if";
        for (uint32_t out : r->outputs)
        {
            os << " " << out;
        }
        os << (m_groups.count(static_cast<uint32_t>(key >> 32)) ? " (+local)" : "") << "\n";
    }
}

} // namespace ns3
