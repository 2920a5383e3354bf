/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-helper.h"

#include "ns3/cc-transport.h"
#include "ns3/ideal-transport.h"
#include "ns3/tcp-transport.h"
#include "ns3/input-error.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/wire-format.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioHelper");

namespace
{
/// The TrainingIsland attribute \p name as an integer: \p value, or its default if null.
uint64_t
IslandInteger(const std::string& name, const AttributeValue* value)
{
    TypeId::AttributeInformation info;
    TrainingIsland::GetTypeId().LookupAttributeByName(name, &info);
    Ptr<AttributeValue> v = info.checker->CreateValidValue(value ? *value : *info.initialValue);
    Ptr<UintegerValue> u = DynamicCast<UintegerValue>(v);
    return u ? u->Get() : 0;
}

/// ns3::UdpTransport::Ecn as configured (its attribute default: --ecn, Config::SetDefault).
bool
UdpEcnDefault()
{
    TypeId::AttributeInformation info;
    UdpTransport::GetTypeId().LookupAttributeByName("Ecn", &info);
    Ptr<const BooleanValue> b = DynamicCast<const BooleanValue>(info.initialValue);
    return b ? b->Get() : true;
}

} // namespace

ScenarioHelper::ScenarioHelper()
{
    // The planner sizes its structures (ring order, trees, aggregation root) for the islands'
    // model; known before the routes and the FPGAs are installed.
    m_sizing.modelBytes = static_cast<double>(IslandInteger("ModelBytes", nullptr));
    m_sizing.segmentPayloadBytes = static_cast<uint32_t>(IslandInteger("SegmentSize", nullptr));
}

ScenarioHelper::~ScenarioHelper() = default;

void
ScenarioHelper::SetTopology(const Topology& topology)
{
    m_topology = topology;
    m_haveTopology = true;
}

void
ScenarioHelper::SetGraphOptions(const NetworkGraphOptions& options)
{
    m_graphOptions = options;
}

void
ScenarioHelper::SetSchedule(const Schedule& schedule)
{
    m_schedule = schedule;
    m_haveSchedule = true;
}

void
ScenarioHelper::SetCapabilities(const NetworkCapabilities& capabilities)
{
    m_caps = capabilities;
}

void
ScenarioHelper::SetIslandAttribute(const std::string& name, const AttributeValue& value)
{
    m_islandHelper.SetAttribute(name, value);
    if (name == "ModelBytes")
    {
        m_sizing.modelBytes = static_cast<double>(IslandInteger(name, &value));
    }
    else if (name == "SegmentSize")
    {
        m_sizing.segmentPayloadBytes = static_cast<uint32_t>(IslandInteger(name, &value));
    }
}

void
ScenarioHelper::SetRounds(uint32_t rounds)
{
    m_rounds = rounds;
}

void
ScenarioHelper::SetMtu(uint16_t mtu)
{
    m_mtu = mtu;
}

void
ScenarioHelper::SetLossRate(double rate)
{
    if (rate < 0 || rate >= 1)
    {
        throw std::invalid_argument("loss rate must be in [0, 1)");
    }
    m_lossRate = rate;
}

void
ScenarioHelper::SetRateControl(bool on)
{
    m_rateControl = on;
}

void
ScenarioHelper::SetTransport(const std::string& kind)
{
    if (kind != "ideal" && kind != "cc" && kind != "tcp")
    {
        throw std::invalid_argument("unknown transport '" + kind +
                                    "' (expected ideal, cc or tcp)");
    }
    m_transport = kind;
}

const std::string&
ScenarioHelper::GetTransport() const
{
    return m_transport;
}

void
ScenarioHelper::SetChannel(const std::string& kind)
{
    m_channelType = WanNetworkHelper::ChannelTypeOf(kind); // throws for an unknown kind
}

void
ScenarioHelper::SetQueueDisc(const std::string& kind)
{
    m_queues.SetQueueDisc(kind);
}

void
ScenarioHelper::SetQueueSize(uint32_t packets)
{
    m_queues.SetQueueSize(packets);
}

void
ScenarioHelper::SetDeviceQueue(uint32_t packets)
{
    m_queues.SetDeviceQueue(packets);
}

void
ScenarioHelper::SetBarrier(bool on)
{
    m_barrier = on;
}

void
ScenarioHelper::SetMaxSimTime(Time limit)
{
    m_maxSimTime = limit;
}

void
ScenarioHelper::SetRandomStream(int64_t stream)
{
    m_stream = stream;
}

uint16_t
ScenarioHelper::CliqueKey(std::size_t round, std::size_t clique)
{
    return static_cast<uint16_t>(round * 256 + clique);
}

std::vector<IslandRoundPlan>
ScenarioHelper::PlanFor(uint32_t island) const
{
    const std::string& city = m_graph->Nodes()[island].name;
    std::vector<IslandRoundPlan> plans;
    for (std::size_t p = 0; p < m_schedule.Period(); ++p)
    {
        IslandRoundPlan plan;
        plan.pattern = m_caps.DefaultPattern();
        plan.clique = m_schedule.CliqueIndex(p, city);
        if (plan.clique >= 0)
        {
            plan.pattern = PatternOf(p, plan.clique);
            plan.cliqueKey = CliqueKey(p, plan.clique);
            for (const auto& member : m_schedule.RoundAt(p).cliques[plan.clique])
            {
                uint32_t id = m_graph->IslandNode(member);
                if (id != island)
                {
                    plan.peers.push_back(id);
                }
            }
            plan.targets = plan.peers;
            auto collective = m_collectives.find({p, static_cast<std::size_t>(plan.clique)});
            if (!plan.peers.empty() && collective != m_collectives.end())
            {
                const CliqueExchange& x = collective->second;
                plan.members = x.members;
                plan.trees = x.trees;
                plan.chunkBytes = x.chunkBytes;
                if (x.pattern == ExchangePattern::PARAMETER_SERVER)
                {
                    // ParameterServerExchange: the server first.
                    std::rotate(plan.members.begin(), plan.members.begin() + x.server,
                                plan.members.end());
                }
            }
            if (!plan.peers.empty() && (plan.pattern == ExchangePattern::MULTICAST ||
                                        plan.pattern == ExchangePattern::AGGREGATION))
            {
                const GroupInfo& g = m_groups.at({p, plan.clique, island});
                plan.group = g.group;
                plan.groupDevices = g.devices;
            }
            if (!plan.peers.empty() && plan.pattern == ExchangePattern::AGGREGATION)
            {
                // The clique's service is known by its root; the island sends to the first
                // FPGA of the tree on its path.
                const TreeInfo& tree = m_trees.at({p, static_cast<std::size_t>(plan.clique)});
                plan.aggregator = TrainingIsland::AGGREGATOR_TAG + tree.nodes.front().device;
                plan.aggregatorAddress = m_network->NodeAddress(tree.leafOf.at(island));
                plan.aggregationWindow = tree.window;
            }
        }
        plans.push_back(plan);
    }
    return plans;
}

