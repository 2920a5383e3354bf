/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ns-3 TestSuite "intelligent-network-collectives": the unicast collectives (ring all-reduce,
// tree all-reduce, parameter server) at packet level: round times against hand computations
// under the ideal transport, exact sums under every transport and under loss, real averaging
// of a learner's vectors, the pattern recorded per clique, configuration errors.

#include "test-util.h"

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

using namespace ns3;
using namespace ns3::intelligent_network_test;

namespace
{

const double kAccessRate = 1e12; ///< Island <-> device links of the test topologies.
const double kAccessLatency = 10e-6;

/// Cities C0 .. C(k-1) on a cycle: link i joins C(i) and C(i+1 mod k), rate R, latency d.
Topology
CycleTopology(uint32_t k, double rateBps, double latencyS)
{
    Topology t("cycle");
    for (uint32_t i = 0; i < k; ++i)
    {
        std::string c = "C" + std::to_string(i);
        t.AddCity(City{c, c, 0.0, 0.0});
        t.AddDevice(Device{c + "D", c, kAccessRate, ""});
    }
    for (uint32_t i = 0; i < k; ++i)
    {
        t.AddLink(TopologyLink{LinkKind::PRIVATE, "C" + std::to_string(i) + "D",
                               "C" + std::to_string((i + 1) % k) + "D", latencyS, rateBps});
    }
    return t;
}

/// Cities C0 .. C(k-1) on a cycle of equal rates R whose link i (C(i) - C(i+1 mod k)) has
/// latency latencies[i]: the ring's steps overlap where latencies differ.
Topology
UnequalCycleTopology(const std::vector<double>& latencies, double rateBps)
{
    const uint32_t k = static_cast<uint32_t>(latencies.size());
    Topology t = CycleTopology(k, rateBps, 1e-3);
    Topology u("unequal-cycle");
    for (const auto& c : t.Cities())
    {
        u.AddCity(c);
    }
    for (const auto& d : t.Devices())
    {
        u.AddDevice(d);
    }
    for (uint32_t i = 0; i < k; ++i)
    {
        u.AddLink(TopologyLink{LinkKind::PRIVATE, "C" + std::to_string(i) + "D",
                               "C" + std::to_string((i + 1) % k) + "D", latencies[i], rateBps});
    }
    return u;
}

/// A star of four spokes of unequal rates and latencies: L0 1 Gbps 5 ms, L1 2.5 Gbps 2 ms,
/// L2 10 Gbps 10 ms, L3 10 Gbps 1 ms.
Topology
UnequalStarTopology()
{
    Topology t = StarTopology({5e-3, 2e-3, 10e-3, 1e-3}, 10e9, kAccessRate);
    Topology u("unequal-star");
    const std::vector<double> rates{1e9, 2.5e9, 10e9, 10e9};
    for (const City& c : t.Cities())
    {
        u.AddCity(c);
    }
    for (const Device& d : t.Devices())
    {
        u.AddDevice(d);
    }
    for (std::size_t i = 0; i < t.Links().size(); ++i)
    {
        TopologyLink l = t.Links()[i];
        l.capacityBps = rates.at(i);
        u.AddLink(l);
    }
    return u;
}

/// Two pairs of cities joined by one slow trunk: A0, A1 on hub HA and B0, B1 on hub HB
/// (spokes \p spokeBps, 1 ms), trunk HA - HB at \p trunkBps and 10 ms. Over the ring order
/// A0 A1 B0 B1 each binary tree of the double tree crosses the trunk twice, so each trunk
/// direction carries two reductions and two broadcasts of half the model: 2M.
Topology
DumbbellTopology(double spokeBps, double trunkBps)
{
    Topology t("dumbbell");
    for (const char* c : {"A0", "A1", "B0", "B1", "HA", "HB"})
    {
        t.AddCity(City{c, c, 0.0, 0.0});
        t.AddDevice(Device{std::string(c) + "D", c, kAccessRate, ""});
    }
    for (const char* c : {"A0", "A1"})
    {
        t.AddLink(TopologyLink{LinkKind::PRIVATE, std::string(c) + "D", "HAD", 1e-3, spokeBps});
    }
    for (const char* c : {"B0", "B1"})
    {
        t.AddLink(TopologyLink{LinkKind::PRIVATE, std::string(c) + "D", "HBD", 1e-3, spokeBps});
    }
    t.AddLink(TopologyLink{LinkKind::PRIVATE, "HAD", "HBD", 10e-3, trunkBps});
    return t;
}

/// The shipped nine-city topology with every private link at \p privateBps (what --linkRate
/// sets; public paths and devices as shipped).
Topology
NineCityAt(double privateBps)
{
    Topology shipped =
        TopologyReader::ReadFile(std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology");
    Topology t(shipped.GetName());
    for (const auto& c : shipped.Cities())
    {
        t.AddCity(c);
    }
    for (const auto& d : shipped.Devices())
    {
        t.AddDevice(d);
    }
    for (TopologyLink l : shipped.Links())
    {
        if (l.kind == LinkKind::PRIVATE)
        {
            l.capacityBps = privateBps;
        }
        t.AddLink(l);
    }
    return t;
}

/// A hand-built structure (members in the given city order) for ScenarioHelper.
struct HandStructure
{
    std::vector<std::string> order;          ///< Ring order / tree member order / PS: server first.
    std::vector<std::vector<int32_t>> trees; ///< TREE: parents (indices into order).
    double chunkBytes = 0;
};

void
UseStructure(ScenarioHelper& s, const HandStructure& h)
{
    s.SetExchangeProvider([&s, h](const std::vector<uint32_t>&, ExchangePattern pattern) {
        CliqueExchange x;
        x.pattern = pattern;
        for (const auto& city : h.order)
        {
            x.members.push_back(s.GetGraph().IslandNode(city));
        }
        x.trees = h.trees;
        x.chunkBytes = h.chunkBytes;
        x.server = 0;
        return x;
    });
}

Schedule
OneClique(const std::vector<std::string>& cities, ExchangePattern pattern)
{
    ScheduleRound r{{cities}};
    r.patterns = {pattern};
    return Schedule("one-" + PatternName(pattern), {r});
}

/// Paced transfer of \p bytes over one WAN hop of rate R and latency d (fast access links).
double
HopTime(uint64_t bytes, uint32_t segment, double rate, double latency)
{
    return PacedTransferTime(bytes, segment, {kAccessRate, rate, kAccessRate},
                             {kAccessLatency, latency, kAccessLatency});
}

/// Every island's round durations and value checks.
struct Outcome
{
    ScenarioResult result;
    std::vector<double> durations;
    uint64_t checked = 0;
    uint64_t mismatches = 0;
};

Outcome
RunScenario(ScenarioHelper& s)
{
    Outcome o;
    o.result = s.Run();
    for (const auto& ir : o.result.islandRounds)
    {
        o.durations.push_back(ir.endS - ir.startS);
    }
    for (const auto& city : s.GetIslandCities())
    {
        o.checked += s.GetIsland(city)->GetValuesChecked();
        o.mismatches += s.GetIsland(city)->GetValueMismatches();
    }
    return o;
}

/// One round with no compute time, the model in segments of `segment` bytes, values checked.
void
SetOneRound(ScenarioHelper& s, uint64_t model, uint32_t segment)
{
    s.SetIslandAttribute("ModelBytes", UintegerValue(model));
    s.SetIslandAttribute("SegmentSize", UintegerValue(segment));
    s.SetIslandAttribute("ComputeTime", TimeValue(Seconds(0)));
    s.SetIslandAttribute("CheckValues", UintegerValue(100));
}

/// The fluid CostModel's communication time of one clique of `cities` on the scenario's graph
/// and capabilities; no pattern given: the capabilities' default (as the packet level).
double
FluidCommS(const ScenarioHelper& s,
           const std::vector<std::string>& cities,
           uint64_t model,
           uint32_t segment,
           const std::vector<ExchangePattern>& patterns = {})
{
    CostParameters params;
    params.modelBytes = static_cast<double>(model);
    params.segmentPayloadBytes = segment;
    CostModel cm(s.GetGraph(), s.GetCapabilities(), params);
    std::vector<uint32_t> members;
    for (const auto& c : cities)
    {
        members.push_back(s.GetGraph().IslandNode(c));
    }
    return patterns.empty() ? cm.Round({members}).commS : cm.Round({members}, patterns).commS;
}

/**
 * Ring all-reduce on a cycle of k equal links (rate R, latency d), ring order = the cycle:
 * 2(k-1) steps, each one paced chunk of M/k over one hop, so the round lasts
 * 2(k-1) x HopTime(M/k) (= 2(k-1)/k M/R + 2(k-1) d plus headers and one segment's
 * store-and-forward per step), within 3%. Sums exact.
 */
class RingAnalyticTestCase : public TestCase
{
  public:
    RingAnalyticTestCase(uint32_t k, double rate, double latency, uint64_t model)
        : TestCase("ring all-reduce on a cycle of " + std::to_string(k) +
                   " equal links: 2(k-1) "
                   "steps of a k-th of the model")
        , m_k(k)
        , m_rate(rate)
        , m_latency(latency)
        , m_model(model)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t segment = 8192;
        std::vector<std::string> cities;
        for (uint32_t i = 0; i < m_k; ++i)
        {
            cities.push_back("C" + std::to_string(i));
        }
        ScenarioHelper s;
        s.SetTopology(CycleTopology(m_k, m_rate, m_latency));
        s.SetSchedule(OneClique(cities, ExchangePattern::RING));
        UseStructure(s, HandStructure{cities, {}, 0});
        s.SetRounds(2);
        s.SetIslandAttribute("ModelBytes", UintegerValue(m_model));
        s.SetIslandAttribute("SegmentSize", UintegerValue(segment));
        s.SetIslandAttribute("ComputeTime", TimeValue(Seconds(0)));
        s.SetIslandAttribute("CheckValues", UintegerValue(1000));
        Outcome o = RunScenario(s);
        NS_TEST_ASSERT_MSG_EQ(o.result.complete, true, o.result.error);
        double expected = 2.0 * (m_k - 1) * HopTime(m_model / m_k, segment, m_rate, m_latency);
        double formula = 2.0 * (m_k - 1) / m_k * m_model * 8 / m_rate + 2.0 * (m_k - 1) * m_latency;
        NS_TEST_ASSERT_MSG_EQ(o.durations.size(), 2u * m_k, "every island, both rounds");
        std::clog << "ring k=" << m_k << ": measured "
                  << *std::max_element(o.durations.begin(), o.durations.end()) << " s, hand "
                  << expected << " s, 2(k-1)/k M/R + 2(k-1)d = " << formula << " s\n";
        for (double measured : o.durations)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(measured, expected, 0.03 * expected,
                                      "ring round " << measured << " s, hand computation "
                                                    << expected << " s");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(measured, formula, "faster than 2(k-1)/k M/R + 2(k-1)d");
        }
        // Every member sent 2(k-1) chunks of M/k: 2(k-1)/k M, no more.
        for (const auto& ir : o.result.islandRounds)
        {
            NS_TEST_EXPECT_MSG_EQ(ir.bytesSent, 2 * (m_k - 1) * (m_model / m_k), "bytes sent");
        }
        NS_TEST_EXPECT_MSG_EQ(o.checked, 2u * m_k * 1000, "every sum checked");
        NS_TEST_EXPECT_MSG_EQ(o.mismatches, 0u, "sums exact");
        NS_TEST_ASSERT_MSG_EQ(o.result.rounds.size(), 2u, "one clique per round");
        NS_TEST_EXPECT_MSG_EQ(o.result.rounds[0].pattern, "ring", "pattern recorded");
        Simulator::Destroy();
    }

    uint32_t m_k;
    double m_rate;
    double m_latency;
    uint64_t m_model;
};

/**
 * Parameter server on a star (leaves L0 .. L(k-1), equal links R, d; L0 the server): the push
 * brings (k-1) models into L0 through its one link, the pull sends (k-1) copies of the sum
 * out of it: each is (k-1) M paced over the two hops leaf - hub - server, so the round lasts
 * 2 x PacedTransferTime((k-1) M), within 3%.
 */
class ParameterServerAnalyticTestCase : public TestCase
{
  public:
    ParameterServerAnalyticTestCase(uint32_t k)
        : TestCase("parameter server on a star of " + std::to_string(k) +
                   ": push and pull through the server's link")
        , m_k(k)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t segment = 8192;
        const uint64_t model = 5000000;
        const double rate = 10e9;
        const double latency = 4e-3;
        std::vector<std::string> cities;
        for (uint32_t i = 0; i < m_k; ++i)
        {
            cities.push_back("L" + std::to_string(i));
        }
        ScenarioHelper s;
        s.SetTopology(StarTopology(m_k, rate, latency, kAccessRate));
        s.SetSchedule(OneClique(cities, ExchangePattern::PARAMETER_SERVER));
        UseStructure(s, HandStructure{cities, {}, 0});
        s.SetIslandAttribute("ModelBytes", UintegerValue(model));
        s.SetIslandAttribute("SegmentSize", UintegerValue(segment));
        s.SetIslandAttribute("ComputeTime", TimeValue(Seconds(0)));
        s.SetIslandAttribute("CheckValues", UintegerValue(500));
        Outcome o = RunScenario(s);
        NS_TEST_ASSERT_MSG_EQ(o.result.complete, true, o.result.error);
        double phase =
            PacedTransferTime((m_k - 1) * model, segment, {kAccessRate, rate, rate, kAccessRate},
                              {kAccessLatency, latency, latency, kAccessLatency});
        double expected = 2 * phase;
        double slowest = *std::max_element(o.durations.begin(), o.durations.end());
        std::clog << "parameter server k=" << m_k << ": measured " << slowest << " s, hand "
                  << expected << " s\n";
        NS_TEST_EXPECT_MSG_EQ_TOL(slowest, expected, 0.03 * expected,
                                  "parameter server round " << slowest << " s, hand computation "
                                                            << expected << " s");
        NS_TEST_EXPECT_MSG_EQ(o.checked, m_k * 500u, "every sum checked");
        NS_TEST_EXPECT_MSG_EQ(o.mismatches, 0u, "sums exact");
        // The server sent k-1 models, every other member one.
        for (const auto& ir : o.result.islandRounds)
        {
            uint64_t want = ir.island == "L0" ? (m_k - 1) * model : model;
            NS_TEST_EXPECT_MSG_EQ(ir.bytesSent, want, ir.island << " bytes sent");
        }
        NS_TEST_EXPECT_MSG_EQ(o.result.rounds.at(0).pattern, "ps", "pattern recorded");
        Simulator::Destroy();
    }

    uint32_t m_k;
};

