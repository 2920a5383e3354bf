/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "network-graph.h"

#include "input-error.h"
#include "option-validator.h"

#include <cmath>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Print \p message on stderr once per process (graphs are often rebuilt from one topology).
void
WarnOnce(const std::string& message)
{
    static std::mutex mutex;
    static std::set<std::string> said;
    std::lock_guard<std::mutex> lock(mutex);
    if (said.insert(message).second)
    {
        std::cerr << "warning: " << message << std::endl;
    }
}

void
RequireRate(double value, const std::string& name)
{
    if (!(value >= 0) || !std::isfinite(value))
    {
        throw std::invalid_argument("network graph options: " + name +
                                    " must be a finite rate >= 0 bit/s (0: default)");
    }
}

void
RequireLatency(double value, const std::string& name)
{
    if (!(value > 0) || !std::isfinite(value))
    {
        throw std::invalid_argument("network graph options: " + name +
                                    " must be a finite latency > 0 s");
    }
}

} // namespace

void
RoutingOptions::Validate() const
{
    if (!(hopCostS >= 0) || !std::isfinite(hopCostS))
    {
        throw std::invalid_argument("routing options: hopCost must be a finite time >= 0 s");
    }
    if (!(capacityCostBits >= 0) || !std::isfinite(capacityCostBits))
    {
        throw std::invalid_argument(
            "routing options: capacityCost must be a finite number of bits >= 0");
    }
}

RoutingMetric
RoutingOptions::ParseMetric(const std::string& text)
{
    for (RoutingMetric m :
         {RoutingMetric::LATENCY, RoutingMetric::LATENCY_HOPS, RoutingMetric::LATENCY_CAPACITY})
    {
        if (text == MetricName(m))
        {
            return m;
        }
    }
    throw std::invalid_argument("routingMetric: '" + text +
                                "' is not one of latency, latency+hops, latency+capacity");
}

std::string
RoutingOptions::MetricName(RoutingMetric metric)
{
    switch (metric)
    {
    case RoutingMetric::LATENCY:
        return "latency";
    case RoutingMetric::LATENCY_HOPS:
        return "latency+hops";
    case RoutingMetric::LATENCY_CAPACITY:
        return "latency+capacity";
    }
    return "?";
}

void
NetworkGraphOptions::Validate() const
{
    RequireRate(accessRateBps, "accessRate");
    RequireRate(metroRateBps, "metroRate");
    RequireRate(privateRateBps, "privateRate");
    RequireRate(publicRateBps, "publicRate");
    RequireLatency(accessLatencyS, "accessLatency");
    RequireLatency(metroLatencyS, "metroLatency");
    RequireRate(exchangeRateBps, "exchangeRate");
    RequireLatency(exchangeLatencyS, "exchangeLatency");
    RequireLatency(uplinkLatencyS, "uplinkLatency");
    routing.Validate();
}