bool
ScenarioHelper::UsesPattern(ExchangePattern pattern) const
{
    for (std::size_t p = 0; p < m_schedule.Period(); ++p)
    {
        const auto& cliques = m_schedule.RoundAt(p).cliques;
        for (std::size_t c = 0; c < cliques.size(); ++c)
        {
            if (cliques[c].size() >= 2 && PatternOf(p, c) == pattern)
            {
                return true;
            }
        }
    }
    return false;
}

ExchangePattern
ScenarioHelper::PatternOf(std::size_t p, std::size_t c) const
{
    return m_schedule.RoundAt(p).PatternOf(c, m_caps.DefaultPattern());
}

void
ScenarioHelper::SetExchangeProvider(ExchangeProvider provider)
{
    m_exchangeProvider = std::move(provider);
}

void
ScenarioHelper::BuildCollectives()
{
    for (std::size_t p = 0; p < m_schedule.Period(); ++p)
    {
        const auto& cliques = m_schedule.RoundAt(p).cliques;
        for (std::size_t c = 0; c < cliques.size(); ++c)
        {
            ExchangePattern pattern = PatternOf(p, c);
            std::string where = "schedule '" + m_schedule.GetName() + "', round " +
                                std::to_string(p) + ", clique " + std::to_string(c) + ": ";
            if (!m_caps.Allows(pattern))
            {
                throw std::invalid_argument(where + m_caps.WhyNotAllowed(pattern));
            }
            if (cliques[c].size() < 2 ||
                (pattern != ExchangePattern::RING && pattern != ExchangePattern::TREE &&
                 pattern != ExchangePattern::PARAMETER_SERVER))
            {
                continue;
            }
            std::vector<uint32_t> members;
            for (const auto& city : cliques[c])
            {
                members.push_back(m_graph->IslandNode(city));
            }
            CliqueExchange x;
            try
            {
                // The planner's structure (the one the fluid CostModel charges), unless a
                // provider replaces it.
                x = m_exchangeProvider ? m_exchangeProvider(members, pattern)
                                       : m_traffic->Exchange(members, pattern);
            }
            catch (const std::invalid_argument& e)
            {
                throw std::invalid_argument(where + e.what());
            }
            std::vector<uint32_t> got = x.members;
            std::sort(got.begin(), got.end());
            std::sort(members.begin(), members.end());
            if (x.pattern != pattern || got != members ||
                (pattern == ExchangePattern::TREE && x.trees.empty()) ||
                (pattern == ExchangePattern::PARAMETER_SERVER &&
                 (x.server < 0 || x.server >= static_cast<int32_t>(members.size()))))
            {
                throw std::invalid_argument(where + "the " + PatternName(pattern) +
                                            " structure does not match the clique");
            }
            m_collectives[{p, c}] = std::move(x);
        }
    }
}

void
ScenarioHelper::BuildMulticast()
{
    // One group per (period round, clique, source): ns-3's static multicast routes match the
    // group and input interface only, so each source tree needs its own group.
    for (std::size_t p = 0; p < m_schedule.Period(); ++p)
    {
        const auto& cliques = m_schedule.RoundAt(p).cliques;
        for (std::size_t c = 0; c < cliques.size(); ++c)
        {
            if (cliques[c].size() < 2)
            {
                continue;
            }
            if (p > 255 || c > 255 || cliques[c].size() > 254)
            {
                throw std::invalid_argument("multicast: at most 256 rounds per period, 256 "
                                            "cliques per round and 254 members per clique");
            }
            for (std::size_t m = 0; m < cliques[c].size(); ++m)
            {
                uint32_t source = m_graph->IslandNode(cliques[c][m]);
                std::vector<uint32_t> receivers;
                for (const auto& other : cliques[c])
                {
                    if (other != cliques[c][m])
                    {
                        receivers.push_back(m_graph->IslandNode(other));
                    }
                }
                Ipv4Address group(static_cast<uint32_t>((225u << 24) | (p << 16) | (c << 8) |
                                                        (m + 1)));
                // The same tree the fluid model charges (TrafficPlanner::MulticastFlow).
                auto tree = m_traffic->MulticastFlow(source, receivers).down;
                auto devices =
                    WanNetworkHelper::InstallMulticastTree(*m_network, tree, source, group);
                m_groups[{p, c, source}] = GroupInfo{group, devices};
            }
        }
    }
}

void
ScenarioHelper::CheckTree(const std::vector<AggregationNode>& tree,
                          const std::vector<uint32_t>& members,
                          const std::string& what) const
{
    auto fail = [&](const std::string& why) {
        throw std::invalid_argument(what + ": " + why);
    };
    if (tree.empty() || tree.front().parent != -1)
    {
        fail("the root (parent -1) must come first");
    }
    const auto& nodes = m_graph->Nodes();
    std::map<uint32_t, const AggregationNode*> byDevice;
    std::map<uint32_t, int> seen;
    for (const auto& n : tree)
    {
        if (n.device >= nodes.size() || nodes[n.device].kind != NodeKind::DEVICE ||
            !m_caps.HasFpga(nodes[n.device].name))
        {
            fail("node " + std::to_string(n.device) + " is not a device with an FPGA");
        }
        if (!byDevice.emplace(n.device, &n).second)
        {
            fail(nodes[n.device].name + " appears twice");
        }
        if (&n != &tree.front() && n.parent < 0)
        {
            fail(nodes[n.device].name + " is a second root");
        }
        std::size_t inputs = n.members.size() + n.children.size();
        if (inputs < 1 || inputs > 64)
        {
            fail(nodes[n.device].name + " has " + std::to_string(inputs) +
                 " inputs (members and child FPGAs; 1 to 64)");
        }
        for (uint32_t m : n.members)
        {
            if (std::find(members.begin(), members.end(), m) == members.end())
            {
                fail(nodes[n.device].name + " sums island " + std::to_string(m) +
                     ", not a member of the clique");
            }
            ++seen[m];
        }
    }
    for (uint32_t m : members)
    {
        if (seen[m] != 1)
        {
            fail("member " + nodes[m].name + " is summed by " + std::to_string(seen[m]) +
                 " FPGAs (exactly one expected)");
        }
    }
    for (const auto& n : tree)
    {
        if (n.parent >= 0)
        {
            auto p = byDevice.find(static_cast<uint32_t>(n.parent));
            if (p == byDevice.end() ||
                std::count(p->second->children.begin(), p->second->children.end(), n.device) !=
                    1)
            {
                fail(nodes[n.device].name + "'s parent does not list it as a child");
            }
            // Following parents reaches the root.
            uint32_t d = n.device;
            for (std::size_t steps = 0; byDevice.at(d)->parent >= 0; ++steps)
            {
                if (steps > tree.size())
                {
                    fail("the parents of " + nodes[n.device].name + " form a cycle");
                }
                d = static_cast<uint32_t>(byDevice.at(d)->parent);
            }
        }
        for (uint32_t c : n.children)
        {
            auto ch = byDevice.find(c);
            if (ch == byDevice.end() || ch->second->parent != static_cast<int64_t>(n.device))
            {
                fail(nodes[n.device].name + " lists a child that is not its child in the tree");
            }
        }
    }
}