/**
 * Tree all-reduce, pipelined: a chain C0 - C1 - C2 of equal links, one tree rooted at C1.
 * Both leaves stream M up their own link; C1 sends chunk c down as soon as both leaves' chunk
 * c arrived, so the down links follow one chunk behind: the round lasts
 * HopTime(M) + HopTime(chunk), within 3% (unpipelined it would be 2 HopTime(M)).
 */
class TreePipelineTestCase : public TestCase
{
  public:
    TreePipelineTestCase()
        : TestCase("tree all-reduce on a chain: reduction and broadcast pipelined by chunks")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t segment = 8192;
        const uint64_t model = 20000000;
        const double chunk = 500000;
        const double rate = 10e9;
        const double latency = 3e-3;
        ScenarioHelper s;
        s.SetTopology(ChainTopology({rate, rate}, {latency, latency}, kAccessRate));
        s.SetSchedule(OneClique({"C0", "C1", "C2"}, ExchangePattern::TREE));
        UseStructure(s, HandStructure{{"C0", "C1", "C2"}, {{1, -1, 1}}, chunk});
        s.SetIslandAttribute("ModelBytes", UintegerValue(model));
        s.SetIslandAttribute("SegmentSize", UintegerValue(segment));
        s.SetIslandAttribute("ComputeTime", TimeValue(Seconds(0)));
        s.SetIslandAttribute("CheckValues", UintegerValue(3000));
        Outcome o = RunScenario(s);
        NS_TEST_ASSERT_MSG_EQ(o.result.complete, true, o.result.error);
        double expected = HopTime(model, segment, rate, latency) +
                          HopTime(static_cast<uint64_t>(chunk), segment, rate, latency);
        double slowest = *std::max_element(o.durations.begin(), o.durations.end());
        std::clog << "tree on a chain: measured " << slowest << " s, hand " << expected
                  << " s (unpipelined " << 2 * HopTime(model, segment, rate, latency) << " s)\n";
        NS_TEST_EXPECT_MSG_EQ_TOL(slowest, expected, 0.03 * expected,
                                  "tree round " << slowest << " s, hand computation " << expected
                                                << " s");
        NS_TEST_EXPECT_MSG_EQ(o.checked, 3u * 3000, "every sum checked");
        NS_TEST_EXPECT_MSG_EQ(o.mismatches, 0u, "sums exact");
        NS_TEST_EXPECT_MSG_EQ(o.result.rounds.at(0).pattern, "tree", "pattern recorded");
        Simulator::Destroy();
    }
};

