/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "traffic-planner.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Add one unit of usage of every hop of \p path to \p acc.
void
Charge(const NetworkGraph& g, const RoutePlanner::Path& path, std::map<uint32_t, double>& acc)
{
    for (const auto& h : path)
    {
        acc[g.Resource(h.edge, h.from)] += 1.0;
    }
}

FlowUsage
ToUsage(const std::map<uint32_t, double>& acc)
{
    FlowUsage u;
    u.usage.assign(acc.begin(), acc.end());
    return u;
}

/// Latency from the tree's root to each node it reaches.
std::map<uint32_t, double>
TreeDepths(const NetworkGraph& g, const RoutePlanner::Path& tree, uint32_t root)
{
    std::map<uint32_t, double> depth{{root, 0.0}};
    for (const auto& h : tree)
    {
        depth[h.to] = depth.at(h.from) + g.Edges()[h.edge].latencyS;
    }
    return depth;
}

} // namespace

TrafficPlanner::TrafficPlanner(const RoutePlanner& routes, const NetworkCapabilities& caps)
    : m_routes(routes),
      m_caps(caps)
{
    m_caps.Validate();
    const auto& nodes = routes.Graph().Nodes();
    for (uint32_t n = 0; n < nodes.size(); ++n)
    {
        if (nodes[n].kind == NodeKind::DEVICE && caps.HasFpga(nodes[n].name))
        {
            m_fpgaNodes.push_back(n);
        }
    }
    for (const auto& name : caps.fpgaDevices)
    {
        bool found = false;
        for (uint32_t n : m_fpgaNodes)
        {
            found = found || nodes[n].name == name;
        }
        if (!found)
        {
            throw std::invalid_argument("capabilities: FPGA device '" + name +
                                        "' is not a device of the topology");
        }
    }
}

const RoutePlanner&
TrafficPlanner::Routes() const
{
    return m_routes;
}

const NetworkCapabilities&
TrafficPlanner::Capabilities() const
{
    return m_caps;
}

std::size_t
TrafficPlanner::ResourceCount() const
{
    return m_routes.Graph().ResourceCount() + m_fpgaNodes.size();
}

std::vector<double>
TrafficPlanner::Capacities() const
{
    std::vector<double> caps = m_routes.Graph().ResourceCapacities();
    caps.resize(ResourceCount(), m_caps.fpgaThroughputBps);
    return caps;
}

uint32_t
TrafficPlanner::FpgaResource(uint32_t device) const
{
    auto it = std::find(m_fpgaNodes.begin(), m_fpgaNodes.end(), device);
    if (it == m_fpgaNodes.end())
    {
        throw std::invalid_argument("node " + m_routes.Graph().Nodes().at(device).name +
                                    " has no FPGA");
    }
    return static_cast<uint32_t>(m_routes.Graph().ResourceCount() + (it - m_fpgaNodes.begin()));
}

uint32_t
TrafficPlanner::Aggregator(const std::vector<uint32_t>& members) const
{
    const NetworkGraph& g = m_routes.Graph();
    std::set<uint32_t> onPaths;
    for (uint32_t a : members)
    {
        for (uint32_t b : members)
        {
            if (a != b)
            {
                for (const auto& h : m_routes.ShortestPath(a, b))
                {
                    onPaths.insert(h.to);
                }
            }
        }
    }
    int64_t best = -1;
    double bestMax = std::numeric_limits<double>::infinity();
    double bestSum = bestMax;
    for (uint32_t f : m_fpgaNodes)
    {
        if (!onPaths.count(f))
        {
            continue;
        }
        double mx = 0;
        double sum = 0;
        for (uint32_t m : members)
        {
            double l = m_routes.PathLatency(m, f);
            mx = std::max(mx, l);
            sum += l;
        }
        if (mx < bestMax - 1e-12 || (mx <= bestMax + 1e-12 && sum < bestSum - 1e-12))
        {
            best = f;
            bestMax = mx;
            bestSum = sum;
        }
    }
    if (best < 0)
    {
        std::string names;
        for (uint32_t m : members)
        {
            names += (names.empty() ? "" : "+") + g.Nodes()[m].name;
        }
        throw std::invalid_argument("aggregation is on but no FPGA device lies on the paths of "
                                    "clique " + names);
    }
    return static_cast<uint32_t>(best);
}