ScenarioHelper::TreeInfo
ScenarioHelper::DescribeTree(const std::vector<AggregationNode>& tree,
                             const std::vector<uint32_t>& members,
                             RoutePlanner::Path resultTree) const
{
    TreeInfo info;
    info.nodes = tree;
    info.resultTree =
        resultTree.empty() ? m_routes->Tree(tree.front().device, members) : std::move(resultTree);
    const NetworkGraph& g = *m_graph;
    uint32_t root = tree.front().device;
    std::map<uint32_t, double> acc;
    auto charge = [&](const RoutePlanner::Path& path) {
        for (const auto& h : path)
        {
            acc[g.Resource(h.edge, h.from)] += 1.0;
        }
    };
    std::map<uint32_t, double> toRoot; // FPGA device -> latency of its partial sum to the root
    std::map<uint32_t, const AggregationNode*> byDevice;
    for (auto& n : info.nodes)
    {
        byDevice[n.device] = &n;
        if (n.parent >= 0)
        {
            n.up = m_routes->ShortestPath(n.device, static_cast<uint32_t>(n.parent)); // current routes
            charge(n.up);
        }
        acc[m_traffic->FpgaResource(n.device)] += static_cast<double>(n.members.size() +
                                                                      n.children.size());
    }
    std::function<double(uint32_t)> upLatency = [&](uint32_t d) -> double {
        const AggregationNode* n = byDevice.at(d);
        return n->parent < 0 ? m_caps.fpgaLatencyS
                             : m_caps.fpgaLatencyS + m_routes->Latency(n->up) +
                                   upLatency(static_cast<uint32_t>(n->parent));
    };
    std::map<uint32_t, RoutePlanner::Hop> into; // result tree: node -> the hop reaching it
    for (const auto& h : info.resultTree)
    {
        into.emplace(h.to, h);
    }
    auto treeLatency = [&](uint32_t m) {
        RoutePlanner::Path path;
        for (auto it = into.find(m); it != into.end() && m != root; it = into.find(m))
        {
            path.push_back(it->second);
            m = it->second.from;
        }
        return m_routes->Latency(path);
    };
    double upMax = 0;
    double downMax = 0;
    for (const auto& n : info.nodes)
    {
        for (uint32_t m : n.members)
        {
            info.leafOf[m] = n.device;
            RoutePlanner::Path in = m_routes->ShortestPath(m, n.device);
            charge(in);
            upMax = std::max(upMax, m_routes->Latency(in) + upLatency(n.device));
            downMax = std::max(downMax, treeLatency(m));
        }
    }
    info.latencyS = upMax + downMax;
    charge(info.resultTree);
    info.usage.usage.assign(acc.begin(), acc.end());
    return info;
}