/**
 * Double binary tree of two members over one link (tree 0 rooted at C0, tree 1 at C1, half the
 * model each): each direction of the link carries one tree's reduction and the other's
 * broadcast, M in all. Hand computation (fluid, fair sharing): a reduction has the direction
 * alone for h = chunk/R + d, until the other tree's first chunk is back at its root and its
 * broadcast starts; it then runs at R/2 and ends at M/R - h, its last chunk reaches the root
 * at M/R - h + d and leaves it by M/R: the direction is busy from 0 to M/R and the pipeline's
 * tail is hidden. The round lasts HopTime(M) (M/R + d with headers and one segment's store and
 * forward), within 3%; without pipelining it would be about 1.5 M/R.
 */
class DoubleTreeTestCase : public TestCase
{
  public:
    DoubleTreeTestCase()
        : TestCase("double binary tree on two islands: both trees share the link")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t segment = 8192;
        const uint64_t model = 20000000;
        const double chunk = 250000;
        const double rate = 10e9;
        const double latency = 1e-3;
        ScenarioHelper s;
        s.SetTopology(ChainTopology({rate}, {latency}, kAccessRate));
        s.SetSchedule(OneClique({"C0", "C1"}, ExchangePattern::TREE));
        UseStructure(s, HandStructure{{"C0", "C1"}, {{-1, 0}, {1, -1}}, chunk});
        s.SetIslandAttribute("ModelBytes", UintegerValue(model));
        s.SetIslandAttribute("SegmentSize", UintegerValue(segment));
        s.SetIslandAttribute("ComputeTime", TimeValue(Seconds(0)));
        s.SetIslandAttribute("CheckValues", UintegerValue(2001));
        Outcome o = RunScenario(s);
        NS_TEST_ASSERT_MSG_EQ(o.result.complete, true, o.result.error);
        double expected = HopTime(model, segment, rate, latency);
        double slowest = *std::max_element(o.durations.begin(), o.durations.end());
        std::clog << "double binary tree k=2: measured " << slowest << " s, hand " << expected
                  << " s\n";
        NS_TEST_EXPECT_MSG_EQ_TOL(slowest, expected, 0.03 * expected,
                                  "double tree round " << slowest << " s, hand computation "
                                                       << expected << " s");
        NS_TEST_EXPECT_MSG_EQ(o.mismatches, 0u, "sums exact");
        NS_TEST_EXPECT_MSG_EQ(o.checked, 2u * 2001, "every sum checked");
        for (const auto& ir : o.result.islandRounds)
        {
            NS_TEST_EXPECT_MSG_EQ(ir.bytesSent, model, ir.island << ": half up, half down");
        }
        Simulator::Destroy();
    }
};

