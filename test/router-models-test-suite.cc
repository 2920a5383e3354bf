/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ns-3 TestSuite "intelligent-network-routers": IP multicast replication and in-line FPGA
// aggregation: bytes per link, analytic round times, exact sums under loss, back-pressure,
// overflow reporting and configuration errors.

#include "test-util.h"

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/test.h"

#include <functional>

using namespace ns3;
using namespace ns3::intelligent_network_test;

namespace
{

const std::string kData = INTELLIGENT_NETWORK_DATA_DIR;
const double kEdgeRate = 1e12; ///< Device edge capacity: metro and access links run at it.

/// All leaves of a star in one clique.
Schedule
AllLeaves(uint32_t leaves)
{
    Clique c;
    for (uint32_t i = 0; i < leaves; ++i)
    {
        c.push_back("L" + std::to_string(i));
    }
    return Schedule("leaves", {ScheduleRound{{c}}});
}

/// Longest round measured by any island.
double
LongestRound(const ScenarioResult& r)
{
    double d = 0;
    for (const auto& ir : r.islandRounds)
    {
        d = std::max(d, ir.endS - ir.startS);
    }
    return d;
}

/// Model bytes carried by the directed link from graph node \p from to \p to.
uint64_t
Payload(const ScenarioHelper& s, const std::string& from, const std::string& to)
{
    const NetworkGraph& g = s.GetGraph();
    auto e = g.FindEdge(g.NodeByName(from), g.NodeByName(to));
    NS_ABORT_MSG_IF(e < 0, "no link " << from << "-" << to);
    return s.GetLinkMonitor().Get(static_cast<uint32_t>(e), g.NodeByName(from)).dataPayloadBytes;
}

/**
 * Every member of a 4-leaf star clique sends M: with multicast each uplink carries one copy
 * and each hub->leaf link three (one per other source); with unicast each uplink carries
 * three. The hub city, not in the clique, gets nothing.
 */
class MulticastBytesPerLinkTestCase : public TestCase
{
  public:
    MulticastBytesPerLinkTestCase()
        : TestCase("multicast puts one copy per tree edge (star, 4 sources)")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t model = 2000000;
        for (ExchangePattern mode : {ExchangePattern::MULTICAST, ExchangePattern::ALL_TO_ALL})
        {
            ScenarioHelper s;
            s.SetTopology(StarTopology(4, 10e9, 2e-3, kEdgeRate));
            s.SetSchedule(AllLeaves(4));
            s.SetCapabilities(NetworkCapabilities::ForPattern(mode));
            s.SetIslandAttribute("ModelBytes", UintegerValue(model));
            ScenarioResult r = s.Run();
            NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
            uint64_t copies = mode == ExchangePattern::MULTICAST ? 1 : 3;
            for (int i = 0; i < 4; ++i)
            {
                std::string leaf = "L" + std::to_string(i);
                std::string metro = leaf + "-metro";
                NS_TEST_EXPECT_MSG_EQ(Payload(s, leaf, metro), copies * model,
                                      leaf << " access uplink");
                NS_TEST_EXPECT_MSG_EQ(Payload(s, metro, leaf + "D"), copies * model,
                                      leaf << " metro uplink");
                NS_TEST_EXPECT_MSG_EQ(Payload(s, leaf + "D", "HUBD"), copies * model,
                                      leaf << " uplink");
                NS_TEST_EXPECT_MSG_EQ(Payload(s, "HUBD", leaf + "D"), 3 * model,
                                      leaf << " downlink: one copy from each other source");
                NS_TEST_EXPECT_MSG_EQ(Payload(s, leaf + "D", metro), 3 * model,
                                      leaf << " metro downlink");
                NS_TEST_EXPECT_MSG_EQ(Payload(s, metro, leaf), 3 * model,
                                      leaf << " access downlink");
            }
            NS_TEST_EXPECT_MSG_EQ(Payload(s, "HUBD", "HUB-metro"), 0u,
                                  "multicast leaked to a non-member");
            NS_TEST_EXPECT_MSG_EQ(Payload(s, "HUB-metro", "HUB"), 0u,
                                  "multicast leaked to a non-member");
            Simulator::Destroy();
        }
    }
};

