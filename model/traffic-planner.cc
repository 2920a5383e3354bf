/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "traffic-planner.h"

#include "wire-format.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

namespace ns3
{

namespace
{

constexpr double kInf = std::numeric_limits<double>::infinity();

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

std::string
CliqueName(const NetworkGraph& g, const std::vector<uint32_t>& members)
{
    std::string names;
    for (uint32_t m : members)
    {
        names += (names.empty() ? "" : "+") + g.Nodes()[m].name;
    }
    return names;
}

/// (largest, sum) of a ring's edge costs, compared lexicographically with a small tolerance.
struct RingCost
{
    double worst = kInf;
    double sum = kInf;

    bool Below(const RingCost& o) const
    {
        if (worst < o.worst - 1e-12 * std::max(1.0, o.worst))
        {
            return true;
        }
        return worst <= o.worst + 1e-12 * std::max(1.0, o.worst) &&
               sum < o.sum - 1e-12 * std::max(1.0, o.sum);
    }
};

/// Children of value v (1-based) in the in-order binary tree over 1..k (lowest set bit).
std::vector<uint32_t>
TreeChildren(uint32_t v, uint32_t k)
{
    uint32_t low = v & (~v + 1);
    if (low == 1)
    {
        return {};
    }
    std::vector<uint32_t> out{v - low / 2};
    uint32_t step = low / 2;
    while (step > 0 && v + step > k)
    {
        step /= 2;
    }
    if (step > 0)
    {
        out.push_back(v + step);
    }
    return out;
}

/// Parent value of every value 1..k (index v-1; 0 for the root).
std::vector<uint32_t>
TreeParents(uint32_t k)
{
    std::vector<uint32_t> parent(k, 0);
    uint32_t root = 1;
    while (root * 2 <= k)
    {
        root *= 2;
    }
    std::vector<uint32_t> stack{root};
    while (!stack.empty())
    {
        uint32_t v = stack.back();
        stack.pop_back();
        for (uint32_t c : TreeChildren(v, k))
        {
            parent[c - 1] = v;
            stack.push_back(c);
        }
    }
    return parent;
}

} // namespace

void
ExchangeSizing::Validate() const
{
    if (!(modelBytes >= 1) || !std::isfinite(modelBytes))
    {
        throw std::invalid_argument("cost parameters: model bytes must be at least 1");
    }
    if (segmentPayloadBytes == 0)
    {
        throw std::invalid_argument("cost parameters: segment payload must be at least 1 byte");
    }
}

uint64_t
ExchangeSizing::Segments() const
{
    return static_cast<uint64_t>(std::ceil(modelBytes / segmentPayloadBytes));
}

double
ExchangeSizing::ModelWireBits() const
{
    double overhead = static_cast<double>(WireFormat::WireBytes(0));
    return 8.0 * (modelBytes + static_cast<double>(Segments()) * overhead);
}

double
ExchangeSizing::SegmentWireBits() const
{
    double payload = std::min<double>(segmentPayloadBytes, std::ceil(modelBytes));
    return 8.0 * static_cast<double>(WireFormat::WireBytes(static_cast<uint64_t>(payload)));
}

TrafficPlanner::TrafficPlanner(const RoutePlanner& routes, const NetworkCapabilities& caps)
    : m_routes(routes),
      m_caps(caps)
{
    m_caps.Validate();
    const auto& nodes = routes.Graph().Nodes();
    m_fpgaResource.assign(nodes.size(), -1);
    for (uint32_t n = 0; n < nodes.size(); ++n)
    {
        if (nodes[n].kind == NodeKind::DEVICE && caps.HasFpga(nodes[n].name))
        {
            m_fpgaResource[n] =
                static_cast<int64_t>(routes.Graph().ResourceCount() + m_fpgaNodes.size());
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
    m_capacities = m_routes.Graph().ResourceCapacities();
    m_capacities.resize(ResourceCount(), m_caps.fpgaThroughputBps);
}

void
TrafficPlanner::SetSizing(const ExchangeSizing& sizing)
{
    sizing.Validate();
    m_sizing = sizing;
    m_unicast.clear(); // tails depend on the segment size
}

const ExchangeSizing&
TrafficPlanner::Sizing() const
{
    return m_sizing;
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
    return m_capacities;
}

uint32_t
TrafficPlanner::FpgaResource(uint32_t device) const
{
    if (device >= m_fpgaResource.size() || m_fpgaResource[device] < 0)
    {
        throw std::invalid_argument("node " + m_routes.Graph().Nodes().at(device).name +
                                    " has no FPGA");
    }
    return static_cast<uint32_t>(m_fpgaResource[device]);
}

std::map<uint32_t, double>
TrafficPlanner::Arrivals(const RoutePlanner::Path& hops, uint32_t root, double start,
                         bool sfFirst) const
{
    const NetworkGraph& g = m_routes.Graph();
    const double segBits = m_sizing.SegmentWireBits();
    std::map<uint32_t, double> at{{root, start}};
    for (const auto& h : hops)
    {
        const GraphEdge& e = g.Edges()[h.edge];
        double sf = (h.from != root || sfFirst)
                        ? segBits / m_capacities[NetworkGraph::Resource(e, h.edge, h.from)]
                        : 0.0;
        at[h.to] = at.at(h.from) + e.latencyS + sf;
    }
    return at;
}

void
TrafficPlanner::Finish(TrafficFlow& f) const
{
    // Called for every stream a simulation opens (the first time a pair or tree is planned):
    // flat vectors rather than maps. The usage is Charge's (one unit per hop, resources in
    // order), the depth and arrival of a node those of Arrivals(f.down, source, 0, false).
    const NetworkGraph& g = m_routes.Graph();
    const double segBits = m_sizing.SegmentWireBits();
    const uint32_t root = f.sources[0];
    f.usage = FlowUsage();
    f.usage.usage.reserve(f.down.size());
    for (const auto& h : f.down)
    {
        f.usage.usage.emplace_back(g.Resource(h.edge, h.from), 1.0);
    }
    std::sort(f.usage.usage.begin(), f.usage.usage.end());
    auto& usage = f.usage.usage;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < usage.size(); ++i)
    {
        if (kept > 0 && usage[kept - 1].first == usage[i].first)
        {
            usage[kept - 1].second += 1.0;
        }
        else
        {
            usage[kept++] = usage[i];
        }
    }
    usage.resize(kept);
    // (node, depth, arrival), the source first; a hop's tail was reached before (a path or a
    // tree in order), usually just before: searched from the back.
    struct Reached
    {
        uint32_t node;
        double depth;
        double at;
    };
    std::vector<Reached> reached{{root, 0.0, 0.0}};
    reached.reserve(f.down.size() + 1);
    auto find = [&reached](uint32_t node) -> const Reached& {
        for (auto it = reached.rbegin(); it != reached.rend(); ++it)
        {
            if (it->node == node)
            {
                return *it;
            }
        }
        throw std::out_of_range("traffic planner: a flow's hop starts at a node not reached");
    };
    for (const auto& h : f.down)
    {
        const GraphEdge& e = g.Edges()[h.edge];
        const Reached& from = find(h.from);
        double sf = h.from != root
                        ? segBits / m_capacities[NetworkGraph::Resource(e, h.edge, h.from)]
                        : 0.0;
        reached.push_back({h.to, from.depth + e.latencyS, from.at + e.latencyS + sf});
    }
    for (uint32_t r : f.receivers)
    {
        const Reached& at = find(r);
        f.latencyS = std::max(f.latencyS, at.depth);
        f.tailS = std::max(f.tailS, at.at);
    }
}

double
TrafficPlanner::PhaseBoundS(const std::vector<TrafficFlow>& phase) const
{
    const double model = m_sizing.ModelWireBits();
    double bound = 0;
    std::vector<std::pair<uint32_t, std::pair<double, double>>> loads; // r -> (bits, tail)
    for (const TrafficFlow& f : phase)
    {
        double bits = f.fraction * model;
        double best = f.usage.maxRate;
        for (const SlotWindow& w : f.windows)
        {
            best = std::min(best, WindowRateBps(w, 1.0));
        }
        for (const auto& [r, a] : f.usage.usage)
        {
            best = std::min(best, m_capacities[r] / a);
            loads.push_back({r, {a * bits, f.tailS}});
        }
        bound = std::max(bound, f.startS + bits / best + f.tailS);
    }
    std::sort(loads.begin(), loads.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < loads.size();)
    {
        double bits = 0;
        double tail = kInf;
        std::size_t j = i;
        for (; j < loads.size() && loads[j].first == loads[i].first; ++j)
        {
            bits += loads[j].second.first;
            tail = std::min(tail, loads[j].second.second);
        }
        bound = std::max(bound, bits / m_capacities[loads[i].first] + tail);
        i = j;
    }
    return bound;
}

double
TrafficPlanner::WindowRateBps(const SlotWindow& w, double sharing) const
{
    // Slots this clique may use at the FPGA: its share of the memory, at most the per-clique
    // slot space; they carry window payload bytes per round trip of the FPGA's level.
    double slots = std::min<double>(m_caps.aggregationSlots,
                                    std::floor(m_caps.PoolSlots() / std::max(sharing, 1.0)));
    double window = slots * m_caps.slotBytes;
    if (window >= m_sizing.modelBytes)
    {
        return kInf; // the whole model fits in flight
    }
    if (slots < 1 || !(w.roundTripS > 0))
    {
        return slots < 1 ? 0.0 : kInf;
    }
    double segments = window / m_sizing.segmentPayloadBytes;
    return segments * m_sizing.SegmentWireBits() / w.roundTripS;
}

void
TrafficPlanner::Bound(CliqueExchange& x) const
{
    x.boundS = 0;
    for (const auto& phase : x.phases)
    {
        x.boundS += PhaseBoundS(phase);
    }
}

std::vector<uint32_t>
TrafficPlanner::FpgasOnPaths(const std::vector<uint32_t>& members) const
{
    std::set<uint32_t> found;
    for (uint32_t a : members)
    {
        for (uint32_t b : members)
        {
            if (a != b)
            {
                for (const auto& h : m_routes.ShortestPath(a, b))
                {
                    if (m_fpgaResource[h.to] >= 0)
                    {
                        found.insert(h.to);
                    }
                }
            }
        }
    }
    return {found.begin(), found.end()};
}

uint32_t
TrafficPlanner::Aggregator(const std::vector<uint32_t>& members) const
{
    int64_t best = -1;
    double bestMax = kInf;
    double bestSum = kInf;
    for (uint32_t f : FpgasOnPaths(members))
    {
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
        throw std::invalid_argument("aggregation is on but no FPGA device lies on the paths of "
                                    "clique " +
                                    CliqueName(m_routes.Graph(), members));
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
    auto it = m_unicast.find({source, receiver});
    if (it != m_unicast.end())
    {
        return it->second;
    }
    TrafficFlow f;
    f.kind = ExchangePattern::ALL_TO_ALL;
    f.sources = {source};
    f.receivers = {receiver};
    f.down = m_routes.ShortestPath(source, receiver);
    Finish(f);
    m_unicast.emplace(std::make_pair(source, receiver), f);
    return f;
}

TrafficFlow
TrafficPlanner::MulticastFlow(uint32_t source, const std::vector<uint32_t>& receivers) const
{
    TrafficFlow f;
    f.kind = ExchangePattern::MULTICAST;
    f.sources = {source};
    f.receivers = receivers;
    f.down = m_routes.Tree(source, receivers);
    Finish(f);
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
    return AggregationSingleAt(members, agg).phases.at(0).at(0);
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
        throw std::invalid_argument("traffic planner: CliqueFlows plans all-to-all, multicast "
                                    "and one-point aggregation; use Exchange() for " +
                                    PatternName(mode));
    }
    return flows;
}

bool
TrafficPlanner::CanExchange(const std::vector<uint32_t>& members, ExchangePattern pattern,
                            std::string* why) const
{
    auto fail = [why](const std::string& reason) {
        if (why)
        {
            *why = reason;
        }
        return false;
    };
    const NetworkGraph& g = m_routes.Graph();
    if (!m_caps.Allows(pattern))
    {
        return fail(m_caps.WhyNotAllowed(pattern));
    }
    for (uint32_t m : members)
    {
        if (m >= g.IslandCount())
        {
            return fail("node " + std::to_string(m) + " is not an island");
        }
    }
    if (std::set<uint32_t>(members.begin(), members.end()).size() != members.size())
    {
        return fail("clique " + CliqueName(g, members) + " lists an island twice");
    }
    if (members.size() < 2)
    {
        return true;
    }
    for (uint32_t m : members)
    {
        if (!m_routes.Reachable(m, members[0]) || !m_routes.Reachable(members[0], m))
        {
            return fail("clique " + CliqueName(g, members) + ": " + g.Nodes()[m].name +
                        " cannot reach " + g.Nodes()[members[0]].name);
        }
    }
    if (pattern == ExchangePattern::AGGREGATION && FpgasOnPaths(members).empty())
    {
        return fail("no FPGA device lies on the paths of clique " + CliqueName(g, members));
    }
    return true;
}

CliqueExchange
TrafficPlanner::Exchange(const std::vector<uint32_t>& members, ExchangePattern pattern) const
{
    std::string why;
    if (!CanExchange(members, pattern, &why))
    {
        throw std::invalid_argument("traffic planner: " + why);
    }
    std::vector<uint32_t> sorted = members;
    std::sort(sorted.begin(), sorted.end());
    CliqueExchange x;
    x.pattern = pattern;
    x.members = sorted;
    if (sorted.size() < 2)
    {
        return x;
    }
    switch (pattern)
    {
    case ExchangePattern::ALL_TO_ALL:
        x.phases.push_back(CliqueFlows(sorted, ExchangePattern::ALL_TO_ALL));
        break;
    case ExchangePattern::MULTICAST:
        x.phases.push_back(CliqueFlows(sorted, ExchangePattern::MULTICAST));
        break;
    case ExchangePattern::RING:
        return Ring(sorted);
    case ExchangePattern::TREE:
        return Tree(sorted);
    case ExchangePattern::PARAMETER_SERVER:
        return ParameterServer(sorted);
    case ExchangePattern::AGGREGATION:
        return Aggregation(sorted);
    }
    Bound(x);
    return x;
}

CliqueExchange
TrafficPlanner::RingOf(const std::vector<uint32_t>& order) const
{
    CliqueExchange x;
    x.pattern = ExchangePattern::RING;
    x.members = order;
    const std::size_t k = order.size();
    const std::size_t steps = 2 * (k - 1);
    std::vector<TrafficFlow> edges;
    std::vector<FlowUsage> usage;
    for (std::size_t i = 0; i < k; ++i)
    {
        TrafficFlow f = UnicastFlow(order[i], order[(i + 1) % k]);
        f.kind = ExchangePattern::RING;
        f.fraction = static_cast<double>(steps) / static_cast<double>(k);
        usage.push_back(f.usage);
        edges.push_back(std::move(f));
    }
    // The step dependency chain, as RingExchange runs it: member i sends step s as soon as it
    // has its predecessor's step s-1 (s = 0 at once), after its own step s-1 has left (one
    // edge carries one step at a time). With t_i one chunk at edge i's rate when the ring's k
    // edges share the network alone (max-min), L_i edge i's tail (propagation and
    // store-and-forward), F(i,s) the last bit of step s leaving member i:
    //   F(i,s) = max(F(i-1,s-1) + L_{i-1}, F(i,s-1)) + t_i,   F(i,-1) = 0, F(i-1,-1) + L = 0,
    // and member i+1 has everything at F(i, 2k-3) + L_i. One fluid phase: edge i carries its
    // 2(k-1) chunks, its tail the rest of the chain after its last bit, so that alone every
    // edge ends exactly where the chain does; on equal edges this is 2(k-1) (t + L), the
    // synchronous steps, and on unequal ones a fast edge waits only for what it forwards.
    std::vector<double> rate = MaxMinAllocator::Allocate(m_capacities, usage);
    const double chunk = m_sizing.ModelWireBits() / static_cast<double>(k);
    std::vector<double> last(k, 0.0); // F(i, s-1)
    for (std::size_t s = 0; s < steps; ++s)
    {
        std::vector<double> next(k);
        for (std::size_t i = 0; i < k; ++i)
        {
            std::size_t prev = (i + k - 1) % k;
            double ready = s == 0 ? 0.0 : last[prev] + edges[prev].tailS;
            next[i] = std::max(ready, last[i]) + chunk / rate[i];
        }
        last = std::move(next);
    }
    for (std::size_t i = 0; i < k; ++i)
    {
        TrafficFlow& f = edges[i];
        f.tailS = std::max(f.tailS, last[i] + f.tailS - f.fraction * m_sizing.ModelWireBits() /
                                                             rate[i]);
    }
    x.phases.push_back(std::move(edges));
    Bound(x);
    return x;
}

CliqueExchange
TrafficPlanner::Ring(const std::vector<uint32_t>& members) const
{
    const std::size_t k = members.size();
    if (k == 2)
    {
        return RingOf(members); // the only ring
    }
    // Cost of the ring edge a -> b: one chunk at the path's bottleneck plus its latency.
    const double chunk = m_sizing.ModelWireBits() / static_cast<double>(k);
    std::vector<std::vector<double>> cost(k, std::vector<double>(k, 0.0));
    for (std::size_t a = 0; a < k; ++a)
    {
        for (std::size_t b = 0; b < k; ++b)
        {
            if (a != b)
            {
                auto path = m_routes.ShortestPath(members[a], members[b]);
                cost[a][b] = m_routes.Latency(path) + chunk / m_routes.Bottleneck(path);
            }
        }
    }
    auto evaluate = [&cost, k](const std::vector<std::size_t>& order) {
        RingCost c{0, 0};
        for (std::size_t i = 0; i < k; ++i)
        {
            double e = cost[order[i]][order[(i + 1) % k]];
            c.worst = std::max(c.worst, e);
            c.sum += e;
        }
        return c;
    };
    std::vector<std::size_t> best;
    RingCost bestCost;
    if (k <= 8)
    {
        // Every order with member 0 first (each ring direction is a separate order).
        std::vector<std::size_t> order(k);
        for (std::size_t i = 0; i < k; ++i)
        {
            order[i] = i;
        }
        do
        {
            RingCost c = evaluate(order);
            if (best.empty() || c.Below(bestCost))
            {
                best = order;
                bestCost = c;
            }
        } while (std::next_permutation(order.begin() + 1, order.end()));
    }
    else
    {
        // Nearest-neighbour tours from a few starts, each improved by 2-opt (segment
        // reversal) on the symmetric edge costs, judged on the directed costs.
        std::vector<std::vector<double>> sym = cost;
        for (std::size_t a = 0; a < k; ++a)
        {
            for (std::size_t b = 0; b < k; ++b)
            {
                sym[a][b] = std::max(cost[a][b], cost[b][a]);
            }
        }
        const std::size_t starts = std::min<std::size_t>(k, 4);
        for (std::size_t s = 0; s < starts; ++s)
        {
            std::size_t first = s * k / starts;
            std::vector<std::size_t> order{first};
            std::vector<bool> used(k, false);
            used[first] = true;
            for (std::size_t step = 1; step < k; ++step)
            {
                std::size_t at = order.back();
                std::size_t pick = k;
                for (std::size_t j = 0; j < k; ++j)
                {
                    if (!used[j] && (pick == k || sym[at][j] < sym[at][pick]))
                    {
                        pick = j;
                    }
                }
                used[pick] = true;
                order.push_back(pick);
            }
            auto symCost = [&sym, k](const std::vector<std::size_t>& o) {
                RingCost c{0, 0};
                for (std::size_t i = 0; i < k; ++i)
                {
                    double e = sym[o[i]][o[(i + 1) % k]];
                    c.worst = std::max(c.worst, e);
                    c.sum += e;
                }
                return c;
            };
            RingCost cur = symCost(order);
            for (int pass = 0; pass < 20; ++pass)
            {
                bool improved = false;
                for (std::size_t i = 0; i + 2 < k; ++i)
                {
                    for (std::size_t j = i + 2; j < k; ++j)
                    {
                        if (i == 0 && j == k - 1)
                        {
                            continue;
                        }
                        // Replace edges (i, i+1) and (j, j+1) by (i, j) and (i+1, j+1).
                        std::size_t a = order[i];
                        std::size_t b = order[i + 1];
                        std::size_t c = order[j];
                        std::size_t d = order[(j + 1) % k];
                        double delta = sym[a][c] + sym[b][d] - sym[a][b] - sym[c][d];
                        if (delta > 1e-12 * cur.sum &&
                            std::max(sym[a][c], sym[b][d]) >= cur.worst)
                        {
                            continue;
                        }
                        std::reverse(order.begin() + i + 1, order.begin() + j + 1);
                        RingCost next = symCost(order);
                        if (next.Below(cur))
                        {
                            cur = next;
                            improved = true;
                        }
                        else
                        {
                            std::reverse(order.begin() + i + 1, order.begin() + j + 1);
                        }
                    }
                }
                if (!improved)
                {
                    break;
                }
            }
            for (bool reversed : {false, true})
            {
                std::vector<std::size_t> o = order;
                if (reversed)
                {
                    std::reverse(o.begin(), o.end());
                }
                RingCost c = evaluate(o);
                if (best.empty() || c.Below(bestCost))
                {
                    best = o;
                    bestCost = c;
                }
            }
        }
    }
    std::vector<uint32_t> order;
    for (std::size_t i : best)
    {
        order.push_back(members[i]);
    }
    return RingOf(order);
}

CliqueExchange
TrafficPlanner::TreeOf(const std::vector<uint32_t>& order) const
{
    const auto k = static_cast<uint32_t>(order.size());
    CliqueExchange x;
    x.pattern = ExchangePattern::TREE;
    x.members = order;
    x.chunkBytes = m_caps.treeChunkBytes;
    // Tree 1 over positions 1..k; tree 2 the same tree over mirrored (k even) or shifted
    // (k odd) positions, so that every member is interior in at most one of them.
    std::vector<uint32_t> parentValue = TreeParents(k);
    auto position = [k](uint32_t value, int tree) -> uint32_t {
        if (tree == 0)
        {
            return value; // value v is position v
        }
        // value = sigma(position): mirror or shift; invert it.
        return k % 2 == 0 ? k + 1 - value : (value == 1 ? k : value - 1);
    };
    const double fraction = 0.5;
    const double wirePerByte = m_sizing.ModelWireBits() / (8.0 * m_sizing.modelBytes);
    const double chunkBits =
        8.0 * std::min(x.chunkBytes, m_sizing.modelBytes * fraction) * wirePerByte;
    std::vector<TrafficFlow> phase;
    for (int t = 0; t < 2; ++t)
    {
        std::vector<int32_t> parent(k, -1);
        for (uint32_t v = 1; v <= k; ++v)
        {
            if (parentValue[v - 1] > 0)
            {
                parent[position(v, t) - 1] = static_cast<int32_t>(position(parentValue[v - 1], t) - 1);
            }
        }
        x.trees.push_back(parent);
    }
    for (int t = 0; t < 2; ++t)
    {
        const std::vector<int32_t>& parent = x.trees[t];
        // The pipeline, per chunk (see CliqueExchange): when every flow's source has the
        // first chunk, and what the last chunk still needs after a flow's last bit.
        std::vector<TrafficFlow> up(k);
        std::vector<TrafficFlow> down(k);
        std::vector<std::vector<uint32_t>> children(k);
        int32_t root = -1;
        for (uint32_t v = 0; v < k; ++v)
        {
            if (parent[v] < 0)
            {
                root = static_cast<int32_t>(v);
                continue;
            }
            children[parent[v]].push_back(v);
            up[v] = UnicastFlow(order[v], order[parent[v]]);
            down[v] = UnicastFlow(order[parent[v]], order[v]);
        }
        // One chunk at the path's bottleneck, then its tail: a member's store-and-forward of
        // a chunk.
        auto hop = [this, chunkBits](const TrafficFlow& f) {
            return chunkBits / m_routes.Bottleneck(f.down) + f.tailS;
        };
        std::vector<uint32_t> orderDfs; // parents before children
        std::vector<uint32_t> dfs{static_cast<uint32_t>(root)};
        while (!dfs.empty())
        {
            uint32_t v = dfs.back();
            dfs.pop_back();
            orderDfs.push_back(v);
            for (uint32_t c : children[v])
            {
                dfs.push_back(c);
            }
        }
        // ready[v]: v has the (partial) sum of the first chunk; below[v]: the last chunk's
        // way from v (which has it) to the deepest member of v's subtree.
        std::vector<double> ready(k, 0.0);
        std::vector<double> below(k, 0.0);
        for (auto it = orderDfs.rbegin(); it != orderDfs.rend(); ++it)
        {
            uint32_t v = *it;
            if (parent[v] >= 0)
            {
                ready[parent[v]] = std::max(ready[parent[v]], ready[v] + hop(up[v]));
                below[parent[v]] = std::max(below[parent[v]], hop(down[v]) + below[v]);
            }
        }
        // got[v]: v has the first chunk of the result; above[v]: the last chunk's way from v
        // (which has its last partial sum) up to the root and down to every member.
        std::vector<double> got(k, 0.0);
        std::vector<double> above(k, 0.0);
        for (uint32_t v : orderDfs)
        {
            if (parent[v] < 0)
            {
                got[v] = ready[v];
                above[v] = below[v];
            }
            else
            {
                got[v] = got[parent[v]] + hop(down[v]);
                above[v] = hop(up[v]) + above[parent[v]];
            }
        }
        double latency = 0; // propagation only, same paths
        {
            std::vector<double> r(k, 0.0);
            for (auto it = orderDfs.rbegin(); it != orderDfs.rend(); ++it)
            {
                if (parent[*it] >= 0)
                {
                    r[parent[*it]] = std::max(r[parent[*it]], r[*it] + up[*it].latencyS);
                }
            }
            std::vector<double> d(k, 0.0);
            double dd = 0;
            for (uint32_t v : orderDfs)
            {
                if (parent[v] >= 0)
                {
                    d[v] = d[parent[v]] + down[v].latencyS;
                    dd = std::max(dd, d[v]);
                }
            }
            latency = r[root] + dd;
        }
        for (uint32_t v = 0; v < k; ++v)
        {
            if (parent[v] < 0)
            {
                continue;
            }
            // Up: from v's first partial sum; its last chunk then travels its path and on
            // from the parent. Down: from the parent's first result chunk; its last chunk
            // then travels its path and on below v.
            up[v].startS = ready[v];
            up[v].tailS = up[v].tailS + above[parent[v]];
            down[v].startS = got[parent[v]];
            down[v].tailS = down[v].tailS + below[v];
            for (TrafficFlow* f : {&up[v], &down[v]})
            {
                f->kind = ExchangePattern::TREE;
                f->fraction = fraction;
                f->latencyS = latency;
                phase.push_back(std::move(*f));
            }
        }
    }
    x.phases.push_back(std::move(phase));
    Bound(x);
    return x;
}

CliqueExchange
TrafficPlanner::Tree(const std::vector<uint32_t>& members) const
{
    std::vector<uint32_t> ring = Ring(members).members;
    CliqueExchange best;
    bool have = false;
    for (std::size_t r = 0; r < ring.size(); ++r)
    {
        std::vector<uint32_t> order(ring.begin() + r, ring.end());
        order.insert(order.end(), ring.begin(), ring.begin() + r);
        CliqueExchange x = TreeOf(order);
        if (!have || x.boundS < best.boundS - 1e-12 * best.boundS)
        {
            best = std::move(x);
            have = true;
        }
    }
    return best;
}

CliqueExchange
TrafficPlanner::ParameterServerAt(const std::vector<uint32_t>& members, int32_t server) const
{
    CliqueExchange x;
    x.pattern = ExchangePattern::PARAMETER_SERVER;
    x.members = members;
    x.server = server;
    std::vector<TrafficFlow> push;
    std::vector<TrafficFlow> pull;
    for (std::size_t i = 0; i < members.size(); ++i)
    {
        if (static_cast<int32_t>(i) == server)
        {
            continue;
        }
        push.push_back(UnicastFlow(members[i], members[server]));
        pull.push_back(UnicastFlow(members[server], members[i]));
    }
    for (auto* phase : {&push, &pull})
    {
        for (TrafficFlow& f : *phase)
        {
            f.kind = ExchangePattern::PARAMETER_SERVER;
        }
        x.phases.push_back(std::move(*phase));
    }
    Bound(x);
    return x;
}

CliqueExchange
TrafficPlanner::ParameterServer(const std::vector<uint32_t>& members) const
{
    CliqueExchange best;
    for (std::size_t s = 0; s < members.size(); ++s)
    {
        CliqueExchange x = ParameterServerAt(members, static_cast<int32_t>(s));
        if (s == 0 || x.boundS < best.boundS - 1e-12 * best.boundS)
        {
            best = std::move(x);
        }
    }
    return best;
}

CliqueExchange
TrafficPlanner::Aggregation(const std::vector<uint32_t>& members) const
{
    if (m_caps.aggregationDesign == AggregationDesign::SINGLE)
    {
        CliqueExchange x = AggregationSingleAt(members, Aggregator(members));
        return x;
    }
    CliqueExchange best;
    double bestWorst = kInf;
    bool have = false;
    for (uint32_t root : FpgasOnPaths(members))
    {
        CliqueExchange x = AggregationTreeAt(members, root);
        double worst = 0;
        for (uint32_t m : members)
        {
            worst = std::max(worst, m_routes.PathLatency(m, root));
        }
        double tol = 1e-12 * std::max(1.0, best.boundS);
        if (!have || x.boundS < best.boundS - tol ||
            (x.boundS <= best.boundS + tol && worst < bestWorst - 1e-12))
        {
            best = std::move(x);
            bestWorst = worst;
            have = true;
        }
    }
    if (!have)
    {
        throw std::invalid_argument("no FPGA device lies on the paths of clique " +
                                    CliqueName(m_routes.Graph(), members));
    }
    return best;
}

CliqueExchange
TrafficPlanner::AggregationSingleAt(const std::vector<uint32_t>& members, uint32_t root) const
{
    // The one-point design is the tree design with every member's first FPGA the root and the
    // result multicast along the root's source tree (what the ns-3 layer installs).
    FpgaResource(root); // throws if the root has no FPGA
    CliqueExchange x;
    x.pattern = ExchangePattern::AGGREGATION;
    x.members = members;
    AggregationNode node;
    node.device = root;
    node.members = members;
    x.aggregation.push_back(node);
    x.resultTree = m_routes.Tree(root, members);
    TrafficFlow f;
    f.kind = ExchangePattern::AGGREGATION;
    f.aggregator = root;
    f.sources = members;
    f.receivers = members;
    for (uint32_t m : members)
    {
        f.up.push_back(m_routes.ShortestPath(m, root));
    }
    f.down = x.resultTree;
    x.phases.push_back({f});
    // Timing, usage and windows as for any reduction tree.
    const NetworkGraph& g = m_routes.Graph();
    TrafficFlow& flow = x.phases[0][0];
    std::map<uint32_t, double> acc;
    double upMax = 0;
    double ready = 0;
    for (std::size_t i = 0; i < members.size(); ++i)
    {
        Charge(g, flow.up[i], acc);
        upMax = std::max(upMax, m_routes.Latency(flow.up[i]));
        ready = std::max(ready, Arrivals(flow.up[i], members[i], 0.0, false).at(root));
    }
    Charge(g, flow.down, acc);
    acc[FpgaResource(root)] += static_cast<double>(members.size());
    flow.usage = ToUsage(acc);
    ready += m_caps.fpgaLatencyS;
    auto at = Arrivals(flow.down, root, ready, true);
    std::map<uint32_t, double> depth{{root, 0.0}};
    for (const auto& h : flow.down)
    {
        depth[h.to] = depth.at(h.from) + g.Edges()[h.edge].latencyS;
    }
    double downMax = 0;
    for (uint32_t m : members)
    {
        flow.tailS = std::max(flow.tailS, at.at(m));
        downMax = std::max(downMax, depth.at(m));
    }
    flow.latencyS = upMax + m_caps.fpgaLatencyS + downMax;
    // A slot is reused when every member has its sum and sent the next contribution: the
    // members' round trip (SwitchML's self-clocking).
    x.aggregation[0].roundTripS = flow.tailS;
    flow.windows.push_back(SlotWindow{root, flow.tailS});
    Bound(x);
    return x;
}

CliqueExchange
TrafficPlanner::AggregationTreeAt(const std::vector<uint32_t>& members, uint32_t root) const
{
    const NetworkGraph& g = m_routes.Graph();
    FpgaResource(root); // throws if the root has no FPGA
    CliqueExchange x;
    x.pattern = ExchangePattern::AGGREGATION;
    x.members = members;
    TrafficFlow f;
    f.kind = ExchangePattern::AGGREGATION;
    f.aggregator = root;
    f.sources = members;
    f.receivers = members;

    // Paths to the root form an in-tree (every path to a destination follows its
    // shortest-path tree). Along each, the first FPGA sums the member; each FPGA's partial
    // sum goes to the next FPGA on the way.
    std::map<uint32_t, AggregationNode> nodes;
    std::map<uint32_t, uint32_t> firstOf;         // member -> first FPGA
    std::map<uint32_t, RoutePlanner::Path> upOf;  // member -> its path to the first FPGA
    nodes[root].device = root;
    for (uint32_t m : members)
    {
        RoutePlanner::Path seg;
        int64_t below = -1; // the FPGA the current segment started at (-1: the member)
        for (const auto& h : m_routes.ShortestPath(m, root))
        {
            seg.push_back(h);
            if (m_fpgaResource[h.to] < 0)
            {
                continue;
            }
            AggregationNode& n = nodes[h.to];
            n.device = h.to;
            if (below < 0)
            {
                firstOf[m] = h.to;
                upOf[m] = seg;
            }
            else
            {
                AggregationNode& child = nodes[static_cast<uint32_t>(below)];
                // A child already linked by an earlier member: the rest of the path is shared.
                if (child.parent < 0)
                {
                    child.parent = h.to;
                    child.up = seg;
                    n.children.push_back(static_cast<uint32_t>(below));
                }
            }
            below = h.to;
            seg.clear();
        }
    }
    // A non-root FPGA with a single input (typically a member's own device) adds nothing to
    // the sum: it is no tree node (no slot, no FPGA latency, no level of timeouts). Its input
    // goes on to its parent along the same links: the routes, and so the links charged, are
    // unchanged.
    for (bool changed = true; changed;)
    {
        changed = false;
        for (auto it = nodes.begin(); it != nodes.end(); ++it)
        {
            const uint32_t d = it->first;
            AggregationNode& n = it->second;
            std::size_t direct = 0;
            for (const auto& [m, first] : firstOf)
            {
                direct += first == d ? 1 : 0;
            }
            if (d == root || direct + n.children.size() != 1)
            {
                continue;
            }
            const auto parent = static_cast<uint32_t>(n.parent);
            for (auto& [m, first] : firstOf)
            {
                if (first == d)
                {
                    first = parent;
                    upOf[m].insert(upOf[m].end(), n.up.begin(), n.up.end());
                }
            }
            auto& siblings = nodes[parent].children;
            siblings.erase(std::find(siblings.begin(), siblings.end(), d));
            for (uint32_t c : n.children)
            {
                nodes[c].parent = parent;
                nodes[c].up.insert(nodes[c].up.end(), n.up.begin(), n.up.end());
                siblings.push_back(c);
            }
            nodes.erase(it);
            changed = true;
            break;
        }
    }
    for (uint32_t m : members)
    {
        nodes[firstOf.at(m)].members.push_back(m);
        f.up.push_back(upOf.at(m));
    }
    std::map<uint32_t, double> acc;
    std::set<std::pair<uint32_t, uint32_t>> treeEdges; // (edge, from), directed up
    for (const auto& path : f.up)
    {
        Charge(g, path, acc);
        for (const auto& h : path)
        {
            treeEdges.insert({h.edge, h.from});
        }
    }
    for (const auto& [device, n] : nodes)
    {
        Charge(g, n.up, acc);
        for (const auto& h : n.up)
        {
            treeEdges.insert({h.edge, h.from});
        }
    }
    // Result tree: the tree's edges reversed, each node reached once from the root, pruned to
    // the branches that lead to a member or an FPGA of the tree (whose slots the result frees).
    std::map<uint32_t, std::vector<RoutePlanner::Hop>> out; // node -> hops leaving it downward
    for (const auto& [edge, from] : treeEdges)
    {
        uint32_t to = g.OtherEnd(edge, from);
        out[to].push_back(RoutePlanner::Hop{edge, to, from});
    }
    std::vector<RoutePlanner::Hop> bfsHops;
    std::set<uint32_t> reached{root};
    std::vector<uint32_t> queue{root};
    for (std::size_t i = 0; i < queue.size(); ++i)
    {
        for (const auto& h : out[queue[i]])
        {
            if (reached.insert(h.to).second)
            {
                bfsHops.push_back(h);
                queue.push_back(h.to);
            }
        }
    }
    std::set<uint32_t> needed;
    for (uint32_t m : members)
    {
        needed.insert(m);
    }
    for (const auto& [device, n] : nodes)
    {
        needed.insert(device);
    }
    for (auto it = bfsHops.rbegin(); it != bfsHops.rend(); ++it)
    {
        if (needed.count(it->to))
        {
            needed.insert(it->from);
        }
    }
    for (const auto& h : bfsHops)
    {
        if (needed.count(h.to))
        {
            x.resultTree.push_back(h);
        }
    }
    f.down = x.resultTree;
    Charge(g, f.down, acc);
    for (auto& [device, n] : nodes)
    {
        acc[FpgaResource(device)] += static_cast<double>(n.members.size() + n.children.size());
    }
    f.usage = ToUsage(acc);

    // Timing: an FPGA's partial leaves fpgaLatency after its last input arrived.
    std::vector<uint32_t> bfs{root};
    for (std::size_t i = 0; i < bfs.size(); ++i)
    {
        for (uint32_t c : nodes[bfs[i]].children)
        {
            bfs.push_back(c);
        }
    }
    std::map<uint32_t, double> lastIn;  // device -> last input arrival
    std::map<uint32_t, double> ready;   // device -> partial leaves
    std::map<uint32_t, double> propIn;  // device -> propagation of its longest input path
    std::map<uint32_t, double> propReady;
    for (std::size_t i = 0; i < members.size(); ++i)
    {
        uint32_t d = firstOf.at(members[i]);
        double a = Arrivals(f.up[i], members[i], 0.0, false).at(d);
        lastIn[d] = std::max(lastIn[d], a);
        propIn[d] = std::max(propIn[d], m_routes.Latency(f.up[i]));
    }
    for (auto it = bfs.rbegin(); it != bfs.rend(); ++it)
    {
        uint32_t d = *it;
        ready[d] = lastIn[d] + m_caps.fpgaLatencyS;
        propReady[d] = propIn[d] + m_caps.fpgaLatencyS;
        const AggregationNode& n = nodes[d];
        if (n.parent >= 0)
        {
            auto p = static_cast<uint32_t>(n.parent);
            double leg = Arrivals(n.up, d, 0.0, true).at(p);
            lastIn[p] = std::max(lastIn[p], ready[d] + leg);
            propIn[p] = std::max(propIn[p], propReady[d] + m_routes.Latency(n.up));
        }
    }
    const double rootReady = ready[root];
    auto down = Arrivals(x.resultTree, root, rootReady, true);
    std::map<uint32_t, double> depth{{root, 0.0}};
    for (const auto& h : x.resultTree)
    {
        depth[h.to] = depth.at(h.from) + g.Edges()[h.edge].latencyS;
    }
    double downMax = 0;
    for (uint32_t m : members)
    {
        f.tailS = std::max(f.tailS, down.at(m));
        downMax = std::max(downMax, depth.at(m));
    }
    f.latencyS = propReady[root] + downMax;
    // Slot window of every FPGA: a slot is reused one round trip of its level after use, from
    // an input (member or child FPGA) sending its contribution to it until that input has the
    // result (then it sends the next one for the slot).
    for (uint32_t d : bfs)
    {
        AggregationNode& n = nodes[d];
        n.roundTripS = 0;
        for (uint32_t m : n.members)
        {
            n.roundTripS = std::max(n.roundTripS, down.at(m));
        }
        for (uint32_t c : n.children)
        {
            n.roundTripS = std::max(n.roundTripS, down.at(c) - ready.at(c));
        }
        f.windows.push_back(SlotWindow{d, n.roundTripS});
        x.aggregation.push_back(n);
    }
    x.phases.push_back({f});
    Bound(x);
    return x;
}

} // namespace ns3