/**
 * Under cc, a tree of many small chunks moves as fast as one message per direction: two
 * islands over one 1 Gbps link of 20 ms (round trip 40 ms, bandwidth-delay product 5 MB), one
 * tree rooted at C1, a 4 MB model in 40 chunks of 100 kB (25 segments of 4000 bytes). Each
 * direction carries the model once, as in the all-to-all of the same pair, where each island
 * sends one 4 MB message: the chunks to a peer share one congestion window as a persistent
 * connection's messages do, so the tree's round may exceed the all-to-all's by its pipeline
 * only (one chunk behind plus one latency: about 40 ms on top of a slow-start-bound round
 * of about 0.3 s); the bound is 1.5x. With a window per message (every chunk from the
 * initial window, paced at window / RTT), each 25-segment chunk took about two round trips.
 */
class CcTreeChunksTestCase : public TestCase
{
  public:
    CcTreeChunksTestCase()
        : TestCase("cc: a tree's chunks share their peer's window (within 1.5x of all-to-all)")
    {
    }

  private:
    double Round(ExchangePattern pattern)
    {
        const std::vector<std::string> cities{"C0", "C1"};
        ScenarioHelper s;
        s.SetTopology(ChainTopology({1e9}, {20e-3}, kAccessRate));
        s.SetSchedule(OneClique(cities, pattern));
        if (pattern == ExchangePattern::TREE)
        {
            UseStructure(s, HandStructure{cities, {{1, -1}}, 100000});
        }
        s.SetTransport("cc");
        s.SetRounds(1);
        s.SetIslandAttribute("ModelBytes", UintegerValue(4000000));
        s.SetIslandAttribute("SegmentSize", UintegerValue(4000));
        s.SetIslandAttribute("ComputeTime", TimeValue(Seconds(0)));
        s.SetIslandAttribute("CheckValues", UintegerValue(1000));
        Outcome o = RunScenario(s);
        NS_TEST_EXPECT_MSG_EQ(o.result.complete, true, o.result.error);
        NS_TEST_EXPECT_MSG_EQ(o.mismatches, 0u, "sums exact");
        NS_TEST_EXPECT_MSG_EQ(o.checked, 2u * 1000, "every sum checked");
        Simulator::Destroy();
        return o.durations.empty() ? 0 : *std::max_element(o.durations.begin(), o.durations.end());
    }

    void DoRun() override
    {
        double tree = Round(ExchangePattern::TREE);
        double a2a = Round(ExchangePattern::ALL_TO_ALL);
        std::clog << "cc tree of 40 chunks: " << tree << " s, all-to-all " << a2a << " s (x"
                  << tree / a2a << ")\n";
        NS_TEST_EXPECT_MSG_GT(a2a, 0.0, "all-to-all ran");
        NS_TEST_EXPECT_MSG_LT(tree, 1.5 * a2a,
                              "cc tree round " << tree << " s, all-to-all " << a2a << " s");
    }
};

/**
 * The planner's own structure (no hand-built one): the packet-level round against the fluid
 * CostModel's round of the same clique and pattern on the same graph: within \p tolerance
 * (ring, tree and parameter server).
 */