void
ScenarioHelper::BuildAggregation()
{
    if (!UsesPattern(ExchangePattern::AGGREGATION))
    {
        return; // (a restriction such as --patterns=all-to-all under aggregation capabilities)
    }
    if (WireFormat::IpBytes(m_caps.slotBytes) > m_mtu)
    {
        throw std::invalid_argument(
            "aggregation slot size " + std::to_string(m_caps.slotBytes) +
            " bytes does not fit the MTU " + std::to_string(m_mtu) + " (largest: " +
            std::to_string(WireFormat::MaxPayload(m_mtu)) +
            "; the slot is --slotBytes, by default the segment size rounded up to a multiple "
            "of 4: lower --slotBytes or --segmentSize, or raise --mtu)");
    }
    for (std::size_t p = 0; p < m_schedule.Period(); ++p)
    {
        const auto& cliques = m_schedule.RoundAt(p).cliques;
        std::map<uint32_t, uint32_t> served; // FPGA device -> cliques of this round it serves
        std::vector<std::pair<std::size_t, std::vector<uint32_t>>> planned;
        for (std::size_t c = 0; c < cliques.size(); ++c)
        {
            // Only the cliques that aggregate: under aggregation capabilities a schedule (or a
            // restriction) may give a clique another pattern.
            if (cliques[c].size() < 2 || PatternOf(p, c) != ExchangePattern::AGGREGATION)
            {
                continue;
            }
            if (p > 255 || c > 255)
            {
                throw std::invalid_argument(
                    "aggregation: at most 256 rounds per period and 256 cliques per round");
            }
            std::vector<uint32_t> members;
            for (const auto& city : cliques[c])
            {
                members.push_back(m_graph->IslandNode(city));
            }
            std::sort(members.begin(), members.end());
            // The tree is the planner's (TrafficPlanner::Exchange, the one the fluid CostModel
            // charges), planned once: this throws if no FPGA lies on the clique's paths, before
            // anything is simulated. After a reroute only the routes between its FPGAs and the
            // result tree change.
            std::vector<AggregationNode> tree;
            RoutePlanner::Path resultTree;
            auto installed = m_trees.find({p, c});
            auto given = m_treeOverrides.find({p, c});
            if (installed != m_trees.end())
            {
                tree = installed->second.nodes;
            }
            else if (given != m_treeOverrides.end())
            {
                tree = given->second;
            }
            else
            {
                CliqueExchange x =
                    m_exchangeProvider
                        ? m_exchangeProvider(members, ExchangePattern::AGGREGATION)
                        : m_traffic->Exchange(members, ExchangePattern::AGGREGATION);
                if (x.pattern != ExchangePattern::AGGREGATION || x.aggregation.empty())
                {
                    throw std::invalid_argument(
                        "aggregation: the exchange of period round " + std::to_string(p) +
                        ", clique " + std::to_string(c) + " has no aggregation tree");
                }
                tree = std::move(x.aggregation);
                resultTree = std::move(x.resultTree);
            }
            CheckTree(tree, members,
                      "aggregation tree of period round " + std::to_string(p) + ", clique " +
                          std::to_string(c));
            m_aggregatorOf[{p, c}] = tree.front().device;
            m_trees[{p, c}] = DescribeTree(tree, members, std::move(resultTree));
            for (const auto& n : tree)
            {
                ++served[n.device];
            }
            planned.emplace_back(c, members);
        }
        for (const auto& [c, members] : planned)
        {
            TreeInfo& info = m_trees.at({p, c});
            // One window for the clique at every FPGA of its tree (a member reuses a slot
            // when the clique's sum of its previous segment came back): the smallest pool.
            info.window = std::numeric_limits<uint32_t>::max();
            for (const auto& n : info.nodes)
            {
                uint32_t slots = m_caps.SlotsPerClique(served.at(n.device));
                if (slots == 0)
                {
                    throw std::invalid_argument(
                        "aggregation: the FPGA on " + m_graph->Nodes()[n.device].name +
                        " serves " + std::to_string(served.at(n.device)) +
                        " cliques in period round " + std::to_string(p) + " but its " +
                        std::to_string(m_caps.fpgaMemoryBytes) + " bytes of slot memory hold " +
                        std::to_string(static_cast<uint64_t>(m_caps.PoolSlots())) +
                        " slots of " + std::to_string(m_caps.slotBytes) + " bytes");
                }
                info.window = std::min(info.window, slots);
            }
            uint32_t root = info.nodes.front().device;
            Ipv4Address group(static_cast<uint32_t>((226u << 24) | (p << 16) | (c << 8) | 1));
            auto devices = WanNetworkHelper::InstallMulticastTree(
                *m_network, info.resultTree, root, group);
            for (const auto& n : info.nodes)
            {
                AggregatorClique ac;
                ac.cliqueKey = CliqueKey(p, c);
                ac.members = n.members;
                ac.allMembers = members;
                ac.serviceTag = TrainingIsland::AGGREGATOR_TAG + root;
                ac.slots = info.window;
                for (uint32_t child : n.children)
                {
                    ac.children.push_back(TrainingIsland::AGGREGATOR_TAG + child);
                    ac.childAddresses.push_back(m_network->NodeAddress(child));
                }
                if (n.parent >= 0)
                {
                    auto parent = static_cast<uint32_t>(n.parent);
                    ac.parent = TrainingIsland::AGGREGATOR_TAG + parent;
                    ac.parentAddress = m_network->NodeAddress(parent);
                }
                else
                {
                    ac.group = group;
                    ac.groupDevices = devices;
                }
                Ptr<FpgaAggregator>& agg = m_aggregators[n.device];
                if (!agg)
                {
                    agg = CreateObject<FpgaAggregator>();
                    agg->SetAttribute("Tag",
                                      UintegerValue(TrainingIsland::AGGREGATOR_TAG + n.device));
                    agg->SetAttribute("Throughput", DataRateValue(DataRate(static_cast<uint64_t>(
                                                        m_caps.fpgaThroughputBps))));
                    agg->SetAttribute("PipelineLatency", TimeValue(Seconds(m_caps.fpgaLatencyS)));
                    agg->SetAttribute("Slots", UintegerValue(m_caps.aggregationSlots));
                    agg->SetAttribute("Timeout", TimeValue(Seconds(m_caps.aggregationTimeoutS)));
                    // The FPGA marks and echoes as the islands' UDP transport does.
                    agg->SetAttribute("Ecn", BooleanValue(UdpEcnDefault()));
                    agg->SetDirectory(m_network->IslandDirectory());
                    m_network->GetNode(n.device)->AddApplication(agg);
                    agg->SetStartTime(Seconds(0));
                    m_serviceNodes.push_back(n.device);
                }
                agg->AddClique(ac);
            }
        }
    }
}

void
ScenarioHelper::InstallRouting()
{
    WanNetworkHelper::InstallRoutes(*m_network, *m_routes);
    if (m_caps.RichestPattern() != ExchangePattern::ALL_TO_ALL)
    {
        // Aggregation mode installs the members' groups too: they fall back on them when an
        // FPGA fails.
        BuildMulticast();
    }
    if (m_caps.RichestPattern() == ExchangePattern::AGGREGATION)
    {
        BuildAggregation();
        WanNetworkHelper::InstallRoutesTo(*m_network, *m_routes, m_serviceNodes);
    }
}

void
ScenarioHelper::Reroute(uint32_t edge)
{
    NS_LOG_INFO("rerouting around " << m_graph->EdgeName(edge) << " at "
                                    << Simulator::Now().As(Time::S));
    m_graph->SetEdgeUp(edge, false);
    auto stop = [this, edge](const std::string& why) {
        // The run cannot complete: end it now, INCOMPLETE with the cause (runs.error), in
        // every mode, instead of waiting for the time limit or failing inside the simulation.
        m_stopCause = "link " + m_graph->EdgeName(edge) + " failed at " +
                      std::to_string(Simulator::Now().GetSeconds()) + " s: " + why;
        NS_LOG_INFO(m_stopCause);
        Simulator::Stop();
    };
    m_routes = std::make_unique<RoutePlanner>(*m_graph);
    for (uint32_t a : m_islandIds)
    {
        for (uint32_t b : m_islandIds)
        {
            if (a < b && !m_routes->Reachable(a, b))
            {
                stop("the network is partitioned (no route from " + m_graph->Nodes()[a].name +
                     " to " + m_graph->Nodes()[b].name + ")");
                return;
            }
        }
    }
    try
    {
        m_traffic.reset();
        m_traffic = std::make_unique<TrafficPlanner>(*m_routes, m_caps);
        m_traffic->SetSizing(m_sizing);
        WanNetworkHelper::ClearRoutes(*m_network);
        InstallRouting();
        for (const auto& [id, app] : m_appOf)
        {
            app->SetPlan(PlanFor(id)); // new multicast branches at the sources
        }
    }
    catch (const std::exception& e)
    {
        stop(std::string("no reroute possible: ") + e.what());
        return;
    }
    if (m_controller)
    {
        m_controller->SetCapacities(m_traffic->Capacities());
        for (const auto& [id, app] : m_appOf)
        {
            app->RefreshStreams();
        }
    }
}

