/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "wan-network-helper.h"

#include "ns3/arp-l3-protocol.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/fifo-point-to-point-channel.h"
#include "ns3/indexed-ipv4-l3-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/packet-socket-factory.h"
#include "ns3/planned-routing-helper.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/pointer.h"
#include "ns3/queue.h"
#include "ns3/receive-dispatch.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanNetworkHelper");

WanNetworkHelper::WanNetworkHelper()
{
    m_deviceFactory.SetTypeId("ns3::PointToPointNetDevice");
    m_queueFactory.SetTypeId("ns3::DropTailQueue<Packet>");
    m_channelFactory.SetTypeId(FifoPointToPointChannel::GetTypeId());
}

void
WanNetworkHelper::SetChannelType(const std::string& type)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(type, &tid) ||
        (tid != PointToPointChannel::GetTypeId() &&
         !tid.IsChildOf(PointToPointChannel::GetTypeId())))
    {
        throw std::invalid_argument("WanNetworkHelper: channel type '" + type +
                                    "' is not ns3::PointToPointChannel or a subclass of it");
    }
    m_channelFactory.SetTypeId(tid);
}

std::string
WanNetworkHelper::ChannelTypeOf(const std::string& kind)
{
    if (kind == "fifo")
    {
        return FifoPointToPointChannel::GetTypeId().GetName();
    }
    if (kind == "ns3")
    {
        return PointToPointChannel::GetTypeId().GetName();
    }
    throw std::invalid_argument("WanNetworkHelper: unknown channel '" + kind +
                                "' (fifo or ns3)");
}

void
WanNetworkHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
WanNetworkHelper::SetQueue(const std::string& type,
                           const std::string& name,
                           const AttributeValue& value)
{
    m_queueFactory.SetTypeId(type);
    if (!name.empty())
    {
        m_queueFactory.Set(name, value);
    }
}