class FluidAgreementTestCase : public TestCase
{
  public:
    FluidAgreementTestCase(std::string name, Topology topology, std::vector<std::string> cities,
                           ExchangePattern pattern, uint64_t model, double tolerance)
        : TestCase(PatternName(pattern) + " on " + name + ": packet level against the fluid " +
                   "CostModel")
        , m_name(std::move(name))
        , m_topology(std::move(topology))
        , m_cities(std::move(cities))
        , m_pattern(pattern)
        , m_model(model)
        , m_tolerance(tolerance)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t segment = 8192;
        ScenarioHelper s;
        s.SetTopology(m_topology);
        s.SetSchedule(OneClique(m_cities, m_pattern));
        SetOneRound(s, m_model, segment);
        Outcome o = RunScenario(s);
        NS_TEST_ASSERT_MSG_EQ(o.result.complete, true, o.result.error);
        NS_TEST_EXPECT_MSG_EQ(o.mismatches, 0u, "sums exact");
        double fluid = FluidCommS(s, m_cities, m_model, segment, {m_pattern});
        double measured = o.result.rounds.at(0).endS - o.result.rounds.at(0).startS;
        std::clog << PatternName(m_pattern) << " on " << m_name << ": packet " << measured
                  << " s, fluid " << fluid << " s\n";
        // Every pattern, the tree included: its pipeline is charged once, per chunk (flows
        // start when their source has the first chunk; see CliqueExchange).
        NS_TEST_EXPECT_MSG_EQ_TOL(measured, fluid, m_tolerance * fluid,
                                  "packet " << measured << " s, fluid " << fluid << " s");
        Simulator::Destroy();
    }

    std::string m_name;
    Topology m_topology;
    std::vector<std::string> m_cities;
    ExchangePattern m_pattern;
    uint64_t m_model;
    double m_tolerance;
};

/**
 * A schedule that names no pattern, on a capability set restricted to one collective
 * (NetworkCapabilities::patterns = {ring}, the programs' --patterns=ring): the packet level
 * runs that collective (it ran the set's richest pattern, all-to-all, and refused it as not
 * allowed) and the fluid CostModel charges the same one (NetworkCapabilities::DefaultPattern
 * for both).
 */
class DefaultPatternTestCase : public TestCase
{
  public:
    DefaultPatternTestCase()
        : TestCase("a schedule without patterns runs the restricted set's pattern, as the fluid "
                   "model charges it")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> cities{"C0", "C1", "C2"};
        const uint64_t model = 6000000;
        const uint32_t segment = 8192;
        NetworkCapabilities caps;
        caps.SetPatterns("ring");
        NS_TEST_ASSERT_MSG_EQ(PatternName(caps.DefaultPattern()), "ring", "default of {ring}");
        ScenarioHelper s;
        s.SetTopology(UnequalCycleTopology({2e-3, 3e-3, 20e-3}, 1e9));
        s.SetCapabilities(caps);
        s.SetSchedule(Schedule("no-patterns", {ScheduleRound{{cities}}}));
        SetOneRound(s, model, segment);
        Outcome o = RunScenario(s);
        NS_TEST_ASSERT_MSG_EQ(o.result.complete, true, o.result.error);
        NS_TEST_EXPECT_MSG_EQ(o.mismatches, 0u, "sums exact");
        NS_TEST_EXPECT_MSG_GT(o.checked, 0u, "values checked");
        NS_TEST_ASSERT_MSG_EQ(o.result.rounds.size(), 1u, "one clique");
        NS_TEST_EXPECT_MSG_EQ(o.result.rounds[0].pattern, "ring", "pattern run and recorded");
        CostModel cm(s.GetGraph(), s.GetCapabilities(), CostParameters());
        NS_TEST_EXPECT_MSG_EQ(PatternName(cm.DefaultPattern()), "ring", "fluid default");
        double fluid = FluidCommS(s, cities, model, segment); // no patterns: the default
        double measured = o.result.rounds.at(0).endS - o.result.rounds.at(0).startS;
        NS_TEST_EXPECT_MSG_EQ_TOL(measured, fluid, 0.03 * fluid,
                                  "packet " << measured << " s, fluid " << fluid << " s");
        Simulator::Destroy();
    }
};

/// Contributes (island, round)-specific values, keeps what the exchange averages.
class RecordingLearner : public IslandLearner
{
  public:
    RecordingLearner(uint32_t island, std::size_t dimension)
        : m_island(island)
        , m_params(dimension, 0.0)
    {
    }

    std::size_t Dimension() const override
    {
        return m_params.size();
    }

    void LocalSteps(uint32_t round, uint32_t) override
    {
        for (std::size_t j = 0; j < m_params.size(); ++j)
        {
            m_params[j] += std::sin(1.0 + m_island * 7.0 + round * 3.0 + j * 0.37);
        }
    }

    std::vector<double> Parameters() const override
    {
        return m_params;
    }

    void Synchronize(uint32_t, const std::vector<std::vector<double>>&) override
    {
        m_models = true;
    }

    void SynchronizeSum(uint32_t round, const std::vector<double>& sum, uint32_t members) override
    {
        m_sums[round] = sum;
        m_members = members;
        for (std::size_t j = 0; j < m_params.size(); ++j)
        {
            m_params[j] = sum[j] / members;
        }
    }

    uint32_t m_island;
    std::vector<double> m_params;
    std::map<uint32_t, std::vector<double>> m_sums;
    uint32_t m_members = 0;
    bool m_models = false;
};

/**
 * A learner's vectors through each collective under each transport (with loss where given):
 * every member merges the same sum, bit for bit, equal to the sum of the contributions (to
 * rounding), divided by the member count; after a round all members hold the same average.
 * Also CheckValues under the same conditions: sums exact.
 */
class CollectiveTransportTestCase : public TestCase
{
  public:
    CollectiveTransportTestCase(ExchangePattern pattern, std::string transport, double loss)
        : TestCase(PatternName(pattern) + " over " + transport + " transport, loss " +
                   std::to_string(loss) + ": sums exact, learner averages")
        , m_pattern(pattern)
        , m_transport(std::move(transport))
        , m_loss(loss)
    {
    }