NetworkGraph
NetworkGraph::FromTopology(const Topology& topology, const NetworkGraphOptions& options)
{
    options.Validate();
    // Link latencies, raised to the fibre bound where asked.
    std::vector<double> latency;
    for (const auto& l : topology.Links())
    {
        latency.push_back(l.latencyS);
    }
    std::vector<LatencyFinding> findings;
    if (options.latencyCheck != LatencyCheckMode::OFF)
    {
        findings = TopologyLatencyCheck::Find(topology);
        for (const auto& f : findings)
        {
            if (options.latencyCheck == LatencyCheckMode::FIX)
            {
                latency[f.link] = f.boundS;
                WarnOnce(f.Describe() + "; raised to the bound (latencyCheck=fix)");
            }
            else
            {
                WarnOnce(f.Describe() + " (latencyCheck=warn keeps it; fix raises it)");
            }
        }
    }

    NetworkGraph g;
    g.m_routing = options.routing;
    g.m_latencyFindings = findings;
    const auto& cities = topology.Cities();
    const auto& links = topology.Links();
    const uint32_t nc = static_cast<uint32_t>(cities.size());
    auto name = [&](const std::string& n) {
        if (topology.FindCity(n) || g.m_byName.count(n))
        {
            throw InputError(topology.GetSource(),
                             0,
                             "device",
                             "'" + n + "' names a city, a device or a metro, exchange or "
                                       "internet node twice");
        }
        return n;
    };
    auto deviceRate = [&](const Device& d, double override) {
        return override > 0 ? override : d.edgeCapacityBps;
    };
    auto linkRate = [&](const TopologyLink& l) {
        double override =
            l.kind == LinkKind::PRIVATE ? options.privateRateBps : options.publicRateBps;
        return override > 0 ? override : l.capacityBps;
    };

    // Nodes: islands, metro nodes, devices, exchange nodes, internet nodes.
    for (const auto& c : cities)
    {
        g.AddNode(GraphNode{c.code, NodeKind::ISLAND, c.code});
    }
    for (const auto& c : cities)
    {
        g.AddNode(GraphNode{name(c.code + "-metro"), NodeKind::METRO, c.code});
    }
    std::vector<uint32_t> deviceNodes;
    std::vector<double> metroCapacity(nc, 0.0);
    for (const auto& d : topology.Devices())
    {
        deviceNodes.push_back(g.AddNode(GraphNode{name(d.name), NodeKind::DEVICE, d.city}));
        metroCapacity[topology.CityIndex(d.city)] += deviceRate(d, options.metroRateBps);
    }
    std::vector<int64_t> exchangeNode(nc, -1);
    for (uint32_t i = 0; i < nc && options.exchange; ++i)
    {
        if (topology.DevicesIn(cities[i].code).size() >= 2)
        {
            exchangeNode[i] = g.AddNode(
                GraphNode{name(cities[i].code + "-exchange"), NodeKind::EXCHANGE, cities[i].code});
        }
    }
    std::vector<double> publicCapacity(nc, 0.0);
    for (const auto& l : links)
    {
        if (l.kind == LinkKind::PUBLIC && options.includePublic)
        {
            publicCapacity[topology.CityIndex(l.a)] += linkRate(l);
            publicCapacity[topology.CityIndex(l.b)] += linkRate(l);
        }
    }
    std::vector<int64_t> internetNode(nc, -1);
    for (uint32_t i = 0; i < nc; ++i)
    {
        if (publicCapacity[i] > 0)
        {
            internetNode[i] = g.AddNode(
                GraphNode{name(cities[i].code + "-internet"), NodeKind::INTERNET, cities[i].code});
        }
    }

    // Edges: access, metro, private, exchange, uplink, public (this order breaks routing ties).
    for (uint32_t i = 0; i < nc; ++i)
    {
        double rate = options.accessRateBps > 0 ? options.accessRateBps
                                                : metroCapacity[i] + publicCapacity[i];
        if (rate > 0) // else the city has nothing beyond its island: the island stays alone
        {
            g.AddEdge(GraphEdge{i, nc + i, options.accessLatencyS, rate, EdgeKind::ACCESS});
        }
    }
    for (std::size_t k = 0; k < deviceNodes.size(); ++k)
    {
        const Device& d = topology.Devices()[k];
        g.AddEdge(GraphEdge{deviceNodes[k],
                            nc + static_cast<uint32_t>(topology.CityIndex(d.city)),
                            options.metroLatencyS,
                            deviceRate(d, options.metroRateBps),
                            EdgeKind::METRO});
    }
    for (std::size_t i = 0; i < links.size(); ++i)
    {
        const TopologyLink& l = links[i];
        if (l.kind == LinkKind::PRIVATE)
        {
            g.AddEdge(GraphEdge{g.NodeByName(l.a),
                                g.NodeByName(l.b),
                                latency[i],
                                linkRate(l),
                                EdgeKind::PRIVATE});
        }
    }
    for (std::size_t k = 0; k < deviceNodes.size(); ++k)
    {
        const Device& d = topology.Devices()[k];
        int64_t x = exchangeNode[topology.CityIndex(d.city)];
        if (x >= 0)
        {
            g.AddEdge(GraphEdge{deviceNodes[k],
                                static_cast<uint32_t>(x),
                                options.exchangeLatencyS,
                                deviceRate(d, options.exchangeRateBps),
                                EdgeKind::EXCHANGE});
        }
    }
    for (uint32_t i = 0; i < nc; ++i)
    {
        if (internetNode[i] >= 0)
        {
            g.AddEdge(GraphEdge{nc + i,
                                static_cast<uint32_t>(internetNode[i]),
                                options.uplinkLatencyS,
                                publicCapacity[i],
                                EdgeKind::UPLINK});
        }
    }
    for (std::size_t i = 0; i < links.size(); ++i)
    {
        const TopologyLink& l = links[i];
        if (l.kind == LinkKind::PUBLIC && options.includePublic)
        {
            g.AddEdge(GraphEdge{static_cast<uint32_t>(internetNode[topology.CityIndex(l.a)]),
                                static_cast<uint32_t>(internetNode[topology.CityIndex(l.b)]),
                                latency[i],
                                linkRate(l),
                                EdgeKind::PUBLIC});
        }
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
            throw std::invalid_argument("island nodes must be added before any other node");
        }
        ++m_islands;
    }
    if (m_byName.count(node.name))
    {
        throw std::invalid_argument("duplicate graph node '" + node.name + "'");
    }
    m_byName.emplace(node.name, static_cast<uint32_t>(m_nodes.size()));
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
    if (!(edge.capacityBps < OptionValidator::kMaxRateBps))
    {
        // ns-3's DataRate holds an integer number of bit/s below 2^64. An access link carries
        // the sum of its city's devices and public paths, an uplink the sum of the city's
        // public paths: each part may be in range and the sum not.
        std::ostringstream rate;
        rate << edge.capacityBps;
        throw std::invalid_argument(
            "graph edge " + m_nodes[edge.a].name + "-" + m_nodes[edge.b].name + " (" +
            KindName(edge.kind) + "): capacity " + rate.str() +
            " bit/s is not below 1.8e19 bit/s, the largest rate ns-3 represents (an access "
            "link carries the sum of its city's device and public capacities, an uplink the "
            "sum of its public paths): lower the capacities, --publicRate or --accessRate");
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
    auto it = m_byName.find(city);
    if (it != m_byName.end() && it->second < m_islands)
    {
        return it->second;
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
    auto it = m_byName.find(name);
    if (it == m_byName.end())
    {
        throw std::out_of_range("no graph node named '" + name + "'");
    }
    return it->second;
}

int64_t
NetworkGraph::MetroNode(const std::string& city) const
{
    return NodeOfCity(city, NodeKind::METRO);
}

int64_t
NetworkGraph::InternetNode(const std::string& city) const
{
    return NodeOfCity(city, NodeKind::INTERNET);
}

int64_t
NetworkGraph::NodeOfCity(const std::string& city, NodeKind kind) const
{
    for (uint32_t n = static_cast<uint32_t>(m_islands); n < m_nodes.size(); ++n)
    {
        if (m_nodes[n].kind == kind && m_nodes[n].city == city)
        {
            return n;
        }
    }
    return -1;
}

int64_t
NetworkGraph::IslandOf(uint32_t node) const
{
    const std::string& city = m_nodes.at(node).city;
    for (std::size_t i = 0; i < m_islands; ++i)
    {
        if (m_nodes[i].city == city)
        {
            return static_cast<int64_t>(i);
        }
    }
    return -1;
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
    if (e.kind == EdgeKind::PUBLIC)
    {
        return m_nodes[e.a].city + "-" + m_nodes[e.b].city;
    }
    return m_nodes[e.a].name + "-" + m_nodes[e.b].name;
}

int64_t
NetworkGraph::FindEdgeByNames(const std::string& a, const std::string& b) const
{
    auto ia = m_byName.find(a);
    auto ib = m_byName.find(b);
    if (ia == m_byName.end() || ib == m_byName.end())
    {
        return -1;
    }
    int64_t e = FindEdge(ia->second, ib->second);
    if (e >= 0)
    {
        return e;
    }
    int64_t ma = InternetNode(a);
    int64_t mb = InternetNode(b);
    if (ia->second < m_islands && ib->second < m_islands && ma >= 0 && mb >= 0)
    {
        e = FindEdge(static_cast<uint32_t>(ma), static_cast<uint32_t>(mb));
        if (e >= 0 && m_edges[e].kind == EdgeKind::PUBLIC)
        {
            return e;
        }
    }
    return -1;
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
    case EdgeKind::METRO:
        return "metro";
    case EdgeKind::EXCHANGE:
        return "exchange";
    case EdgeKind::UPLINK:
        return "uplink";
    }
    return "?";
}

std::string
NetworkGraph::KindName(NodeKind kind)
{
    switch (kind)
    {
    case NodeKind::ISLAND:
        return "island";
    case NodeKind::DEVICE:
        return "device";
    case NodeKind::METRO:
        return "metro";
    case NodeKind::EXCHANGE:
        return "exchange";
    case NodeKind::INTERNET:
        return "internet";
    }
    return "?";
}

const RoutingOptions&
NetworkGraph::Routing() const
{
    return m_routing;
}

void
NetworkGraph::SetRouting(const RoutingOptions& routing)
{
    routing.Validate();
    m_routing = routing;
}

const std::vector<LatencyFinding>&
NetworkGraph::LatencyFindings() const
{
    return m_latencyFindings;
}

} // namespace ns3