WanNetwork
WanNetworkHelper::Install(const NetworkGraph& graph) const
{
    WanNetwork net;
    net.m_graph = graph;
    net.m_nodes.Create(graph.NodeCount());

    // ns-3 3.37's InternetStackHelper::Install (IPv4 only), step by step in its order (so that
    // every object and random stream is made as before), with IndexedIpv4L3Protocol where it
    // creates an Ipv4L3Protocol: the device -> interface lookup an index, not a map walk. The
    // helper itself refuses a node that has IPv4 already.
    PlannedRoutingHelper planned;
    auto aggregate = [](Ptr<Node> node, const std::string& type) {
        ObjectFactory factory;
        factory.SetTypeId(type);
        node->AggregateObject(factory.Create<Object>());
    };
    for (uint32_t n = 0; n < graph.NodeCount(); ++n)
    {
        Ptr<Node> node = net.m_nodes.Get(n);
        aggregate(node, "ns3::ArpL3Protocol");
        aggregate(node, IndexedIpv4L3Protocol::GetTypeId().GetName());
        aggregate(node, "ns3::Icmpv4L4Protocol");
        node->GetObject<Ipv4>()->SetRoutingProtocol(planned.Create(node));
        aggregate(node, "ns3::TrafficControlLayer");
        aggregate(node, "ns3::UdpL4Protocol");
        aggregate(node, "ns3::TcpL4Protocol");
        node->AggregateObject(CreateObject<PacketSocketFactory>());
        node->GetObject<ArpL3Protocol>()->SetTrafficControl(node->GetObject<TrafficControlLayer>());
    }

    // Link e is the /30 network 10.0.0.0 + 4e (what Ipv4AddressHelper("10.0.0.0",
    // "255.255.255.252") with NewNetwork() per link gives), its ends .1 and .2, assigned
    // directly: ns-3's address generator checks every new address against a list of all those
    // allocated, which is quadratic in the links (a 64-city mesh has 2466 of them).
    const Ipv4Mask mask("255.255.255.252");
    if (graph.EdgeCount() >= (1u << 22))
    {
        throw std::invalid_argument("WanNetworkHelper: " + std::to_string(graph.EdgeCount()) +
                                    " links do not fit one /30 network each in 10.0.0.0/8");
    }
    for (uint32_t e = 0; e < graph.EdgeCount(); ++e)
    {
        const GraphEdge& edge = graph.Edges()[e];
        WanNetwork::EdgeLink link;
        Ptr<PointToPointChannel> channel = m_channelFactory.Create<PointToPointChannel>();
        channel->SetAttribute("Delay", TimeValue(Seconds(edge.latencyS)));
        uint32_t ends[2] = {edge.a, edge.b};
        for (int side = 0; side < 2; ++side)
        {
            Ptr<Node> node = net.m_nodes.Get(ends[side]);
            Ptr<PointToPointNetDevice> dev = m_deviceFactory.Create<PointToPointNetDevice>();
            dev->SetAttribute("DataRate", DataRateValue(DataRate(static_cast<uint64_t>(
                                              edge.capacityBps))));
            dev->SetAddress(Mac48Address::Allocate());
            node->AddDevice(dev);
            dev->SetQueue(m_queueFactory.Create<Queue<Packet>>());
            dev->Attach(channel);
            link.device[side] = dev;
        }
        for (int side = 0; side < 2; ++side)
        {
            Ptr<Ipv4> ipv4 = net.m_nodes.Get(ends[side])->GetObject<Ipv4>();
            Ipv4Address address((10u << 24) + 4 * e + 1 + static_cast<uint32_t>(side));
            int32_t interface = ipv4->AddInterface(link.device[side]);
            ipv4->AddAddress(interface, Ipv4InterfaceAddress(address, mask));
            ipv4->SetMetric(interface, 1);
            ipv4->SetUp(interface);
            link.interface[side] = static_cast<uint32_t>(interface);
            link.address[side] = address;
        }
        net.m_edges.push_back(link);
    }
    // One receive handler per node instead of ns-3's two per interface (ReceiveDispatch): the
    // cost of receiving a frame does not grow with the node's degree.
    for (uint32_t n = 0; n < graph.NodeCount(); ++n)
    {
        ReceiveDispatch::Install(net.m_nodes.Get(n));
    }
    // Every node's addresses, in edge order; an island has exactly one (its access link).
    net.m_addresses.assign(graph.NodeCount(), {});
    for (uint32_t e = 0; e < graph.EdgeCount(); ++e)
    {
        const GraphEdge& edge = graph.Edges()[e];
        net.m_addresses[edge.a].push_back(net.AddressOn(e, edge.a));
        net.m_addresses[edge.b].push_back(net.AddressOn(e, edge.b));
    }
    for (uint32_t n = 0; n < graph.NodeCount(); ++n)
    {
        net.m_nodeAddresses.push_back(net.m_addresses[n].empty() ? Ipv4Address()
                                                                 : net.m_addresses[n].front());
    }
    for (uint32_t i = 0; i < graph.IslandCount(); ++i)
    {
        // An island always has its access link (islands are hosts with one interface);
        // should a graph give one no link, it has no address (0.0.0.0): no traffic can reach
        // it, and the scenario refuses to place a scheduled island there.
        net.m_islandAddresses.push_back(net.m_addresses[i].empty() ? Ipv4Address()
                                                                   : net.m_addresses[i].front());
    }
    return net;
}

void
WanNetworkHelper::InstallRoutes(const WanNetwork& network, const RoutePlanner& routes)
{
    std::vector<uint32_t> islands;
    for (uint32_t d = 0; d < network.Graph().IslandCount(); ++d)
    {
        islands.push_back(d);
    }
    InstallRoutesTo(network, routes, islands);
}