  private:
    void Configure(ScenarioHelper& s, const std::vector<std::string>& cities)
    {
        // A chain C0 - C1 - C2 - C3 (TCP runs on chains).
        s.SetTopology(ChainTopology({1e9, 1e9, 1e9}, {2e-3, 3e-3, 2e-3}, kAccessRate));
        s.SetSchedule(OneClique(cities, m_pattern));
        HandStructure h{cities, {}, 0};
        if (m_pattern == ExchangePattern::TREE)
        {
            // Double binary tree over C1 C0 C2 C3: tree 0 rooted at C0 (children C1, C2, C2's
            // child C3), tree 1 rooted at C2 (children C0, C3; C0's child C1).
            h.order = {"C1", "C0", "C2", "C3"};
            h.trees = {{1, -1, 1, 2}, {1, 2, -1, 2}};
            h.chunkBytes = 100000;
        }
        if (m_pattern == ExchangePattern::PARAMETER_SERVER)
        {
            h.order = {"C2", "C0", "C1", "C3"};
        }
        UseStructure(s, h);
        s.SetTransport(m_transport);
        s.SetLossRate(m_loss);
        s.SetRounds(2);
        s.SetIslandAttribute("ModelBytes", UintegerValue(1000000));
        s.SetIslandAttribute("SegmentSize", UintegerValue(4000));
        s.SetIslandAttribute("ComputeTime", TimeValue(MilliSeconds(1)));
    }

    void DoRun() override
    {
        const std::vector<std::string> cities{"C0", "C1", "C2", "C3"};
        {
            ScenarioHelper s;
            Configure(s, cities);
            s.SetIslandAttribute("CheckValues", UintegerValue(1234));
            Outcome o = RunScenario(s);
            NS_TEST_ASSERT_MSG_EQ(o.result.complete, true, o.result.error);
            NS_TEST_EXPECT_MSG_EQ(o.checked, 2u * 4 * 1234, "every sum checked");
            NS_TEST_EXPECT_MSG_EQ(o.mismatches, 0u, "sums exact");
            if (m_loss > 0)
            {
                NS_TEST_EXPECT_MSG_GT(o.result.retransmittedBytes, 0u, "loss caused resends");
            }
            Simulator::Destroy();
        }
        ScenarioHelper s;
        Configure(s, cities);
        std::vector<std::shared_ptr<RecordingLearner>> learners;
        for (uint32_t i = 0; i < cities.size(); ++i)
        {
            learners.push_back(std::make_shared<RecordingLearner>(i, 777));
            s.SetLearner(cities[i], learners.back());
        }
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        // Round 0: the contributions are known; every member holds the same sum.
        std::vector<double> exact(777, 0.0);
        for (uint32_t i = 0; i < cities.size(); ++i)
        {
            RecordingLearner fresh(i, 777);
            fresh.LocalSteps(0, 1);
            for (std::size_t j = 0; j < exact.size(); ++j)
            {
                exact[j] += fresh.m_params[j];
            }
        }
        for (const auto& l : learners)
        {
            NS_TEST_EXPECT_MSG_EQ(l->m_models, false, "merged a sum, not models");
            NS_TEST_EXPECT_MSG_EQ(l->m_members, 4u, "divided by the member count");
            NS_TEST_ASSERT_MSG_EQ(l->m_sums.size(), 2u, "two rounds merged");
            NS_TEST_EXPECT_MSG_EQ((l->m_sums[1] == learners[0]->m_sums[1]), true,
                                  "every member merges the same bits");
            double worst = 0;
            for (std::size_t j = 0; j < exact.size(); ++j)
            {
                worst = std::max(worst, std::abs(l->m_sums[0][j] - exact[j]));
            }
            NS_TEST_EXPECT_MSG_LT(worst, 1e-9, "sum of the contributions");
            NS_TEST_EXPECT_MSG_EQ((l->m_params == learners[0]->m_params), true,
                                  "same average everywhere");
        }
        Simulator::Destroy();
    }

    ExchangePattern m_pattern;
    std::string m_transport;
    double m_loss;
};

/**
 * Sizes that do not divide: a model of 100003 bytes in segments of 4001 (500 values each) full
 * of values (12500), cut into 3 ring chunks, 2 tree shares of 7 chunks, one PS model: every
 * value reaches every member, every sum exact (chunks grow to the room their values need).
 */
class OddSizesTestCase : public TestCase
{
  public:
    explicit OddSizesTestCase(ExchangePattern pattern)
        : TestCase(PatternName(pattern) + ": sizes that do not divide, values filling the model")
        , m_pattern(pattern)
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> cities{"C0", "C1", "C2"};
        ScenarioHelper s;
        s.SetTopology(ChainTopology({1e9, 1e9}, {1e-3, 2e-3}, kAccessRate));
        s.SetSchedule(OneClique(cities, m_pattern));
        UseStructure(s, HandStructure{cities, {{1, -1, 1}, {-1, 0, 1}}, 7200});
        s.SetRounds(2);
        s.SetIslandAttribute("ModelBytes", UintegerValue(100003));
        s.SetIslandAttribute("SegmentSize", UintegerValue(4001));
        s.SetIslandAttribute("ComputeTime", TimeValue(MilliSeconds(1)));
        s.SetIslandAttribute("CheckValues", UintegerValue(12500));
        Outcome o = RunScenario(s);
        NS_TEST_ASSERT_MSG_EQ(o.result.complete, true, o.result.error);
        NS_TEST_EXPECT_MSG_EQ(o.checked, 2u * 3 * 12500, "every sum checked");
        NS_TEST_EXPECT_MSG_EQ(o.mismatches, 0u, "sums exact");
        Simulator::Destroy();
    }

    ExchangePattern m_pattern;
};

