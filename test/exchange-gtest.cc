/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: the exchange patterns (TrafficPlanner::Exchange) -- their structure (ring order,
// double binary tree, parameter-server city, aggregation trees) and their fluid times
// (CostModel) against hand computations: ring all-reduce on a ring of equal links, parameter
// server, tree all-reduce, in-network aggregation over a binary tree of FPGAs, and all nine
// cities.

#include "ns3/cost-model.h"
#include "ns3/topology-reader.h"
#include "ns3/traffic-planner.h"
#include "ns3/wire-format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace ns3;

namespace
{

struct Edge
{
    std::string a;
    std::string b;
    double latencyS;
    double rateBps;
};

/// Islands first, then devices.
NetworkGraph
Graph(const std::vector<std::string>& islands, const std::vector<std::string>& devices,
      const std::vector<Edge>& edges)
{
    NetworkGraph g;
    for (const auto& i : islands)
    {
        g.AddNode(GraphNode{i, NodeKind::ISLAND, i});
    }
    for (const auto& d : devices)
    {
        g.AddNode(GraphNode{d, NodeKind::DEVICE, d});
    }
    for (const auto& e : edges)
    {
        g.AddEdge(GraphEdge{g.NodeByName(e.a), g.NodeByName(e.b), e.latencyS, e.rateBps,
                            EdgeKind::PRIVATE});
    }
    return g;
}

std::vector<uint32_t>
Range(uint32_t k)
{
    std::vector<uint32_t> v(k);
    for (uint32_t i = 0; i < k; ++i)
    {
        v[i] = i;
    }
    return v;
}

CostParameters
Params(double modelBytes, uint32_t segment = 8000)
{
    CostParameters p;
    p.modelBytes = modelBytes;
    p.segmentPayloadBytes = segment;
    return p;
}

NetworkCapabilities
FullSet()
{
    NetworkCapabilities c;
    c.SetSwitches("unicast,multicast,aggregation");
    return c;
}

/// k islands on a ring of devices D0 - D1 - ... - D(k-1) - D0 of equal links; island Ii hangs
/// off Di by a link of 1 ns and 1000x the rate (islands are hosts: they never forward
/// transit, so a ring of islands linked directly would not connect non-neighbours).
NetworkGraph
RingGraph(uint32_t k, double latency, double rate)
{
    std::vector<std::string> names;
    std::vector<std::string> devices;
    std::vector<Edge> edges;
    for (uint32_t i = 0; i < k; ++i)
    {
        names.push_back("I" + std::to_string(i));
        devices.push_back("D" + std::to_string(i));
    }
    for (uint32_t i = 0; i < k; ++i)
    {
        edges.push_back({devices[i], devices[(i + 1) % k], latency, rate});
        edges.push_back({names[i], devices[i], 1e-9, rate * 1000});
    }
    return Graph(names, devices, edges);
}

/// Number of copies every directed link resource carries in a flow.
std::map<uint32_t, double>
LinkUsage(const TrafficFlow& f, std::size_t linkResources)
{
    std::map<uint32_t, double> out;
    for (const auto& [r, a] : f.usage.usage)
    {
        if (r < linkResources)
        {
            out[r] = a;
        }
    }
    return out;
}

} // namespace

TEST(Exchange, RingPicksThePhysicalRingAndHasTwoKMinusTwoSteps)
{
    const uint32_t k = 7;
    NetworkGraph g = RingGraph(k, 0.01, 10e9);
    RoutePlanner routes(g);
    NetworkCapabilities caps;
    TrafficPlanner tp(routes, caps);
    // Members passed in a scrambled order: the planner chooses the order itself.
    CliqueExchange x = tp.Exchange({3, 0, 6, 1, 5, 2, 4}, ExchangePattern::RING);
    ASSERT_EQ(x.members.size(), k);
    for (uint32_t i = 0; i < k; ++i)
    {
        // Neighbours on the ring order are neighbours on the physical ring (one hop).
        uint32_t a = x.members[i];
        uint32_t b = x.members[(i + 1) % k];
        EXPECT_TRUE((a + 1) % k == b || (b + 1) % k == a) << a << " -> " << b;
    }
    // One fluid phase: edge i -> i+1 carries its 2(k-1) chunks of M/k.
    ASSERT_EQ(x.phases.size(), 1u);
    const auto& phase = x.phases[0];
    ASSERT_EQ(phase.size(), k);
    for (uint32_t i = 0; i < k; ++i)
    {
        EXPECT_EQ(phase[i].sources[0], x.members[i]);
        EXPECT_EQ(phase[i].receivers[0], x.members[(i + 1) % k]);
        EXPECT_DOUBLE_EQ(phase[i].fraction, 2.0 * (k - 1) / k);
        EXPECT_EQ(phase[i].down.size(), 3u); // island - device - device - island
        EXPECT_EQ(phase[i].kind, ExchangePattern::RING);
    }
    // Canonical: the same member set in another order gives the same exchange.
    CliqueExchange again = tp.Exchange(Range(k), ExchangePattern::RING);
    EXPECT_EQ(again.members, x.members);
}

TEST(Exchange, RingAllReduceMatchesItsAnalyticTime)
{
    // 2(k-1)/k x M/R plus 2(k-1) step latencies (each step: a chunk over one link).
    for (uint32_t k : {3u, 6u, 9u})
    {
        const double latency = 0.004;
        const double rate = 10e9;
        const double model = 1e9;
        NetworkGraph g = RingGraph(k, latency, rate);
        CostModel cm(g, NetworkCapabilities{}, Params(model));
        double t = cm.Round({Range(k)}, {ExchangePattern::RING}).commS;
        double analytic = 2.0 * (k - 1) / k * 8 * model / rate + 2.0 * (k - 1) * latency;
        EXPECT_NEAR(t, analytic, 0.01 * analytic) << "k=" << k;
        // Exactly, with the wire bits (8000-byte segments with their headers); each step's tail
        // adds the store-and-forward of one segment at the receiving device (ring link rate)
        // and, below 1e-6 of the round, the access links' nanosecond and 1000x-rate terms.
        double wire = cm.Parameters().ModelWireBits();
        double segment = cm.Parameters().SegmentWireBits();
        EXPECT_NEAR(t,
                    2.0 * (k - 1) / k * wire / rate + 2.0 * (k - 1) * (latency + segment / rate),
                    1e-6 * t);
        // Its lower bound is tight here.
        EXPECT_NEAR(cm.Exchange(Range(k), ExchangePattern::RING).boundS, t, 1e-9 * t);
    }
}

TEST(Exchange, RingStepsOverlapOnUnequalLatencies)
{
    // Three islands on one switch H (10 Gbps links of latencies d, d and D >> d): the ring
    // 0 -> 1 -> 2 -> 0 has edges of latency A = 2d (0 -> 1) and B = d + D (1 -> 2, 2 -> 0),
    // plus s, one segment's store-and-forward at H, in every edge's tail. A member sends step
    // s as soon as its predecessor's step s-1 has arrived (RingExchange), so with one chunk
    // time t the chain of the 4 steps gives, by hand (F(i,s): last bit of step s leaving i):
    //   F(i,0) = t;  F(0,1) = F(2,1) = 2t + B, F(1,1) = 2t + A;
    //   F(0,2) = 3t + 2B, F(1,2) = F(2,2) = 3t + A + B;  F(i,3) = 4t + A + 2B;
    //   members 2 and 0 have everything at 4t + A + 3B, member 1 at 4t + 2A + 2B.
    // Synchronous steps (a barrier after each) would give 4 (t + B).
    const double d = 0.0005;
    const double dd = 0.030;
    const double rate = 10e9;
    NetworkGraph g = Graph({"I0", "I1", "I2"}, {"H"},
                           {{"I0", "H", d, rate}, {"I1", "H", d, rate}, {"I2", "H", dd, rate}});
    CostModel cm(g, NetworkCapabilities{}, Params(3e8));
    double t = cm.Parameters().ModelWireBits() / 3 / rate;
    double s = cm.Parameters().SegmentWireBits() / rate;
    double a = 2 * d + s;
    double b = d + dd + s;
    double expected = 4 * t + a + 3 * b;
    double measured = cm.Round({Range(3)}, {ExchangePattern::RING}).commS;
    EXPECT_NEAR(measured, expected, 1e-6 * expected);
    EXPECT_LT(measured, 4 * (t + b) - 0.02) << "the steps must overlap";
    // The bound is the clique alone: at most the same time.
    EXPECT_LE(cm.Exchange(Range(3), ExchangePattern::RING).boundS, measured * (1 + 1e-9));
}

TEST(Exchange, PhasesStartWhenThePreviousPhaseHasFinished)
{
    // The parameter server: every other member pushes to the server, then the server sends
    // the average back: two phases.
    NetworkGraph g = RingGraph(4, 0.003, 10e9);
    CostModel cm(g, NetworkCapabilities{}, Params(1e8));
    auto flows = cm.SimulateFlows({Range(4)}, {ExchangePattern::PARAMETER_SERVER});
    ASSERT_EQ(flows.size(), 2u * 3);
    std::map<std::size_t, double> phaseEnd;
    std::map<std::size_t, double> phaseStart;
    for (const auto& f : flows)
    {
        phaseEnd[f.phase] = std::max(phaseEnd[f.phase], f.finishS);
        phaseStart[f.phase] = f.startS;
        EXPECT_NEAR(f.finishS, f.lastBitS + f.tailS, 1e-15);
        EXPECT_GT(f.lastBitS, f.startS);
    }
    EXPECT_EQ(phaseStart[0], 0.0);
    EXPECT_DOUBLE_EQ(phaseStart[1], phaseEnd[0]);
    EXPECT_DOUBLE_EQ(cm.Round({Range(4)}, {ExchangePattern::PARAMETER_SERVER}).commS,
                     phaseEnd[1]);
}

TEST(Exchange, DoubleBinaryTreeEveryMemberInteriorInAtMostOneTree)
{
    for (uint32_t k = 2; k <= 40; ++k)
    {
        NetworkGraph g = RingGraph(k, 0.001, 10e9);
        RoutePlanner routes(g);
        NetworkCapabilities caps;
        TrafficPlanner tp(routes, caps);
        CliqueExchange x = tp.Exchange(Range(k), ExchangePattern::TREE);
        ASSERT_EQ(x.trees.size(), 2u) << k;
        std::vector<int> interior(k, 0);
        for (const auto& parent : x.trees)
        {
            ASSERT_EQ(parent.size(), k);
            int roots = 0;
            std::vector<int> children(k, 0);
            for (uint32_t v = 0; v < k; ++v)
            {
                if (parent[v] < 0)
                {
                    ++roots;
                    continue;
                }
                ASSERT_LT(parent[v], static_cast<int32_t>(k));
                ++children[parent[v]];
                // Walking up reaches the root: no cycle.
                int32_t at = static_cast<int32_t>(v);
                for (uint32_t steps = 0; at >= 0; ++steps)
                {
                    ASSERT_LE(steps, k) << "cycle in the tree of " << k;
                    at = parent[at];
                }
            }
            EXPECT_EQ(roots, 1) << k;
            for (uint32_t v = 0; v < k; ++v)
            {
                EXPECT_LE(children[v], 2) << k; // binary
                interior[v] += children[v] > 0 ? 1 : 0;
            }
        }
        for (uint32_t v = 0; v < k; ++v)
        {
            EXPECT_LE(interior[v], 1) << "member " << v << " of " << k;
        }
        // One phase: an up and a down flow per tree edge, each with half of the model.
        ASSERT_EQ(x.phases.size(), 1u);
        EXPECT_EQ(x.phases[0].size(), 2u * 2 * (k - 1));
        for (const auto& f : x.phases[0])
        {
            EXPECT_DOUBLE_EQ(f.fraction, 0.5);
        }
        EXPECT_GT(x.chunkBytes, 0);
    }
}

TEST(Exchange, TreeAllReduceOnAStarMatchesAHandComputation)
{
    // Four islands behind one switch X, every link R and L. Positions 1..4 (the planner's
    // order): tree 1 is 4 <- 2 <- {1, 3}, tree 2 the mirror 1 <- 3 <- {4, 2}. Islands 2 and 3
    // (interior in one tree, parent of the other's leaf) send and receive four flows each,
    // 2 M over their link. The pipeline, per chunk (h = one chunk at R plus a path of 2L and
    // one segment's store-and-forward at X): a leaf's up flow starts at 0, the interior's at
    // h, the root's down flows at 2h, the interior's down flows at 3h; after its last bit a
    // leaf's up flow still needs its path and 3h (up to the root and down to the leaves),
    // the interior's up flow a path and 2h, the root's down flows a path and h, the
    // interior's down flows their path. The round lies between the busiest link's 2M/R plus
    // a path and 2M/R plus the whole pipeline (what every flow would need if they all
    // started at once).
    const double L = 0.002;
    const double R = 10e9;
    const double model = 4e8;
    NetworkGraph g = Graph({"A", "B", "C", "D"}, {"X"},
                           {{"A", "X", L, R}, {"B", "X", L, R}, {"C", "X", L, R}, {"D", "X", L, R}});
    CostModel cm(g, NetworkCapabilities{}, Params(model));
    CliqueExchange x = cm.Exchange(Range(4), ExchangePattern::TREE);
    const CostParameters& p = cm.Parameters();
    double wirePerByte = p.ModelWireBits() / (8 * model);
    double chunk = 8 * std::min(x.chunkBytes, model / 2) * wirePerByte / R;
    double path = 2 * L + p.SegmentWireBits() / R;
    double h = chunk + path;
    std::multiset<std::pair<long, long>> got; // (startS, tailS) in nanoseconds
    ASSERT_EQ(x.phases.size(), 1u);
    for (const auto& f : x.phases[0])
    {
        got.insert({std::lround(f.startS * 1e9), std::lround(f.tailS * 1e9)});
    }
    std::multiset<std::pair<long, long>> want;
    for (int t = 0; t < 2; ++t)
    {
        for (auto [start, tail] : {std::pair{0.0, path + 3 * h}, std::pair{0.0, path + 3 * h},
                                   std::pair{h, path + 2 * h}, std::pair{2 * h, path + h},
                                   std::pair{3 * h, path}, std::pair{3 * h, path}})
        {
            want.insert({std::lround(start * 1e9), std::lround(tail * 1e9)});
        }
    }
    EXPECT_EQ(got, want);
    double t = cm.Round({Range(4)}, {ExchangePattern::TREE}).commS;
    EXPECT_GE(t, 2 * p.ModelWireBits() / R + path - 1e-9);
    EXPECT_LT(t, 2 * p.ModelWireBits() / R + path + 3 * h);
    for (const auto& f : cm.SimulateFlows({Range(4)}, {ExchangePattern::TREE}))
    {
        // The leaves' up flows start alone on their links: every island sends two at first.
        if (f.startS == 0)
        {
            EXPECT_NEAR(f.initialRateBps, R / 2, 1e-3);
        }
        EXPECT_LE(f.finishS, t + 1e-12);
    }
}

TEST(Exchange, TreeAllReduceChargesThePipelineOnceOnALatencyHeavyTriangle)
{
    // Three islands on a triangle of equal links (rate R, latency d, far more latency than
    // transfer). The double binary tree of three: one member is a leaf in both trees, the
    // others are the root of one and a leaf of the other; between the two roots each
    // direction carries one tree's reduction (from 0) and the other's broadcast (from h =
    // one chunk at R plus a path, when the root has the first chunk). The reduction has the
    // direction alone for h, then shares it: it sends its last bit at M/R - h (M: wire bits
    // of the model, half per tree), the broadcast at M/R: the direction is busy from 0 to
    // M/R, and the last chunk, reduced at M/R - h + path and broadcast by M/R + path, ends
    // the round at M/R + path (the other flows are faster: the leaf's M/2 over its own
    // links). Before the pipeline was charged once, the fluid round was M/R + 2 path +
    // one chunk: here +12%.
    const double d = 0.02;
    const double R = 1e9;
    const double model = 1e7;
    NetworkGraph g = RingGraph(3, d, R);
    CostModel cm(g, NetworkCapabilities{}, Params(model));
    const CostParameters& p = cm.Parameters();
    double path = cm.Planner().UnicastFlow(0, 1).tailS;
    EXPECT_NEAR(path, d + p.SegmentWireBits() / R, 1e-6); // one WAN hop after the first
    double expected = p.ModelWireBits() / R + path;
    double t = cm.Round({Range(3)}, {ExchangePattern::TREE}).commS;
    EXPECT_NEAR(t, expected, 1e-6 * expected);
    // Two members over one link: the same, M/R + path.
    NetworkGraph two = Graph({"I0", "I1"}, {"D0", "D1"},
                             {{"I0", "D0", 1e-9, 1000 * R}, {"D0", "D1", d, R},
                              {"D1", "I1", 1e-9, 1000 * R}});
    CostModel cm2(two, NetworkCapabilities{}, Params(model));
    double t2 = cm2.Round({Range(2)}, {ExchangePattern::TREE}).commS;
    double path2 = cm2.Planner().UnicastFlow(0, 1).tailS;
    EXPECT_NEAR(t2, p.ModelWireBits() / R + path2, 1e-6 * t2);
}

TEST(Exchange, ParameterServerPicksTheBestCityAndMatchesAHandComputation)
{
    // Islands A..D behind switch X; A's link is twice as fast. The server is A: the push
    // brings three models over X->A (2R: 3M / 2R), the pull sends them back over A->X.
    const double L = 0.003;
    const double R = 10e9;
    const double model = 2e8;
    NetworkGraph g = Graph(
        {"A", "B", "C", "D"}, {"X"},
        {{"A", "X", L, 2 * R}, {"B", "X", L, R}, {"C", "X", L, R}, {"D", "X", L, R}});
    CostModel cm(g, NetworkCapabilities{}, Params(model));
    CliqueExchange x = cm.Exchange({1, 3, 0, 2}, ExchangePattern::PARAMETER_SERVER);
    ASSERT_GE(x.server, 0);
    EXPECT_EQ(x.members[x.server], 0u);
    ASSERT_EQ(x.phases.size(), 2u);
    for (const auto& f : x.phases[0])
    {
        EXPECT_EQ(f.receivers[0], 0u); // push to the server
    }
    for (const auto& f : x.phases[1])
    {
        EXPECT_EQ(f.sources[0], 0u); // then pull from it
    }
    const CostParameters& p = cm.Parameters();
    double bits = p.ModelWireBits();
    double seg = p.SegmentWireBits();
    // Push: 3 flows share X->A (2R); tail 2L + a segment's store-and-forward at X (2R).
    double push = 3 * bits / (2 * R) + 2 * L + seg / (2 * R);
    // Pull: 3 flows share A->X (2R); tail 2L + store-and-forward at X onto an R link.
    double pull = 3 * bits / (2 * R) + 2 * L + seg / R;
    double t = cm.Round({Range(4)}, {ExchangePattern::PARAMETER_SERVER}).commS;
    EXPECT_NEAR(t, push + pull, 1e-9 * t);
}

TEST(Exchange, AggregationTreeMatchesTheAnalyticLimit)
{
    // A binary tree of FPGAs (root F0, F1 F2, leaves F3..F6), two members at distance d from
    // each leaf: 8 members. Round time = M/R + 2 x (path latency to the root) + the FPGA
    // latencies, and every tree edge carries one copy in each direction.
    const double d = 0.02;
    const double l = 0.005;
    const double R = 10e9;
    const double model = 1e9;
    std::vector<std::string> islands;
    std::vector<Edge> edges{{"F0", "F1", l, R}, {"F0", "F2", l, R}, {"F1", "F3", l, R},
                            {"F1", "F4", l, R}, {"F2", "F5", l, R}, {"F2", "F6", l, R}};
    for (int i = 0; i < 8; ++i)
    {
        islands.push_back("M" + std::to_string(i));
        edges.push_back({islands.back(), "F" + std::to_string(3 + i / 2), d, R});
    }
    NetworkGraph g = Graph(islands, {"F0", "F1", "F2", "F3", "F4", "F5", "F6"}, edges);
    CostModel cm(g, FullSet(), Params(model));
    CliqueExchange x = cm.Exchange(Range(8), ExchangePattern::AGGREGATION);
    ASSERT_EQ(x.aggregation.size(), 7u);
    EXPECT_EQ(g.Nodes()[x.aggregation[0].device].name, "F0"); // the root minimises the time
    EXPECT_EQ(x.aggregation[0].parent, -1);
    for (const auto& n : x.aggregation)
    {
        bool leaf = g.Nodes()[n.device].name >= "F3";
        EXPECT_EQ(n.members.size(), leaf ? 2u : 0u);
        EXPECT_EQ(n.children.size(), leaf ? 0u : 2u);
    }
    ASSERT_EQ(x.phases.size(), 1u);
    ASSERT_EQ(x.phases[0].size(), 1u);
    const TrafficFlow& f = x.phases[0][0];
    auto usage = LinkUsage(f, g.ResourceCount());
    EXPECT_EQ(usage.size(), 2 * g.EdgeCount()); // every edge, both directions
    for (const auto& [r, a] : usage)
    {
        EXPECT_DOUBLE_EQ(a, 1.0) << g.EdgeName(r / 2);
    }
    EXPECT_EQ(x.resultTree.size(), g.EdgeCount());
    const double toRoot = d + 2 * l;
    const double fpga = 3 * cm.Capabilities().fpgaLatencyS; // three levels on the way up
    double t = cm.Round({Range(8)}, {ExchangePattern::AGGREGATION}).commS;
    double analytic = 8 * model / R + 2 * toRoot + fpga;
    EXPECT_NEAR(t, analytic, 0.03 * analytic);
    // Exactly: wire bits, plus one segment's store-and-forward per hop after the first (2
    // going up beyond the member's own link... every hop leaving an FPGA or router).
    const CostParameters& p = cm.Parameters();
    double sf = p.SegmentWireBits() / R;
    double exact = p.ModelWireBits() / R + 2 * toRoot + fpga + 2 * sf + 3 * sf;
    EXPECT_NEAR(t, exact, 1e-9 * t);
}

TEST(Exchange, SingleAggregationIsTheOnePointDesign)
{
    const double d = 0.02;
    const double R = 10e9;
    NetworkGraph g = Graph({"A", "B", "C"}, {"X", "Y"},
                           {{"A", "X", d, R}, {"B", "X", d, R}, {"X", "Y", d, R}, {"C", "Y", d, R}});
    NetworkCapabilities caps = FullSet();
    caps.aggregationDesign = AggregationDesign::SINGLE;
    RoutePlanner routes(g);
    TrafficPlanner tp(routes, caps);
    CliqueExchange x = tp.Exchange(Range(3), ExchangePattern::AGGREGATION);
    ASSERT_EQ(x.aggregation.size(), 1u);
    EXPECT_EQ(x.aggregation[0].device, tp.Aggregator(Range(3)));
    EXPECT_EQ(x.aggregation[0].members.size(), 3u);
    // The same stream as the ns-3 layer's AggregationFlow.
    TrafficFlow legacy = tp.AggregationFlow(Range(3));
    EXPECT_EQ(x.phases[0][0].usage.usage, legacy.usage.usage);
    EXPECT_DOUBLE_EQ(x.phases[0][0].latencyS, legacy.latencyS);
    // Its slot window's round trip is the members' round trip (the tail).
    EXPECT_DOUBLE_EQ(x.aggregation[0].roundTripS, x.phases[0][0].tailS);
    // The tree design sums A and B at X: the X-Y link carries one copy instead of two. Rooted
    // at X (up 2d, C's contribution through Y, + FPGA + down 2d) it beats Y (A and B summed
    // at X first: 2d + 2 FPGA + 2d); Y then has one input (C) and only forwards: no tree node.
    caps.aggregationDesign = AggregationDesign::TREE;
    TrafficPlanner tree(routes, caps);
    CliqueExchange t = tree.Exchange(Range(3), ExchangePattern::AGGREGATION);
    ASSERT_EQ(t.aggregation.size(), 1u);
    EXPECT_EQ(g.Nodes()[t.aggregation[0].device].name, "X");
    EXPECT_EQ(t.aggregation[0].members.size(), 3u);
    for (const auto& [r, a] : LinkUsage(t.phases[0][0], g.ResourceCount()))
    {
        EXPECT_DOUBLE_EQ(a, 1.0) << g.EdgeName(r / 2);
    }
}

TEST(Exchange, SlotWindowCapsTheRateWhenTheMemoryIsSmall)
{
    // One FPGA X, three members at 20 ms: round trip 2 x 20 ms + FPGA + store-and-forward.
    // With memory for 64 slots, the window carries 64 x 8000 bytes per round trip; two
    // cliques sharing the FPGA get half of it each.
    const double d = 0.02;
    const double R = 10e9;
    NetworkGraph g = Graph({"A", "B", "C", "D", "E", "F"}, {"X"},
                           {{"A", "X", d, R}, {"B", "X", d, R}, {"C", "X", d, R},
                            {"D", "X", d, R}, {"E", "X", d, R}, {"F", "X", d, R}});
    NetworkCapabilities caps = FullSet();
    caps.slotBytes = 8000;
    caps.fpgaMemoryBytes = 64 * 8000;
    CostModel cm(g, caps, Params(1e8));
    auto alone = cm.SimulateFlows({{0, 1, 2}}, {ExchangePattern::AGGREGATION});
    ASSERT_EQ(alone.size(), 1u);
    double seg = cm.Parameters().SegmentWireBits();
    double rt = cm.Exchange({0, 1, 2}, ExchangePattern::AGGREGATION).aggregation[0].roundTripS;
    EXPECT_DOUBLE_EQ(rt, alone[0].tailS);
    EXPECT_NEAR(alone[0].initialRateBps, 64 * seg / rt, 1e-6 * 64 * seg / rt);
    auto shared = cm.SimulateFlows({{0, 1, 2}, {3, 4, 5}},
                                   {ExchangePattern::AGGREGATION, ExchangePattern::AGGREGATION});
    ASSERT_EQ(shared.size(), 2u);
    for (const auto& f : shared)
    {
        EXPECT_NEAR(f.initialRateBps, 32 * seg / rt, 1e-6 * 32 * seg / rt);
    }
    // The per-clique slot space caps it too.
    caps.fpgaMemoryBytes = 1e9;
    caps.aggregationSlots = 16;
    CostModel capped(g, caps, Params(1e8));
    auto c = capped.SimulateFlows({{0, 1, 2}}, {ExchangePattern::AGGREGATION});
    EXPECT_NEAR(c[0].initialRateBps, 16 * seg / rt, 1e-6 * 16 * seg / rt);
}

TEST(Exchange, InfeasiblePatternsAreReportedNotAborted)
{
    // A and B joined by an island-island edge only: no device, hence no FPGA, on their path.
    NetworkGraph g = Graph({"A", "B", "C"}, {"X"},
                           {{"A", "B", 0.01, 1e9}, {"B", "X", 0.01, 1e9}, {"C", "X", 0.01, 1e9}});
    RoutePlanner routes(g);
    NetworkCapabilities caps = FullSet();
    TrafficPlanner tp(routes, caps);
    std::string why;
    EXPECT_FALSE(tp.CanExchange({0, 1}, ExchangePattern::AGGREGATION, &why));
    EXPECT_NE(why.find("no FPGA"), std::string::npos) << why;
    EXPECT_NE(why.find("A+B"), std::string::npos) << why;
    EXPECT_THROW(tp.Exchange({0, 1}, ExchangePattern::AGGREGATION), std::invalid_argument);
    EXPECT_TRUE(tp.CanExchange({1, 2}, ExchangePattern::AGGREGATION));
    // A pattern the set does not allow.
    NetworkCapabilities uni;
    TrafficPlanner plain(routes, uni);
    EXPECT_FALSE(plain.CanExchange({0, 1}, ExchangePattern::MULTICAST, &why));
    EXPECT_NE(why.find("not allowed"), std::string::npos) << why;
    EXPECT_FALSE(plain.CanExchange({0, 0}, ExchangePattern::RING, &why));
    // The cost model skips it: the best round uses another pattern, no exception.
    CostModel cm(g, caps, Params(1e7));
    EXPECT_FALSE(cm.Feasible({0, 1}, ExchangePattern::AGGREGATION));
    RoundCost rc = cm.BestRound({{0, 1}});
    ASSERT_EQ(rc.patterns.size(), 1u);
    EXPECT_NE(rc.patterns[0], ExchangePattern::AGGREGATION);
    EXPECT_TRUE(std::isfinite(rc.roundS));
    // Only aggregation allowed: the round cannot run (infinite), still no exception.
    caps.SetPatterns("aggregation");
    CostModel only(g, caps, Params(1e7));
    EXPECT_TRUE(std::isinf(only.BestRound({{0, 1}}).roundS));
    EXPECT_TRUE(std::isinf(only.BestRoundLowerBound({{0, 1}})));
    EXPECT_THROW(only.Round({{0, 1}}, {ExchangePattern::AGGREGATION}), std::invalid_argument);
}

TEST(Exchange, BestRoundNeverWorsensWithMoreCapability)
{
    // Dumbbell: A, C behind X; B, D behind Y; X-Y shared. Every round of the same cliques
    // with a larger capability set is at most as slow, and a lower bound never exceeds it.
    NetworkGraph g = Graph({"A", "B", "C", "D"}, {"X", "Y"},
                           {{"A", "X", 0.001, 10e9},
                            {"C", "X", 0.001, 10e9},
                            {"X", "Y", 0.03, 10e9},
                            {"Y", "B", 0.001, 10e9},
                            {"Y", "D", 0.001, 10e9}});
    const std::vector<CostModel::NodeCliques> rounds{
        {{0, 1, 2, 3}}, {{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}, {{0, 1, 2}}, {{0, 3}}};
    for (double model : {1e6, 1e8, 1e10})
    {
        double previous = std::numeric_limits<double>::infinity();
        for (const char* set : {"unicast", "unicast,multicast", "unicast,multicast,aggregation"})
        {
            NetworkCapabilities caps;
            caps.SetSwitches(set);
            CostModel cm(g, caps, Params(model));
            double total = 0;
            for (const auto& r : rounds)
            {
                RoundCost rc = cm.BestRound(r);
                EXPECT_LE(cm.BestRoundLowerBound(r), rc.roundS * (1 + 1e-12)) << set;
                // The chosen patterns reproduce the time.
                EXPECT_DOUBLE_EQ(cm.Round(r, rc.patterns).roundS, rc.roundS);
                total += rc.roundS;
            }
            EXPECT_LE(total, previous * (1 + 1e-12)) << set << " model " << model;
            previous = total;
        }
    }
}

TEST(Exchange, NineCitiesAggregationTreeNearItsAnalyticLimit)
{
    // All nine islands, 1 GB, 10 Gbps: the tree's communication time is within 10% of
    // M/R + 2 x (the farthest member's path latency to the root) + the FPGA latencies.
    NetworkGraphOptions o;
    o.privateRateBps = 10e9;
    o.accessRateBps = 10e9;
    NetworkGraph g = NetworkGraph::FromTopology(
        TopologyReader::ReadFile(std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology"),
        o);
    const double model = 1e9;
    CostModel cm(g, FullSet(), Params(model, 8192));
    std::vector<uint32_t> all;
    for (const auto& city : g.IslandCities())
    {
        all.push_back(g.IslandNode(city));
    }
    CliqueExchange x = cm.Exchange(all, ExchangePattern::AGGREGATION);
    const TrafficFlow& f = x.phases.at(0).at(0);
    for (const auto& [r, a] : LinkUsage(f, g.ResourceCount()))
    {
        if (a > 1)
        {
            GTEST_SKIP() << "link " << g.EdgeName(r / 2) << " carries " << a
                         << " copies: islands forward transit traffic in this graph (the "
                            "metro fabric is not in yet), so no tree is one copy per edge";
        }
    }
    uint32_t root = x.aggregation.at(0).device;
    double toRoot = 0;
    for (uint32_t m : all)
    {
        toRoot = std::max(toRoot, cm.Routes().PathLatency(m, root));
    }
    std::size_t levels = 0;
    for (const auto& n : x.aggregation)
    {
        std::size_t depth = 1;
        for (int64_t p = n.parent; p >= 0;)
        {
            ++depth;
            auto it = std::find_if(x.aggregation.begin(), x.aggregation.end(),
                                   [p](const AggregationNode& a) { return a.device == p; });
            p = it->parent;
        }
        levels = std::max(levels, depth);
    }
    double analytic = 8 * model / 10e9 + 2 * toRoot + levels * cm.Capabilities().fpgaLatencyS;
    double t = cm.Round({all}, {ExchangePattern::AGGREGATION}).commS;
    EXPECT_NEAR(t, analytic, 0.10 * analytic);
}

TEST(Exchange, AForwardingFpgaIsNoTreeNode)
{
    // A - P - X, B and C at X; FPGAs on P and X. Rooted at X, A's first FPGA P has one input
    // (A): it would only forward, so the planner leaves it out: A is a direct member of X,
    // P is charged no FPGA work and adds no FPGA latency. Hand computation, latencies
    // A-P 1 ms, P-X 1 ms, B-X = C-X 2.5 ms, FPGA 1 ms: root X: up max(2, 2.5) + 1 + down 2.5
    // = 6 ms (with P as a node: max(1 + 1 + 1, 2.5) + 1 + 2.5 = 6.5 ms); root P: B's partial
    // via X, max(1, 2.5 + 1 + 1) + 1 + max(1, 3.5) = 9 ms, so X is the root.
    const double R = 10e9;
    NetworkGraph g = Graph({"A", "B", "C"}, {"P", "X"},
                           {{"A", "P", 1e-3, R}, {"P", "X", 1e-3, R}, {"B", "X", 2.5e-3, R},
                            {"C", "X", 2.5e-3, R}});
    RoutePlanner routes(g);
    NetworkCapabilities caps = FullSet();
    caps.fpgaLatencyS = 1e-3;
    TrafficPlanner tp(routes, caps);
    CliqueExchange x = tp.Exchange(Range(3), ExchangePattern::AGGREGATION);
    ASSERT_EQ(x.aggregation.size(), 1u);
    EXPECT_EQ(g.Nodes()[x.aggregation[0].device].name, "X");
    EXPECT_EQ(x.aggregation[0].members, Range(3));
    EXPECT_TRUE(x.aggregation[0].children.empty());
    const TrafficFlow& f = x.phases[0][0];
    EXPECT_NEAR(f.latencyS, 6e-3, 1e-12);
    std::map<uint32_t, double> usage(f.usage.usage.begin(), f.usage.usage.end());
    EXPECT_EQ(usage.count(tp.FpgaResource(g.NodeByName("P"))), 0u) << "P is charged no work";
    EXPECT_DOUBLE_EQ(usage.at(tp.FpgaResource(g.NodeByName("X"))), 3.0);
    // The links are those of the routes: A's contribution still crosses A-P and P-X once.
    auto links = LinkUsage(f, g.ResourceCount());
    for (const auto& [r, a] : links)
    {
        EXPECT_DOUBLE_EQ(a, 1.0) << g.EdgeName(r / 2);
    }
    EXPECT_EQ(links.size(), 8u); // four links, one copy up and one down each

    // A tree node with two inputs stays: with A and a fourth member D behind P, P sums both.
    NetworkGraph g2 = Graph({"A", "B", "C", "D"}, {"P", "X"},
                            {{"A", "P", 1e-3, R}, {"D", "P", 1e-3, R}, {"P", "X", 1e-3, R},
                             {"B", "X", 2.5e-3, R}, {"C", "X", 2.5e-3, R}});
    RoutePlanner routes2(g2);
    TrafficPlanner tp2(routes2, caps);
    CliqueExchange y = tp2.Exchange(Range(4), ExchangePattern::AGGREGATION);
    ASSERT_EQ(y.aggregation.size(), 2u);
    for (const auto& n : y.aggregation)
    {
        EXPECT_GE(n.members.size() + n.children.size(), 2u) << g2.Nodes()[n.device].name;
    }
}