/**
 * One source, k receivers: a multicast of M bytes finishes in the time of one transfer over
 * the bottleneck path; unicast to the same k receivers takes k times as long.
 */
class OneToManyTestCase : public TestCase
{
  public:
    OneToManyTestCase()
        : TestCase("1-to-4 multicast takes one transfer time, unicast four")
    {
    }

  private:
    double RunOnce(ExchangePattern mode)
    {
        const uint32_t k = 4;
        ScenarioHelper s;
        s.SetTopology(StarTopology(k + 1, 10e9, 3e-3, kEdgeRate));
        s.SetSchedule(AllLeaves(k + 1));
        s.SetCapabilities(NetworkCapabilities::ForPattern(mode));
        s.SetIslandAttribute("ModelBytes", UintegerValue(m_model));
        s.SetIslandAttribute("ComputeTime", TimeValue(Seconds(0)));
        s.Build();
        // Only L0 sends; the others only receive.
        uint32_t source = s.GetGraph().IslandNode("L0");
        for (const auto& city : s.GetIslandCities())
        {
            Ptr<TrainingIsland> app = s.GetIsland(city);
            std::vector<IslandRoundPlan> plan = app->GetPlan();
            if (app->GetIslandId() == source)
            {
                plan[0].peers.clear();
            }
            else
            {
                plan[0].peers = {source};
                plan[0].targets.clear();
            }
            app->SetPlan(plan);
        }
        ScenarioResult r = s.Run();
        NS_TEST_EXPECT_MSG_EQ(r.complete, true, r.error);
        double t = LongestRound(r);
        Simulator::Destroy();
        return t;
    }

    void DoRun() override
    {
        const Hops path = IslandPath({10e9, 10e9}, {3e-3, 3e-3}, kEdgeRate);
        double one = PacedTransferTime(m_model, 8192, path);
        double multicast = RunOnce(ExchangePattern::MULTICAST);
        double unicast = RunOnce(ExchangePattern::ALL_TO_ALL);
        NS_TEST_EXPECT_MSG_EQ_TOL(multicast, one, 0.02 * one,
                                  "multicast " << multicast << " s vs one transfer " << one);
        double four = 4 * (one - path.Latency()) + path.Latency();
        NS_TEST_EXPECT_MSG_EQ_TOL(unicast, four, 0.05 * four,
                                  "unicast " << unicast << " s vs four transfers " << four);
    }

    uint64_t m_model = 25000000;
};

/// Round time of a k-leaf star clique with the FPGA at the hub, and of plain unicast.
class AggregationAnalyticTestCase : public TestCase
{
  public:
    AggregationAnalyticTestCase()
        : TestCase("aggregation round about 2d + M over R; unicast 2d + (k-1) M over R (star, k=4)")
    {
    }