/**
 * All-to-all and multicast carry the whole model in one message: with values filling it and a
 * segment size that is not a multiple of 8 (a segment carries floor(4001 / 8) = 500 doubles:
 * 25 segments of 100003 bytes hold 12497 values, not 12500), the message grows to the room its
 * values need, as the collectives' pieces do. Before, the last values never left and the
 * receivers kept zeros (found by a transport audit: 12006 of 36000 values wrong with 12-byte
 * segments). Over the ideal and cc transports; and too many values for the model are refused
 * before anything runs (TrainingIsland aborted at start).
 */
class WholeModelOddSizesTestCase : public TestCase
{
  public:
    WholeModelOddSizesTestCase(ExchangePattern pattern, std::string transport)
        : TestCase(PatternName(pattern) + " over " + transport +
                   ": values filling the model, segments not a multiple of 8")
        , m_pattern(pattern)
        , m_transport(std::move(transport))
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> cities{"C0", "C1", "C2"};
        auto setUp = [&](ScenarioHelper& s, uint64_t values) {
            s.SetTopology(ChainTopology({1e9, 1e9}, {1e-3, 2e-3}, kAccessRate));
            s.SetSchedule(OneClique(cities, m_pattern));
            s.SetCapabilities(NetworkCapabilities::ForPattern(m_pattern));
            s.SetTransport(m_transport);
            s.SetRounds(2);
            s.SetIslandAttribute("ModelBytes", UintegerValue(100003));
            s.SetIslandAttribute("SegmentSize", UintegerValue(4001));
            s.SetIslandAttribute("ComputeTime", TimeValue(MilliSeconds(1)));
            s.SetIslandAttribute("CheckValues", UintegerValue(values));
        };
        {
            ScenarioHelper s;
            setUp(s, 12500);
            Outcome o = RunScenario(s);
            NS_TEST_ASSERT_MSG_EQ(o.result.complete, true, o.result.error);
            NS_TEST_EXPECT_MSG_EQ(o.checked, 2u * 3 * 2 * 12500, "every model from both peers checked");
            NS_TEST_EXPECT_MSG_EQ(o.mismatches, 0u, "every value arrived");
            Simulator::Destroy();
        }
        {
            ScenarioHelper s;
            setUp(s, 12501); // 100008 bytes of doubles in a 100003-byte model
            std::string error = ErrorOf([&] { s.Run(); });
            NS_TEST_EXPECT_MSG_NE(error.find("CheckValues 12501 does not fit the model"),
                                  std::string::npos,
                                  "refused before the simulation: '" << error << "'");
            Simulator::Destroy();
        }
    }

    ExchangePattern m_pattern;
    std::string m_transport;
};

/// Bad configurations are rejected before anything runs, with the clique named.
class CollectiveConfigurationTestCase : public TestCase
{
  public:
    CollectiveConfigurationTestCase()
        : TestCase("collectives: structures that do not match the clique are rejected")
    {
    }

  private:
    void Expect(const std::function<void(ScenarioHelper&)>& setup, const std::string& fragment)
    {
        bool threw = false;
        try
        {
            ScenarioHelper s;
            s.SetTopology(ChainTopology({10e9, 10e9}, {1e-3, 1e-3}));
            setup(s);
            s.Build();
        }
        catch (const std::exception& e)
        {
            threw = true;
            NS_TEST_EXPECT_MSG_NE(std::string(e.what()).find(fragment), std::string::npos,
                                  "message '" << e.what() << "' lacks '" << fragment << "'");
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "expected an error mentioning " << fragment);
        Simulator::Destroy();
    }

    void DoRun() override
    {
        // A ring of two of the three members.
        Expect(
            [](ScenarioHelper& s) {
                s.SetSchedule(OneClique({"C0", "C1", "C2"}, ExchangePattern::RING));
                UseStructure(s, HandStructure{{"C0", "C1"}, {}, 0});
            },
            "round 0, clique 0: the ring structure does not match");
        // A tree without trees.
        Expect(
            [](ScenarioHelper& s) {
                s.SetSchedule(OneClique({"C0", "C1"}, ExchangePattern::TREE));
                UseStructure(s, HandStructure{{"C0", "C1"}, {}, 0});
            },
            "tree structure does not match");
        // Multicast on a unicast-only network.
        Expect(
            [](ScenarioHelper& s) {
                s.SetSchedule(OneClique({"C0", "C1"}, ExchangePattern::MULTICAST));
                s.SetCapabilities(NetworkCapabilities::ForPattern(ExchangePattern::ALL_TO_ALL));
            },
            "pattern multicast is not allowed by the capability set unicast");
        // A pattern the capabilities allow but the run's restriction excludes: the message
        // says which (not that the network lacks a capability).
        Expect(
            [](ScenarioHelper& s) {
                s.SetSchedule(OneClique({"C0", "C1"}, ExchangePattern::TREE));
                NetworkCapabilities caps;
                caps.SetPatterns("ring,ps");
                s.SetCapabilities(caps);
            },
            "round 0, clique 0: pattern tree is excluded by the restriction to the patterns "
            "ring,ps (the capability set unicast allows it)");
    }
};