void
ScenarioHelper::FailLink(const std::string& a, const std::string& b, Time at, Time detection)
{
    NS_ABORT_MSG_UNLESS(m_built, "ScenarioHelper::FailLink: call Build() first");
    int64_t edge = m_graph->FindEdge(m_graph->NodeByName(a), m_graph->NodeByName(b));
    if (edge < 0)
    {
        throw std::invalid_argument("FailLink: no link between " + a + " and " + b);
    }
    auto e = static_cast<uint32_t>(edge);
    const WanNetwork* network = m_network.get();
    Simulator::Schedule(at, [network, e]() { WanNetworkHelper::FailEdge(*network, e); });
    Simulator::Schedule(at + detection, &ScenarioHelper::Reroute, this, e);
}

void
ScenarioHelper::FailFpga(const std::string& device, Time at)
{
    NS_ABORT_MSG_UNLESS(m_built, "ScenarioHelper::FailFpga: call Build() first");
    auto it = m_aggregators.find(m_graph->NodeByName(device));
    if (it == m_aggregators.end())
    {
        throw std::invalid_argument("FailFpga: no FPGA aggregator runs on " + device);
    }
    Simulator::Schedule(at, &FpgaAggregator::Fail, it->second);
}

void
ScenarioHelper::SetAggregationTree(uint32_t periodRound,
                                   uint32_t clique,
                                   const std::vector<AggregationNode>& tree)
{
    if (m_built)
    {
        throw std::invalid_argument("SetAggregationTree: call before Build()");
    }
    m_treeOverrides[{periodRound, clique}] = tree;
}

const std::vector<AggregationNode>&
ScenarioHelper::GetAggregationTree(uint32_t periodRound, uint32_t clique) const
{
    auto it = m_trees.find({periodRound, clique});
    if (it == m_trees.end())
    {
        throw std::invalid_argument("GetAggregationTree: no aggregation tree for period round " +
                                    std::to_string(periodRound) + ", clique " +
                                    std::to_string(clique));
    }
    return it->second.nodes;
}

uint32_t
ScenarioHelper::GetAggregationWindow(uint32_t periodRound, uint32_t clique) const
{
    GetAggregationTree(periodRound, clique); // throws if none
    return m_trees.at({periodRound, clique}).window;
}

void
ScenarioHelper::SetLearner(const std::string& city, std::shared_ptr<IslandLearner> learner)
{
    if (m_built)
    {
        throw std::invalid_argument("SetLearner: call before Build()");
    }
    m_learners[city] = learner;
}

void
ScenarioHelper::SetIslandRoundObserver(
    std::function<void(const std::string&, uint32_t)> observer)
{
    m_islandRoundObserver = observer;
}

void
ScenarioHelper::SetRoundObserver(std::function<void(uint32_t, double)> observer)
{
    m_roundObserver = observer;
}

void
ScenarioHelper::SetIslandAttribute(const std::string& city,
                                   const std::string& name,
                                   const AttributeValue& value)
{
    Ptr<TrainingIsland> app = m_built ? GetIsland(city) : nullptr;
    if (!app)
    {
        throw std::invalid_argument("SetIslandAttribute: no running island '" + city +
                                    "' (call Build() first)");
    }
    app->SetAttribute(name, value);
}