  private:
    ScenarioResult RunMode(ExchangePattern mode)
    {
        ScenarioHelper s;
        s.SetTopology(StarTopology(m_k, m_rate, m_d, kEdgeRate));
        s.SetSchedule(AllLeaves(m_k));
        NetworkCapabilities caps = NetworkCapabilities::ForPattern(mode);
        caps.fpgaOnAllDevices = false;
        caps.fpgaDevices = {"HUBD"};
        s.SetCapabilities(caps);
        s.SetIslandAttribute("ModelBytes", UintegerValue(m_model));
        s.SetIslandAttribute("ComputeTime", TimeValue(Seconds(m_compute)));
        ScenarioResult r = s.Run();
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        const NetworkCapabilities defaults;
        uint64_t n = (m_model + 8191) / 8192;
        double w = WireFormat::WireBytes(8192) * 8.0;
        double wLast = WireFormat::WireBytes(m_model - (n - 1) * 8192) * 8.0;
        // Up and down: access and metro link of the member (store and forward of the last
        // segment), the link to the hub.
        double hop = 2 * (2 * wLast / kEdgeRate + IslandLegLatency()) + 2 * (wLast / m_rate + m_d);

        ScenarioResult agg = RunMode(ExchangePattern::AGGREGATION);
        NS_TEST_ASSERT_MSG_EQ(agg.complete, true, agg.error);
        double expectedAgg = m_compute + (n - 1) * w / m_rate + hop +
                             m_k * wLast / defaults.fpgaThroughputBps + defaults.fpgaLatencyS;
        double measuredAgg = LongestRound(agg);
        NS_TEST_EXPECT_MSG_EQ_TOL(measuredAgg, expectedAgg, 0.03 * expectedAgg,
                                  "aggregation " << measuredAgg << " s vs " << expectedAgg);
        NS_TEST_ASSERT_MSG_EQ(agg.aggregation.size(), 1u, "one clique aggregated");
        NS_TEST_EXPECT_MSG_EQ(agg.aggregation[0].aggregator, "HUBD", "FPGA at the hub");
        NS_TEST_EXPECT_MSG_EQ(agg.aggregation[0].segments, n, "every segment summed once");
        NS_TEST_ASSERT_MSG_EQ(agg.fpgas.size(), 1u, "one FPGA");
        NS_TEST_EXPECT_MSG_EQ(agg.fpgas[0].contributions, m_k * n, "k contributions/segment");
        NS_TEST_EXPECT_MSG_EQ(agg.fpgas[0].results, n, "one sum per segment");

        ScenarioResult uni = RunMode(ExchangePattern::ALL_TO_ALL);
        NS_TEST_ASSERT_MSG_EQ(uni.complete, true, uni.error);
        double expectedUni = m_compute + (m_k - 1) * (n - 1) * w / m_rate + hop;
        double measuredUni = LongestRound(uni);
        NS_TEST_EXPECT_MSG_EQ_TOL(measuredUni, expectedUni, 0.03 * expectedUni,
                                  "unicast " << measuredUni << " s vs " << expectedUni);
        NS_TEST_EXPECT_MSG_GT(measuredUni - m_compute, 2 * (measuredAgg - m_compute),
                              "aggregation must beat unicast into a shared link");
    }

    uint32_t m_k = 4;
    double m_rate = 10e9;
    double m_d = 5e-3;
    uint64_t m_model = 40000000;
    double m_compute = 0.01;
};

/**
 * A small slot pool and one distant member: the near members' contributions fill every slot
 * while the FPGA waits for the distant one; they then hold back (back-pressure) instead of
 * losing packets, and the round takes about segments/slots round trips of the distant member.
 */
class SlotBackPressureTestCase : public TestCase
{
  public:
    SlotBackPressureTestCase()
        : TestCase("slot exhaustion applies back-pressure, not loss")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t slots = 64;
        const uint64_t model = 4000000;
        const double far = 20e-3;
        ScenarioHelper s;
        s.SetTopology(StarTopology({far, 1e-3, 1e-3}, 10e9, kEdgeRate));
        s.SetSchedule(AllLeaves(3));
        NetworkCapabilities caps = NetworkCapabilities::ForPattern(ExchangePattern::AGGREGATION);
        caps.aggregationSlots = slots;
        s.SetCapabilities(caps);
        s.SetIslandAttribute("ModelBytes", UintegerValue(model));
        s.SetIslandAttribute("ComputeTime", TimeValue(Seconds(0)));
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        NS_TEST_ASSERT_MSG_EQ(r.aggregation.size(), 1u, "one clique");
        const AggregationRecord& a = r.aggregation[0];
        NS_TEST_EXPECT_MSG_EQ(a.maxSlotsInUse, slots, "the pool was exhausted");
        NS_TEST_EXPECT_MSG_EQ(a.stale, 0u, "no contribution beyond the pool");
        for (const auto& ir : r.islandRounds)
        {
            NS_TEST_EXPECT_MSG_EQ(ir.retransmittedSegments, 0u, "no loss, no retransmission");
        }
        uint64_t n = (model + 8191) / 8192;
        double rtt = 2 * far;
        double windows = std::floor(static_cast<double>(n) / slots);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(LongestRound(r), windows * rtt,
                                    "a window of " << slots << " slots per round trip");
        NS_TEST_EXPECT_MSG_LT(LongestRound(r), (windows + 2) * rtt * 1.05, "no stall");
        Simulator::Destroy();
    }
};

