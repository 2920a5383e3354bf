/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "network-graph.h"

#include "input-error.h"

#include <cmath>
#include <stdexcept>

namespace ns3
{

NetworkGraph
NetworkGraph::FromTopology(const Topology& topology, const NetworkGraphOptions& options)
{
    if (options.accessRateBps < 0 || options.privateRateBps < 0 || options.publicRateBps < 0)
    {
        throw std::invalid_argument("network graph options: rates must not be negative");
    }
    if (!(options.accessLatencyS > 0))
    {
        throw std::invalid_argument("network graph options: access latency must be positive");
    }
    NetworkGraph g;
    for (const auto& c : topology.Cities())
    {
        g.AddNode(GraphNode{c.code, NodeKind::ISLAND, c.code});
    }
    for (const auto& d : topology.Devices())
    {
        if (topology.FindCity(d.name))
        {
            throw InputError(topology.GetSource(),
                             0,
                             "device",
                             "device '" + d.name + "' has the same name as a city");
        }
        uint32_t node = g.AddNode(GraphNode{d.name, NodeKind::DEVICE, d.city});
        double rate = options.accessRateBps > 0 ? options.accessRateBps : d.edgeCapacityBps;
        g.AddEdge(GraphEdge{g.IslandNode(d.city), node, options.accessLatencyS, rate,
                            EdgeKind::ACCESS});
    }
    for (const auto& l : topology.Links())
    {
        if (l.kind == LinkKind::PUBLIC && !options.includePublic)
        {
            continue;
        }
        bool priv = l.kind == LinkKind::PRIVATE;
        double override = priv ? options.privateRateBps : options.publicRateBps;
        g.AddEdge(GraphEdge{g.NodeByName(l.a),
                            g.NodeByName(l.b),
                            l.latencyS,
                            override > 0 ? override : l.capacityBps,
                            priv ? EdgeKind::PRIVATE : EdgeKind::PUBLIC});
    }
    return g;
}

uint32_t
NetworkGraph::AddNode(const GraphNode& node)
{
    if (node.kind == NodeKind::ISLAND)
    {
        if (m_islands != m_nodes.size())
        {
            throw std::invalid_argument("island nodes must be added before device nodes");
        }
        ++m_islands;
    }
    for (const auto& n : m_nodes)
    {
        if (n.name == node.name)
        {
            throw std::invalid_argument("duplicate graph node '" + node.name + "'");
        }
    }
    m_nodes.push_back(node);
    return static_cast<uint32_t>(m_nodes.size() - 1);
}

uint32_t
NetworkGraph::AddEdge(const GraphEdge& edge)
{
    if (edge.a >= m_nodes.size() || edge.b >= m_nodes.size() || edge.a == edge.b)
    {
        throw std::invalid_argument("graph edge with bad endpoints");
    }
    if (!(edge.latencyS > 0) || !(edge.capacityBps > 0) || !std::isfinite(edge.latencyS) ||
        !std::isfinite(edge.capacityBps))
    {
        throw std::invalid_argument("graph edge " + m_nodes[edge.a].name + "-" +
                                    m_nodes[edge.b].name +
                                    ": latency and capacity must be positive");
    }
    m_edges.push_back(edge);
    m_up.push_back(true);
    return static_cast<uint32_t>(m_edges.size() - 1);
}

const std::vector<GraphNode>&
NetworkGraph::Nodes() const
{
    return m_nodes;
}

const std::vector<GraphEdge>&
NetworkGraph::Edges() const
{
    return m_edges;
}

std::size_t
NetworkGraph::NodeCount() const
{
    return m_nodes.size();
}

std::size_t
NetworkGraph::EdgeCount() const
{
    return m_edges.size();
}

std::size_t
NetworkGraph::IslandCount() const
{
    return m_islands;
}

uint32_t
NetworkGraph::IslandNode(const std::string& city) const
{
    for (std::size_t i = 0; i < m_islands; ++i)
    {
        if (m_nodes[i].name == city)
        {
            return static_cast<uint32_t>(i);
        }
    }
    throw InputError("network graph", 0, "city", "no island for city '" + city + "'");
}

std::vector<std::string>
NetworkGraph::IslandCities() const
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < m_islands; ++i)
    {
        out.push_back(m_nodes[i].name);
    }
    return out;
}

uint32_t
NetworkGraph::NodeByName(const std::string& name) const
{
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
    {
        if (m_nodes[i].name == name)
        {
            return static_cast<uint32_t>(i);
        }
    }
    throw std::out_of_range("no graph node named '" + name + "'");
}

int64_t
NetworkGraph::FindEdge(uint32_t a, uint32_t b) const
{
    for (std::size_t i = 0; i < m_edges.size(); ++i)
    {
        const auto& e = m_edges[i];
        if ((e.a == a && e.b == b) || (e.a == b && e.b == a))
        {
            return static_cast<int64_t>(i);
        }
    }
    return -1;
}

uint32_t
NetworkGraph::OtherEnd(uint32_t edge, uint32_t node) const
{
    const auto& e = m_edges.at(edge);
    return e.a == node ? e.b : e.a;
}

std::string
NetworkGraph::EdgeName(uint32_t edge) const
{
    const auto& e = m_edges.at(edge);
    return m_nodes[e.a].name + "-" + m_nodes[e.b].name;
}

void
NetworkGraph::SetEdgeUp(uint32_t edge, bool up)
{
    m_up.at(edge) = up;
}

bool
NetworkGraph::IsEdgeUp(uint32_t edge) const
{
    return m_up.at(edge);
}

uint32_t
NetworkGraph::Resource(const GraphEdge& e, uint32_t edge, uint32_t from)
{
    return 2 * edge + (from == e.a ? 0 : 1);
}

uint32_t
NetworkGraph::Resource(uint32_t edge, uint32_t from) const
{
    return Resource(m_edges.at(edge), edge, from);
}

std::size_t
NetworkGraph::ResourceCount() const
{
    return 2 * m_edges.size();
}

std::vector<double>
NetworkGraph::ResourceCapacities() const
{
    std::vector<double> caps(ResourceCount(), 0.0);
    for (std::size_t i = 0; i < m_edges.size(); ++i)
    {
        double c = m_up[i] ? m_edges[i].capacityBps : 0.0;
        caps[2 * i] = c;
        caps[2 * i + 1] = c;
    }
    return caps;
}

std::string
NetworkGraph::KindName(EdgeKind kind)
{
    switch (kind)
    {
    case EdgeKind::PRIVATE:
        return "private";
    case EdgeKind::PUBLIC:
        return "public";
    case EdgeKind::ACCESS:
        return "access";
    }
    return "?";
}

} // namespace ns3