void
ScenarioHelper::Build()
{
    if (m_built)
    {
        return;
    }
    if (!m_haveTopology || !m_haveSchedule)
    {
        throw std::invalid_argument("ScenarioHelper: set a topology and a schedule first");
    }
    if (m_rounds == 0)
    {
        throw std::invalid_argument("ScenarioHelper: rounds must be at least 1");
    }
    m_graph = std::make_unique<NetworkGraph>(NetworkGraph::FromTopology(m_topology, m_graphOptions));
    m_schedule.Validate(m_graph->IslandCities());
    m_routes = std::make_unique<RoutePlanner>(*m_graph);
    m_traffic = std::make_unique<TrafficPlanner>(*m_routes, m_caps);
    m_traffic->SetSizing(m_sizing);

    for (const auto& city : m_schedule.Cities())
    {
        m_islandIds.push_back(m_graph->IslandNode(city));
    }
    std::sort(m_islandIds.begin(), m_islandIds.end());
    for (const auto& [city, learner] : m_learners)
    {
        const auto& cities = m_schedule.Cities();
        if (std::find(cities.begin(), cities.end(), city) == cities.end() || !learner)
        {
            throw std::invalid_argument("SetLearner: '" + city +
                                        "' is not an island of the schedule (or no learner)");
        }
    }
    for (uint32_t a : m_islandIds)
    {
        for (uint32_t b : m_islandIds)
        {
            if (!m_routes->Reachable(a, b))
            {
                throw std::invalid_argument("islands " + m_graph->Nodes()[a].name + " and " +
                                            m_graph->Nodes()[b].name +
                                            " cannot reach each other in the topology");
            }
        }
    }

    WanNetworkHelper wan;
    wan.SetChannelType(m_channelType);
    wan.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    wan.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("2000p")));
    m_network = std::make_unique<WanNetwork>(wan.Install(*m_graph));
    m_queues.Install(*m_network);
    WanNetworkHelper::SetLossRate(*m_network, m_lossRate, m_stream);
    InstallRouting();

    m_islandHelper.SetAttribute("Rounds", UintegerValue(m_rounds));
    m_islandHelper.SetAttribute("AggregationSlots", UintegerValue(m_caps.aggregationSlots));
    m_islandHelper.SetAttribute("AggregatorTimeout",
                                TimeValue(Seconds(m_caps.aggregationTimeoutS)));
    if (m_rateControl && m_transport == "ideal")
    {
        m_controller = CreateObject<RateController>();
        m_controller->SetCapacities(m_traffic->Capacities());
    }
    for (uint32_t id : m_islandIds)
    {
        ApplicationContainer c = m_islandHelper.Install(m_network->GetNode(id), id);
        Ptr<TrainingIsland> app = DynamicCast<TrainingIsland>(c.Get(0));
        if (id == m_islandIds.front())
        {
            UintegerValue seg;
            app->GetAttribute("SegmentSize", seg);
            if (UsesPattern(ExchangePattern::AGGREGATION) && seg.Get() > m_caps.slotBytes)
            {
                throw std::invalid_argument("SegmentSize " + std::to_string(seg.Get()) +
                                            " is larger than an aggregation slot (" +
                                            std::to_string(m_caps.slotBytes) + " bytes)");
            }
            if (WireFormat::IpBytes(seg.Get()) > m_mtu)
            {
                throw std::invalid_argument(
                    "SegmentSize " + std::to_string(seg.Get()) + " needs IP packets of " +
                    std::to_string(WireFormat::IpBytes(seg.Get())) + " bytes, more than the MTU " +
                    std::to_string(m_mtu) + " (largest segment: " +
                    std::to_string(WireFormat::MaxPayload(m_mtu)) + ")");
            }
            // The planner sizes its structures (ring order, trees, server) for this model.
            UintegerValue model;
            app->GetAttribute("ModelBytes", model);
            m_sizing.modelBytes = static_cast<double>(model.Get());
            m_sizing.segmentPayloadBytes = static_cast<uint32_t>(seg.Get());
            m_traffic->SetSizing(m_sizing);
            BuildCollectives();
        }
        app->SetDirectory(m_network->IslandDirectory());
        std::vector<IslandRoundPlan> plan = PlanFor(id);
        app->SetPlan(plan);
        // Round trips from the path latencies (1 ms for serialisation and queues), per peer
        // and per aggregator, until the streams measure their own.
        std::map<uint32_t, Time> hints;
        for (const auto& p : plan)
        {
            for (uint32_t peer : p.peers)
            {
                hints[peer] = Seconds(2 * m_routes->PathLatency(id, peer) + 1e-3);
            }
            if (p.pattern == ExchangePattern::AGGREGATION && !p.peers.empty())
            {
                const TreeInfo& tree = m_trees.at({p.cliqueKey / 256u, p.cliqueKey % 256u});
                // A sum returns once the farthest member's contribution reached the root.
                hints[p.aggregator] = Seconds(2 * tree.latencyS + 1e-3);
            }
        }
        app->SetRttHints(hints);
        InstallTransports(app, id, plan);
        // Usage through the current routes (they change when a link fails).
        app->SetUsageFunction([this, id](const IslandRoundPlan& p, uint32_t tag) {
            if (tag == UdpTransport::GROUP_TAG)
            {
                return m_traffic->MulticastFlow(id, p.targets).usage;
            }
            if (tag >= TrainingIsland::AGGREGATOR_TAG)
            {
                // One copy per tree edge per direction (the members' stream is one flow).
                return m_trees.at({p.cliqueKey / 256u, p.cliqueKey % 256u}).usage;
            }
            return m_traffic->UnicastFlow(id, tag).usage;
        });
        if (m_barrier)
        {
            app->SetRoundGate(MakeCallback(&ScenarioHelper::OnRoundGate, this));
        }
        auto learner = m_learners.find(m_graph->Nodes()[id].name);
        if (learner != m_learners.end())
        {
            app->SetLearner(learner->second);
        }
        // The island's values (the learner's vector, else CheckValues) travel as 8-byte doubles
        // inside the modelled payload: refused here, before the simulation (TrainingIsland
        // would abort at start).
        UintegerValue modelBytes;
        app->GetAttribute("ModelBytes", modelBytes);
        const uint64_t values = app->ValueCount();
        if (values * 8 > modelBytes.Get())
        {
            throw std::invalid_argument(
                learner != m_learners.end()
                    ? "ModelBytes " + std::to_string(modelBytes.Get()) + " is too small for the " +
                          "learner of " + learner->first + ": its " + std::to_string(values) +
                          " parameters travel as 8-byte doubles (at least " +
                          std::to_string(values * 8) + " bytes)"
                    : "CheckValues " + std::to_string(values) + " does not fit the model: " +
                          "the values travel as 8-byte doubles (" + std::to_string(values * 8) +
                          " bytes) inside ModelBytes " + std::to_string(modelBytes.Get()));
        }
        ConnectTraces(app, id);
        app->SetStartTime(Seconds(0));
        m_apps.Add(app);
        m_appOf[id] = app;
    }
    m_monitor = std::make_unique<LinkMonitor>();
    m_monitor->Install(*m_network);
    m_built = true;
}

void
ScenarioHelper::InstallTransports(Ptr<TrainingIsland> app,
                                  uint32_t id,
                                  const std::vector<IslandRoundPlan>& plan)
{
    if (m_transport == "ideal")
    {
        Ptr<IdealTransport> t = CreateObject<IdealTransport>();
        t->SetRateController(m_controller);
        app->SetTransports(t, t);
        return;
    }
    Ptr<CcTransport> cc = CreateObject<CcTransport>();
    // ECN per island and round: echoes heard, window reductions marks caused.
    cc->TraceConnectWithoutContext("EcnEcho", Callback<void, uint32_t>([this, id](uint32_t round) {
                                       ++m_stats[{id, round}].ecnEchoes;
                                   }));
    cc->TraceConnectWithoutContext("EcnReduction",
                                   Callback<void, uint32_t>([this, id](uint32_t round) {
                                       ++m_stats[{id, round}].ecnReductions;
                                   }));
    if (m_transport == "cc")
    {
        app->SetTransports(cc, cc);
        return;
    }
    // TCP for unicast messages; socket buffers from each path's bandwidth-delay product
    // (bottleneck rate x round trip).
    Ptr<TcpTransport> tcp = CreateObject<TcpTransport>();
    std::map<uint32_t, uint64_t> bdp;
    for (const auto& p : plan)
    {
        for (uint32_t peer : p.peers)
        {
            RoutePlanner::Path path = m_routes->ShortestPath(id, peer);
            double rtt = 2 * m_routes->Latency(path);
            bdp[peer] = static_cast<uint64_t>(m_routes->Bottleneck(path) * rtt / 8);
        }
    }
    tcp->SetBufferHints(bdp);
    // A connection TCP gave up can never deliver its messages: end the run now, INCOMPLETE
    // with the cause (runs.error), instead of waiting for the time limit.
    tcp->TraceConnectWithoutContext(
        "ConnectionFailed",
        Callback<void, uint32_t, uint32_t, const std::string&>(
            [this](uint32_t island, uint32_t peer, const std::string& cause) {
                if (!m_stopCause.empty())
                {
                    return;
                }
                std::ostringstream os;
                os << "TCP connection " << m_graph->Nodes().at(island).name << " -> "
                   << m_graph->Nodes().at(peer).name << " failed at "
                   << Simulator::Now().GetSeconds() << " s: " << cause;
                m_stopCause = os.str();
                NS_LOG_INFO(m_stopCause);
                Simulator::Stop();
            }));
    app->SetTransports(tcp, cc);
}