/**
 * 1% loss on every link: every value (multicast) and every aggregated sum equals the exact
 * fixed-point sum of the members' contributions; the losses were really repaired.
 */
class ExactUnderLossTestCase : public TestCase
{
  public:
    explicit ExactUnderLossTestCase(ExchangePattern mode)
        : TestCase(std::string("1% loss, nine cities: values exact with ") +
                   PatternName(mode)),
          m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t values = 40000;
        const uint32_t rounds = 2;
        Topology topo = TopologyReader::ReadFile(kData + "/nine-city.topology");
        ScenarioHelper s;
        s.SetTopology(topo);
        s.SetSchedule(Schedule::Load(kData + "/schedules/3x3-rotating.json", topo.CityCodes()));
        s.SetCapabilities(NetworkCapabilities::ForPattern(m_mode));
        s.SetRounds(rounds);
        s.SetLossRate(0.01);
        s.SetIslandAttribute("ModelBytes", UintegerValue(2000000));
        s.SetIslandAttribute("CheckValues", UintegerValue(values));
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        uint64_t retx = 0;
        for (const auto& ir : r.islandRounds)
        {
            retx += ir.retransmittedSegments;
        }
        uint64_t repaired = retx;
        for (const auto& a : r.aggregation)
        {
            repaired += a.resentResults + a.duplicates;
        }
        NS_TEST_EXPECT_MSG_GT(repaired, 0u, "1% loss must have been repaired");
        // Each island verifies two peers' vectors (multicast) or one sum (aggregation) a round.
        uint64_t perRound = m_mode == ExchangePattern::AGGREGATION ? values : 2 * values;
        for (const auto& city : s.GetIslandCities())
        {
            Ptr<TrainingIsland> app = s.GetIsland(city);
            NS_TEST_EXPECT_MSG_EQ(app->GetValuesChecked(), rounds * perRound, city);
            NS_TEST_EXPECT_MSG_EQ(app->GetValueMismatches(), 0u, city << ": a value was wrong");
            NS_TEST_EXPECT_MSG_EQ(app->GetOverflows(), 0u, city);
        }
        Simulator::Destroy();
    }

    ExchangePattern m_mode;
};

/// Sums that leave the int32 range are detected and reported, never passed silently.
class OverflowReportedTestCase : public TestCase
{
  public:
    OverflowReportedTestCase()
        : TestCase("fixed-point overflow in the FPGA is detected and reported")
    {
    }

  private:
    void DoRun() override
    {
        ScenarioHelper s;
        s.SetTopology(StarTopology(3, 10e9, 1e-3, kEdgeRate));
        s.SetSchedule(AllLeaves(3));
        s.SetCapabilities(NetworkCapabilities::ForPattern(ExchangePattern::AGGREGATION));
        s.SetIslandAttribute("ModelBytes", UintegerValue(400000));
        s.SetIslandAttribute("CheckValues", UintegerValue(4000));
        // Scale 2^30: one value in [-1, 1] fits int32, a sum of three often does not.
        s.SetIslandAttribute("FixedPointBits", UintegerValue(30));
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        NS_TEST_ASSERT_MSG_EQ(r.aggregation.size(), 1u, "one clique");
        NS_TEST_EXPECT_MSG_GT(r.aggregation[0].overflows, 0u, "FPGA reports overflowed sums");
        uint64_t seen = 0;
        uint64_t wrong = 0;
        for (const auto& city : s.GetIslandCities())
        {
            seen += s.GetIsland(city)->GetOverflows();
            wrong += s.GetIsland(city)->GetValueMismatches();
        }
        NS_TEST_EXPECT_MSG_GT(seen, 0u, "islands see the overflow flag");
        NS_TEST_EXPECT_MSG_GT(wrong, 0u, "and the affected sums are known to be wrong");
        Simulator::Destroy();
    }
};

