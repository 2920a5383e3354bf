/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "wan-network.h"

namespace ns3
{

const NetworkGraph&
WanNetwork::Graph() const
{
    return m_graph;
}

const NodeContainer&
WanNetwork::Nodes() const
{
    return m_nodes;
}

Ptr<Node>
WanNetwork::GetNode(uint32_t graphNode) const
{
    return m_nodes.Get(graphNode);
}

NodeContainer
WanNetwork::IslandNodes() const
{
    NodeContainer c;
    for (uint32_t i = 0; i < m_graph.IslandCount(); ++i)
    {
        c.Add(m_nodes.Get(i));
    }
    return c;
}

Ipv4Address
WanNetwork::IslandAddress(uint32_t island) const
{
    return m_islandAddresses.at(island);
}

Ipv4Address
WanNetwork::NodeAddress(uint32_t graphNode) const
{
    return m_nodeAddresses.at(graphNode);
}

const std::vector<Ipv4Address>&
WanNetwork::NodeAddresses(uint32_t graphNode) const
{
    return m_addresses.at(graphNode);
}

uint32_t
WanNetwork::DeviceIndexOn(uint32_t edge, uint32_t node) const
{
    return m_edges.at(edge).device[Side(m_graph.Edges().at(edge), node)]->GetIfIndex();
}

const std::vector<Ipv4Address>&
WanNetwork::IslandDirectory() const
{
    return m_islandAddresses;
}

const WanNetwork::EdgeLink&
WanNetwork::Edge(uint32_t edge) const
{
    return m_edges.at(edge);
}

uint32_t
WanNetwork::Side(const GraphEdge& e, uint32_t node)
{
    return node == e.a ? 0 : 1;
}

uint32_t
WanNetwork::InterfaceOn(uint32_t edge, uint32_t node) const
{
    return m_edges.at(edge).interface[Side(m_graph.Edges().at(edge), node)];
}

Ipv4Address
WanNetwork::AddressOn(uint32_t edge, uint32_t node) const
{
    return m_edges.at(edge).address[Side(m_graph.Edges().at(edge), node)];
}

} // namespace ns3