void
ScenarioHelper::ConnectTraces(Ptr<TrainingIsland> app, uint32_t island)
{
    app->TraceConnectWithoutContext(
        "RoundStarted",
        Callback<void, uint32_t>([this, island](uint32_t round) {
            m_stats[{island, round}].start = Simulator::Now().GetSeconds();
        }));
    app->TraceConnectWithoutContext(
        "ComputeFinished",
        Callback<void, uint32_t>([this, island](uint32_t round) {
            m_stats[{island, round}].computeEnd = Simulator::Now().GetSeconds();
        }));
    app->TraceConnectWithoutContext(
        "RoundFinished",
        Callback<void, uint32_t, Time, Time>([this, island](uint32_t round, Time, Time end) {
            m_stats[{island, round}].end = end.GetSeconds();
            if (m_islandRoundObserver)
            {
                m_islandRoundObserver(m_graph->Nodes()[island].name, round);
            }
            if (++m_finishCount[round] == m_islandIds.size() && m_roundObserver)
            {
                m_roundObserver(round, end.GetSeconds());
            }
        }));
    app->TraceConnectWithoutContext(
        "SegmentSent",
        Callback<void, uint32_t, uint32_t, uint32_t, uint32_t, bool>(
            [this, island](uint32_t round, uint32_t, uint32_t, uint32_t bytes, bool retx) {
                IslandRoundStats& s = m_stats[{island, round}];
                s.sent += bytes;
                if (retx)
                {
                    s.retxSegments += 1;
                    s.retxBytes += bytes;
                }
            }));
    app->TraceConnectWithoutContext(
        "SegmentReceived",
        Callback<void, uint32_t, uint32_t, uint32_t, uint32_t, Ptr<const Packet>>(
            [this, island](uint32_t round, uint32_t, uint32_t, uint32_t bytes, Ptr<const Packet>) {
                m_stats[{island, round}].received += bytes;
            }));
    app->TraceConnectWithoutContext(
        "FellBack",
        Callback<void, uint32_t, uint32_t>([this, island](uint32_t round, uint32_t) {
            m_fellBack[{round, island}] = true;
        }));
    app->TraceConnectWithoutContext("AllRoundsFinished",
                                    MakeCallback(&ScenarioHelper::OnIslandFinished, this));
}

void
ScenarioHelper::OnRoundGate(uint32_t island, uint32_t round)
{
    uint32_t done = ++m_gateCount[round];
    if (done == m_islandIds.size())
    {
        NS_LOG_INFO("round " << round << " done by all islands at "
                             << Simulator::Now().As(Time::S));
        for (const auto& [id, app] : m_appOf)
        {
            app->ReleaseRound(round + 1);
        }
    }
}

void
ScenarioHelper::OnIslandFinished()
{
    ++m_finishedIslands;
    m_lastFinish = Simulator::Now().GetSeconds();
    if (m_finishedIslands == m_islandIds.size())
    {
        Simulator::Stop();
    }
}

ScenarioResult
ScenarioHelper::Run()
{
    Build();
    Simulator::Stop(m_maxSimTime);
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    Simulator::Run();
    double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ScenarioResult r = Collect(wall);
    r.cpuTimeS = cpu;
    return r;
}