/// A learner whose every parameter is \p value; it keeps the sums it is given.
class ConstantLearner : public IslandLearner
{
  public:
    explicit ConstantLearner(double value)
        : m_value(value)
    {
    }

    std::size_t Dimension() const override
    {
        return 200;
    }

    void LocalSteps(uint32_t, uint32_t) override
    {
    }

    std::vector<double> Parameters() const override
    {
        return std::vector<double>(Dimension(), m_value);
    }

    void Synchronize(uint32_t, const std::vector<std::vector<double>>&) override
    {
    }

    void SynchronizeSum(uint32_t, const std::vector<double>& sum, uint32_t) override
    {
        sums.push_back(sum);
    }

    std::vector<std::vector<double>> sums; ///< Per round.

  private:
    double m_value;
};

/**
 * Sums beyond int32 (16 fraction bits: |sum| < 32768) saturate and are flagged, counted in
 * ScenarioResult::fixedPointOverflows (runs.fixed_point_overflows), and every member merges
 * the same sum: through the FPGA (one result) and after the FPGA failed (each member sums
 * itself, in island-id order). Before: an overflowing addition left the accumulator as it was
 * (a contribution silently missing, the result depending on arrival order), members of a
 * fallback summed own value first and ended with different models, and a value that saturated
 * at a member's encoding was counted nowhere (found by a training audit).
 */
class SaturatedSumsTestCase : public TestCase
{
  public:
    explicit SaturatedSumsTestCase(bool failFpga)
        : TestCase(std::string("fixed-point sums beyond int32 saturate, flagged, the same at ") +
                   "every member (" + (failFpga ? "FPGA failed: members sum" : "FPGA sums") + ")"),
          m_failFpga(failFpga)
    {
    }

  private:
    void DoRun() override
    {
        ScenarioHelper s;
        s.SetTopology(StarTopology(3, 10e9, 1e-3, kEdgeRate));
        s.SetSchedule(AllLeaves(3));
        NetworkCapabilities caps = NetworkCapabilities::ForPattern(ExchangePattern::AGGREGATION);
        caps.aggregationTimeoutS = 0.02;
        s.SetCapabilities(caps);
        s.SetIslandAttribute("ModelBytes", UintegerValue(100000));
        // 20000 + 30000 - 15000 = 35000: every value fits, the sum does not (L0 also saturates
        // at encoding with 40000 in the second variant below).
        std::map<std::string, std::shared_ptr<ConstantLearner>> learners{
            {"L0", std::make_shared<ConstantLearner>(m_failFpga ? 40000.0 : 20000.0)},
            {"L1", std::make_shared<ConstantLearner>(30000.0)},
            {"L2", std::make_shared<ConstantLearner>(-15000.0)}};
        for (const auto& [city, l] : learners)
        {
            s.SetLearner(city, l);
        }
        s.Build();
        if (m_failFpga)
        {
            s.FailFpga("HUBD", Seconds(0));
        }
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        uint64_t seen = 0;
        for (const auto& city : s.GetIslandCities())
        {
            seen += s.GetIsland(city)->GetOverflows();
        }
        NS_TEST_EXPECT_MSG_GT(r.fixedPointOverflows, 0u, "overflows counted in the result");
        NS_TEST_EXPECT_MSG_EQ(r.fixedPointOverflows, seen, "the islands' count, recorded");
        const auto& first = learners.at("L0")->sums;
        NS_TEST_ASSERT_MSG_EQ(first.size(), 1u, "one round merged");
        for (const auto& [city, l] : learners)
        {
            NS_TEST_ASSERT_MSG_EQ(l->sums.size(), 1u, city << ": one round merged");
            NS_TEST_EXPECT_MSG_EQ((l->sums[0] == first[0]), true,
                                  city << " merged a sum different from L0's: " << l->sums[0][0]
                                       << " against " << first[0][0]);
        }
        Simulator::Destroy();
    }