void
WanNetworkHelper::InstallRoutesTo(const WanNetwork& network,
                                  const RoutePlanner& routes,
                                  const std::vector<uint32_t>& destinations)
{
    const NetworkGraph& g = network.Graph();
    for (uint32_t n = 0; n < g.NodeCount(); ++n)
    {
        Ptr<PlannedRouting> table = PlannedRoutingHelper::Get(network.GetNode(n)->GetObject<Ipv4>());
        for (uint32_t d : destinations)
        {
            RoutePlanner::Hop hop;
            if (!routes.NextHop(n, d, hop))
            {
                continue;
            }
            // Every address of the destination (replies go to the address a packet came
            // from), each along the planned path to the destination node.
            uint32_t interface = network.InterfaceOn(hop.edge, n);
            Ipv4Address gateway = network.AddressOn(hop.edge, hop.to);
            for (const Ipv4Address& a : network.NodeAddresses(d))
            {
                table->AddHostRoute(a, interface, gateway);
            }
        }
        table->IndexHostRoutes();
    }
}

std::vector<uint32_t>
WanNetworkHelper::InstallMulticastTree(const WanNetwork& network,
                                       const RoutePlanner::Path& tree,
                                       uint32_t root,
                                       Ipv4Address group,
                                       const std::vector<uint32_t>& receivers)
{
    NS_ABORT_MSG_UNLESS(group.IsMulticast(), group << " is not a multicast address");
    const NetworkGraph& g = network.Graph();
    std::map<uint32_t, std::vector<uint32_t>> children; // node -> output interfaces
    std::map<uint32_t, uint32_t> parentInterface;       // node -> input interface
    std::vector<uint32_t> rootDevices;
    for (const auto& hop : tree)
    {
        children[hop.from].push_back(network.InterfaceOn(hop.edge, hop.from));
        parentInterface[hop.to] = network.InterfaceOn(hop.edge, hop.to);
        if (hop.from == root)
        {
            rootDevices.push_back(network.DeviceIndexOn(hop.edge, root));
        }
    }
    auto table = [&network](uint32_t node) {
        return PlannedRoutingHelper::Get(network.GetNode(node)->GetObject<Ipv4>());
    };
    for (const auto& [node, outputs] : children)
    {
        if (node == root)
        {
            table(node)->AddLocalMulticastRoute(group, outputs);
        }
        else
        {
            table(node)->AddMulticastRoute(group, parentInterface.at(node), outputs);
        }
    }
    // Local copies: the receivers given, else every leaf and every island the tree reaches.
    for (const auto& [node, input] : parentInterface)
    {
        bool receives = receivers.empty()
                            ? (!children.count(node) || g.Nodes()[node].kind == NodeKind::ISLAND)
                            : std::find(receivers.begin(), receivers.end(), node) != receivers.end();
        if (receives)
        {
            table(node)->JoinGroup(group);
        }
    }
    return rootDevices;
}

void
WanNetworkHelper::ClearRoutes(const WanNetwork& network)
{
    for (uint32_t n = 0; n < network.Graph().NodeCount(); ++n)
    {
        PlannedRoutingHelper::Get(network.GetNode(n)->GetObject<Ipv4>())->Clear();
    }
}

void
WanNetworkHelper::FailEdge(const WanNetwork& network, uint32_t edge)
{
    for (int side = 0; side < 2; ++side)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorRate", DoubleValue(1.0));
        em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
        network.Edge(edge).device[side]->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
}

int64_t
WanNetworkHelper::SetLossRate(const WanNetwork& network, double rate, int64_t stream)
{
    NS_ABORT_MSG_IF(rate < 0 || rate >= 1, "loss rate must be in [0, 1), got " << rate);
    int64_t used = 0;
    if (rate == 0)
    {
        return used;
    }
    for (uint32_t e = 0; e < network.Graph().EdgeCount(); ++e)
    {
        for (int side = 0; side < 2; ++side)
        {
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetAttribute("ErrorRate", DoubleValue(rate));
            em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
            used += em->AssignStreams(stream + used);
            network.Edge(e).device[side]->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
    }
    return used;
}

} // namespace ns3