class CollectiveExchangeTestSuite : public TestSuite
{
  public:
    CollectiveExchangeTestSuite()
        : TestSuite("intelligent-network-collectives", UNIT)
    {
        AddTestCase(new RingAnalyticTestCase(4, 10e9, 5e-3, 40000000), TestCase::QUICK);
        AddTestCase(new RingAnalyticTestCase(3, 1e9, 20e-3, 6000000), TestCase::QUICK);
        AddTestCase(new ParameterServerAnalyticTestCase(4), TestCase::QUICK);
        AddTestCase(new TreePipelineTestCase, TestCase::QUICK);
        AddTestCase(new DoubleTreeTestCase, TestCase::QUICK);
        AddTestCase(new CcTreeChunksTestCase, TestCase::QUICK);
        const std::vector<std::string> cycle{"C0", "C1", "C2", "C3"};
        const std::vector<std::string> star{"L0", "L1", "L2", "L3"};
        for (ExchangePattern p :
             {ExchangePattern::RING, ExchangePattern::TREE, ExchangePattern::PARAMETER_SERVER})
        {
            // The tree on the cycle: measured 3.07% under its packet level (every other case
            // within 1.5%): the fluid lets a forwarding flow run before its data has arrived.
            const double cycleTolerance = p == ExchangePattern::TREE ? 0.035 : 0.03;
            AddTestCase(new FluidAgreementTestCase("a cycle of 4", CycleTopology(4, 10e9, 5e-3),
                                                   cycle, p, 40000000, cycleTolerance),
                        TestCase::QUICK);
            AddTestCase(new FluidAgreementTestCase("a star of 4",
                                                   StarTopology(4, 10e9, 4e-3, kAccessRate), star,
                                                   p, 20000000, 0.03),
                        TestCase::QUICK);
            // Unequal latencies (1, 2, 30, 5 ms): the ring's steps overlap at the packet
            // level, and the fluid model must charge the chain of steps, not 2(k-1) barriers
            // (0.0851 s against 0.0761 s, +12%, before 2026-12-05).
            AddTestCase(new FluidAgreementTestCase(
                            "an unequal cycle of 4",
                            UnequalCycleTopology({1e-3, 2e-3, 30e-3, 5e-3}, 10e9), cycle, p,
                            40000000, p == ExchangePattern::TREE ? 0.035 : 0.03),
                        TestCase::QUICK);
        }
        // Where the fluid tree errs most, both ways (a hand-computation audit, 2026-12-07):
        // on a chain of three at 1 Gbps the fluid is optimistic (its broadcast runs before the
        // reduction has delivered); on the dumbbell it is pessimistic (the broadcasts, running
        // ahead of their input, take trunk share from the reductions, whose last chunk is
        // then charged the whole way down). See doc/intelligent-network.rst, "tree".
        AddTestCase(new FluidAgreementTestCase("a chain of 3 at 1 Gbps",
                                               ChainTopology({1e9, 1e9}, {5e-3, 7e-3}, kAccessRate),
                                               {"C0", "C1", "C2"}, ExchangePattern::TREE, 10000000,
                                               0.04),
                    TestCase::QUICK);
        AddTestCase(new FluidAgreementTestCase(
                        "a dumbbell with a 1 Gbps trunk", DumbbellTopology(10e9, 1e9),
                        {"A0", "A1", "B0", "B1"}, ExchangePattern::TREE, 10000000, 0.04),
                    TestCase::QUICK);
        // The clique where the optimizer picks the tree in doc/options.rst's example
        // (optimize-schedule --linkRate=5e9 --modelBytes=4e6 against nine-city-training with
        // the same flags: -4.5% of the round, found by a results audit). Four chunks per tree
        // over latencies of a few ms: the worst case measured, the fluid's communication time
        // 7.0% under the packet level's (a broadcast's share of a link is idle at the packet
        // level until its input arrives; the fluid counts it as used).
        AddTestCase(new FluidAgreementTestCase("nine-city AMS+FRA+LON at 5 Gbps", NineCityAt(5e9),
                                               {"AMS", "FRA", "LON"}, ExchangePattern::TREE,
                                               4000000, 0.08),
                    TestCase::QUICK);
        // Spokes of unequal rates and latencies (a physics audit, 2026-12-07): the slow island
        // (1 Gbps) is a root whose downlink carries both trees' chunks before it can send the
        // last sums, and the fluid, counting the broadcasts' input-limited shares as used, is
        // optimistic on the clique of the 1, 2.5 and 10 Gbps spokes with 1 MB: 27.10 ms against
        // 31.06 ms, 12.8% under the packet level (14.6% of the fluid's own figure), the largest
        // error of the fluid tree seen (smaller with larger models).
        AddTestCase(new FluidAgreementTestCase("a star of unequal spokes",
                                               UnequalStarTopology(), {"L0", "L1", "L3"},
                                               ExchangePattern::TREE, 1048576, 0.15),
                    TestCase::QUICK);
        AddTestCase(new DefaultPatternTestCase, TestCase::QUICK);
        for (ExchangePattern p :
             {ExchangePattern::RING, ExchangePattern::TREE, ExchangePattern::PARAMETER_SERVER})
        {
            AddTestCase(new CollectiveTransportTestCase(p, "ideal", 0), TestCase::QUICK);
            AddTestCase(new CollectiveTransportTestCase(p, "cc", 0), TestCase::QUICK);
            AddTestCase(new CollectiveTransportTestCase(p, "tcp", 0), TestCase::QUICK);
            AddTestCase(new CollectiveTransportTestCase(p, "ideal", 0.01), TestCase::QUICK);
            AddTestCase(new CollectiveTransportTestCase(p, "cc", 0.01), TestCase::QUICK);
            AddTestCase(new CollectiveTransportTestCase(p, "tcp", 0.01), TestCase::QUICK);
        }
        for (ExchangePattern p :
             {ExchangePattern::RING, ExchangePattern::TREE, ExchangePattern::PARAMETER_SERVER})
        {
            AddTestCase(new OddSizesTestCase(p), TestCase::QUICK);
        }
        for (ExchangePattern p : {ExchangePattern::ALL_TO_ALL, ExchangePattern::MULTICAST})
        {
            for (const char* transport : {"ideal", "cc"})
            {
                AddTestCase(new WholeModelOddSizesTestCase(p, transport), TestCase::QUICK);
            }
        }
        AddTestCase(new CollectiveConfigurationTestCase, TestCase::QUICK);
    }
};

CollectiveExchangeTestSuite g_collectiveExchangeTestSuite;

} // namespace