    bool m_failFpga;
};

/// Bad aggregation set-ups fail at Build() with a clear message.
class RouterConfigurationErrorTestCase : public TestCase
{
  public:
    RouterConfigurationErrorTestCase()
        : TestCase("bad aggregation configurations are rejected at set-up")
    {
    }

  private:
    void Expect(const std::function<void(ScenarioHelper&, NetworkCapabilities&)>& setup,
                const std::string& fragment)
    {
        ScenarioHelper s;
        s.SetTopology(ChainTopology({10e9, 10e9}, {1e-3, 1e-3}));
        s.SetSchedule(Schedule("pair", {ScheduleRound{{{"C0", "C1"}}}}));
        NetworkCapabilities caps = NetworkCapabilities::ForPattern(ExchangePattern::AGGREGATION);
        setup(s, caps);
        s.SetCapabilities(caps);
        std::string message;
        try
        {
            s.Build();
        }
        catch (const std::exception& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(message.find(fragment), std::string::npos,
                              "expected an error mentioning '" << fragment << "', got '"
                                                               << message << "'");
        Simulator::Destroy();
    }

    void DoRun() override
    {
        Expect(
            [](ScenarioHelper&, NetworkCapabilities& c) {
                c.fpgaOnAllDevices = false;
                c.fpgaDevices = {"C2D"}; // beyond C1: not on the C0-C1 path
            },
            "no FPGA device lies on the paths");
        Expect([](ScenarioHelper&, NetworkCapabilities& c) { c.slotBytes = 16384; }, "MTU");
        Expect([](ScenarioHelper&, NetworkCapabilities& c) { c.aggregationSlots = 0; },
               "slots");
        Expect(
            [](ScenarioHelper& s, NetworkCapabilities& c) {
                c.slotBytes = 4096;
                s.SetIslandAttribute("SegmentSize", UintegerValue(8192));
            },
            "larger than an aggregation slot");
        Expect([](ScenarioHelper&, NetworkCapabilities& c) { c.multicast = false; },
               "aggregation needs multicast");
    }
};

class RouterModelsTestSuite : public TestSuite
{
  public:
    RouterModelsTestSuite()
        : TestSuite("intelligent-network-routers", UNIT)
    {
        AddTestCase(new MulticastBytesPerLinkTestCase, TestCase::QUICK);
        AddTestCase(new OneToManyTestCase, TestCase::QUICK);
        AddTestCase(new AggregationAnalyticTestCase, TestCase::QUICK);
        AddTestCase(new SlotBackPressureTestCase, TestCase::QUICK);
        AddTestCase(new ExactUnderLossTestCase(ExchangePattern::MULTICAST), TestCase::QUICK);
        AddTestCase(new ExactUnderLossTestCase(ExchangePattern::AGGREGATION), TestCase::QUICK);
        AddTestCase(new OverflowReportedTestCase, TestCase::QUICK);
        AddTestCase(new SaturatedSumsTestCase(false), TestCase::QUICK);
        AddTestCase(new SaturatedSumsTestCase(true), TestCase::QUICK);
        AddTestCase(new RouterConfigurationErrorTestCase, TestCase::QUICK);
    }
};

static RouterModelsTestSuite g_routerModelsTestSuite;

} // namespace