std::vector<TrafficFlow>
TrafficPlanner::CliqueFlows(const std::vector<uint32_t>& members) const
{
    return CliqueFlows(members, m_caps.RichestPattern());
}

TrafficFlow
TrafficPlanner::UnicastFlow(uint32_t source, uint32_t receiver) const
{
    TrafficFlow f;
    f.kind = ExchangePattern::ALL_TO_ALL;
    f.sources = {source};
    f.receivers = {receiver};
    f.down = m_routes.ShortestPath(source, receiver);
    std::map<uint32_t, double> acc;
    Charge(m_routes.Graph(), f.down, acc);
    f.usage = ToUsage(acc);
    f.latencyS = m_routes.Latency(f.down);
    return f;
}

TrafficFlow
TrafficPlanner::MulticastFlow(uint32_t source, const std::vector<uint32_t>& receivers) const
{
    const NetworkGraph& g = m_routes.Graph();
    TrafficFlow f;
    f.kind = ExchangePattern::MULTICAST;
    f.sources = {source};
    f.receivers = receivers;
    f.down = m_routes.Tree(source, receivers);
    std::map<uint32_t, double> acc;
    Charge(g, f.down, acc);
    f.usage = ToUsage(acc);
    auto depth = TreeDepths(g, f.down, source);
    for (uint32_t r : receivers)
    {
        f.latencyS = std::max(f.latencyS, depth.at(r));
    }
    return f;
}

TrafficFlow
TrafficPlanner::AggregationFlow(const std::vector<uint32_t>& members) const
{
    return AggregationFlow(members, Aggregator(members));
}

TrafficFlow
TrafficPlanner::AggregationFlow(const std::vector<uint32_t>& members, uint32_t agg) const
{
    const NetworkGraph& g = m_routes.Graph();
    TrafficFlow f;
    f.kind = ExchangePattern::AGGREGATION;
    f.aggregator = agg;
    f.sources = members;
    f.receivers = members;
    std::map<uint32_t, double> acc;
    double upMax = 0;
    for (uint32_t m : members)
    {
        f.up.push_back(m_routes.ShortestPath(m, agg));
        Charge(g, f.up.back(), acc);
        upMax = std::max(upMax, m_routes.Latency(f.up.back()));
    }
    f.down = m_routes.Tree(agg, members);
    Charge(g, f.down, acc);
    acc[FpgaResource(agg)] += static_cast<double>(members.size());
    f.usage = ToUsage(acc);
    auto depth = TreeDepths(g, f.down, agg);
    double downMax = 0;
    for (uint32_t m : members)
    {
        downMax = std::max(downMax, depth.at(m));
    }
    f.latencyS = upMax + m_caps.fpgaLatencyS + downMax;
    return f;
}

std::vector<TrafficFlow>
TrafficPlanner::CliqueFlows(const std::vector<uint32_t>& members, ExchangePattern mode) const
{
    std::vector<TrafficFlow> flows;
    if (members.size() < 2)
    {
        return flows;
    }
    switch (mode)
    {
    case ExchangePattern::ALL_TO_ALL:
        for (uint32_t s : members)
        {
            for (uint32_t r : members)
            {
                if (s != r)
                {
                    flows.push_back(UnicastFlow(s, r));
                }
            }
        }
        break;
    case ExchangePattern::MULTICAST:
        for (uint32_t s : members)
        {
            std::vector<uint32_t> receivers;
            for (uint32_t r : members)
            {
                if (r != s)
                {
                    receivers.push_back(r);
                }
            }
            flows.push_back(MulticastFlow(s, receivers));
        }
        break;
    case ExchangePattern::AGGREGATION:
        flows.push_back(AggregationFlow(members));
        break;
    default:
        throw std::invalid_argument("traffic planner: pattern " + PatternName(mode) +
                                    " is not planned yet");
    }
    return flows;
}

} // namespace ns3