ScenarioResult
ScenarioHelper::Collect(double wallS) const
{
    ScenarioResult r;
    r.wallTimeS = wallS;
    r.complete = m_finishedIslands == m_islandIds.size();
    r.simTimeS = r.complete ? m_lastFinish : Simulator::Now().GetSeconds();
    if (!r.complete)
    {
        std::ostringstream os;
        os << "not every island finished within " << m_maxSimTime.GetSeconds()
           << " s of simulated time:";
        for (const auto& [id, app] : m_appOf)
        {
            if (!app->IsFinished())
            {
                os << " " << m_graph->Nodes()[id].name << " (round "
                   << app->GetRoundsCompleted() << ")";
            }
        }
        r.error = m_stopCause.empty() ? os.str() : m_stopCause + "; unfinished:" +
                                                        os.str().substr(os.str().find(':') + 1);
    }
    for (const auto& [key, s] : m_stats)
    {
        if (s.end <= 0 && key.round >= m_appOf.at(key.island)->GetRoundsCompleted())
        {
            continue; // round never finished
        }
        const std::string& city = m_graph->Nodes()[key.island].name;
        r.islandRounds.push_back(IslandRoundRecord{key.round,
                                                   city,
                                                   m_schedule.CliqueIndex(key.round, city),
                                                   s.start,
                                                   s.computeEnd,
                                                   s.end,
                                                   s.sent,
                                                   s.received,
                                                   s.retxSegments});
    }
    uint32_t rounds = m_rounds;
    for (uint32_t round = 0; round < rounds; ++round)
    {
        const auto& cliques = m_schedule.RoundAt(round).cliques;
        for (uint32_t c = 0; c < cliques.size(); ++c)
        {
            RoundRecord rec{round, c, "", std::numeric_limits<double>::infinity(), 0, 0, 0};
            rec.pattern = PatternName(PatternOf(round % m_schedule.Period(), c));
            bool finished = true;
            for (const auto& city : cliques[c])
            {
                rec.members += (rec.members.empty() ? "" : "+") + city;
                auto it = m_stats.find({m_graph->IslandNode(city), round});
                if (it == m_stats.end() || it->second.end <= 0)
                {
                    finished = false;
                    continue;
                }
                rec.startS = std::min(rec.startS, it->second.start);
                rec.endS = std::max(rec.endS, it->second.end);
                rec.bytes += it->second.sent;
                rec.retransmittedBytes += it->second.retxBytes;
                rec.ecnEchoes += it->second.ecnEchoes;
                rec.ecnReductions += it->second.ecnReductions;
            }
            for (const auto& city : cliques[c])
            {
                // A clique whose FPGA was given up on (a member fell back to multicast) is
                // recorded as such, round by round.
                auto app = m_appOf.find(m_graph->IslandNode(city));
                if (app != m_appOf.end() && app->second->GetFallbackRounds().count(round))
                {
                    rec.pattern = kFallbackPattern;
                }
            }
            if (finished)
            {
                r.rounds.push_back(rec);
            }
        }
    }
    r.links = m_monitor->Records(r.simTimeS);
    for (const auto& [node, agg] : m_aggregators)
    {
        const std::string& device = m_graph->Nodes()[node].name;
        r.fpgas.push_back(FpgaRecord{device,
                                     agg->GetContributions(),
                                     agg->GetResults(),
                                     agg->GetBusyTime().GetSeconds(),
                                     r.simTimeS > 0 ? agg->GetBusyTime().GetSeconds() / r.simTimeS
                                                    : 0.0,
                                     agg->GetPartials()});
    }
    // One row per aggregated clique and round: the statistics of every FPGA of its tree.
    for (uint32_t round = 0; round < m_rounds && !m_trees.empty(); ++round)
    {
        std::size_t p = round % m_schedule.Period();
        const auto& cliques = m_schedule.RoundAt(p).cliques;
        for (std::size_t c = 0; c < cliques.size(); ++c)
        {
            auto tit = m_trees.find({p, c});
            if (tit == m_trees.end())
            {
                continue;
            }
            const TreeInfo& tree = tit->second;
            AggregationRecord rec{round, static_cast<uint32_t>(c), "", "", 0, 0, 0, 0, 0, 0,
                                  0, 0, 0, "", 0};
            for (const auto& city : cliques[c])
            {
                rec.members += (rec.members.empty() ? "" : "+") + city;
                if (m_fellBack.count({round, m_graph->IslandNode(city)}))
                {
                    ++rec.fellBack;
                }
            }
            rec.aggregator = m_graph->Nodes()[tree.nodes.front().device].name;
            uint64_t completed = 0;
            double wait = 0;
            bool any = false;
            for (const auto& n : tree.nodes)
            {
                const std::string& device = m_graph->Nodes()[n.device].name;
                rec.tree += (rec.tree.empty() ? "" : " ") + device;
                if (n.parent >= 0)
                {
                    rec.tree += ">" + m_graph->Nodes()[n.parent].name;
                }
                for (const auto& st : m_aggregators.at(n.device)->GetStats())
                {
                    if (st.round != round || st.cliqueKey != CliqueKey(p, c))
                    {
                        continue;
                    }
                    any = true;
                    if (n.parent < 0)
                    {
                        rec.segments = st.completed;
                        rec.overflows = st.overflows;
                    }
                    completed += st.completed;
                    wait += st.totalWaitS;
                    rec.maxSlotWaitS = std::max(rec.maxSlotWaitS, st.maxWaitS);
                    rec.maxSlotsInUse = std::max(rec.maxSlotsInUse, st.maxSlotsInUse);
                    rec.timeouts += st.timeouts;
                    rec.duplicates += st.duplicates;
                    rec.stale += st.stale;
                    rec.resentResults += st.resentResults;
                }
            }
            rec.meanSlotWaitS = completed > 0 ? wait / completed : 0.0;
            if (any || rec.fellBack > 0)
            {
                r.aggregation.push_back(rec);
            }
        }
    }
    r.events = Simulator::GetEventCount();
    r.transport = m_transport;
    WanQueueHelper::Count(*m_network, r.queueDrops, r.ecnMarks);
    r.queueDisc = m_queues.GetQueueDisc();
    r.ecn = UdpEcnDefault(); // ideal sends ECN-capable data too (and ignores the echoes)
    for (const auto& [key, st] : m_stats)
    {
        r.retransmittedBytes += st.retxBytes;
        r.ecnEchoes += st.ecnEchoes;
        r.ecnReductions += st.ecnReductions;
    }
    for (uint32_t i = 0; i < m_apps.GetN(); ++i)
    {
        r.fixedPointOverflows += DynamicCast<TrainingIsland>(m_apps.Get(i))->GetOverflows();
    }
    if (r.fixedPointOverflows > 0)
    {
        // Loud: a saturated sum is not the mean (recorded in runs.fixed_point_overflows too).
        std::cerr << "warning: " << r.fixedPointOverflows
                  << " fixed-point overflows: some aggregation sums saturated and are not "
                     "exact (values beyond the range of --fixedPointBits; lower it)\n";
    }
    return r;
}

const NetworkGraph&
ScenarioHelper::GetGraph() const
{
    return *m_graph;
}

const RoutePlanner&
ScenarioHelper::GetRoutes() const
{
    return *m_routes;
}

const TrafficPlanner&
ScenarioHelper::GetTraffic() const
{
    return *m_traffic;
}

const WanNetwork&
ScenarioHelper::GetNetwork() const
{
    return *m_network;
}

const LinkMonitor&
ScenarioHelper::GetLinkMonitor() const
{
    return *m_monitor;
}

const Schedule&
ScenarioHelper::GetSchedule() const
{
    return m_schedule;
}

const NetworkCapabilities&
ScenarioHelper::GetCapabilities() const
{
    return m_caps;
}

std::vector<std::string>
ScenarioHelper::GetIslandCities() const
{
    std::vector<std::string> out;
    for (uint32_t id : m_islandIds)
    {
        out.push_back(m_graph->Nodes()[id].name);
    }
    return out;
}

ApplicationContainer
ScenarioHelper::GetIslands() const
{
    return m_apps;
}

Ptr<TrainingIsland>
ScenarioHelper::GetIsland(const std::string& city) const
{
    auto it = m_appOf.find(m_graph->IslandNode(city));
    return it == m_appOf.end() ? nullptr : it->second;
}

Ptr<RateController>
ScenarioHelper::GetRateController() const
{
    return m_controller;
}

const std::map<uint32_t, Ptr<FpgaAggregator>>&
ScenarioHelper::GetAggregators() const
{
    return m_aggregators;
}

Ipv4Address
ScenarioHelper::GetGroup(uint32_t round, uint32_t island) const
{
    std::size_t p = round % m_schedule.Period();
    int c = m_schedule.CliqueIndex(p, m_graph->Nodes().at(island).name);
    auto it = m_groups.find({p, static_cast<std::size_t>(std::max(c, 0)), island});
    return it == m_groups.end() ? Ipv4Address() : it->second.group;
}

} // namespace ns3
