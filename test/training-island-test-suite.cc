/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ns-3 TestSuite "intelligent-network-exchange": round times against analytic expectations,
// reliability under random loss, and configuration errors.

#include "test-util.h"

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/test.h"

#include <map>
#include <set>
#include <tuple>

using namespace ns3;
using namespace ns3::intelligent_network_test;

namespace
{

const std::string kData = INTELLIGENT_NETWORK_DATA_DIR;

/// Round durations measured by every island: (island, round) -> seconds.
std::map<std::pair<std::string, uint32_t>, double>
IslandDurations(const ScenarioResult& r)
{
    std::map<std::pair<std::string, uint32_t>, double> out;
    for (const auto& ir : r.islandRounds)
    {
        out[{ir.island, ir.round}] = ir.endS - ir.startS;
    }
    return out;
}

/**
 * Two islands joined by one link of rate R and latency d (fast access links) exchange a model
 * of M bytes: the round lasts compute + M/R (with per-segment headers) + d + the store and
 * forward of the last segment, within 2%.
 */
class TwoIslandAnalyticTestCase : public TestCase
{
  public:
    TwoIslandAnalyticTestCase(double rateBps, double latencyS, uint64_t modelBytes)
        : TestCase("two islands, one link: R=" + std::to_string(rateBps / 1e9) + " Gbps, d=" +
                   std::to_string(latencyS * 1e3) + " ms, M=" + std::to_string(modelBytes) + " B"),
          m_rate(rateBps),
          m_latency(latencyS),
          m_model(modelBytes)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t segment = 8192;
        const double compute = 0.02;
        const double edgeRate = 1e12;
        ScenarioHelper s;
        s.SetTopology(ChainTopology({m_rate}, {m_latency}, edgeRate));
        s.SetSchedule(Schedule("pair", {ScheduleRound{{{"C0", "C1"}}}}));
        s.SetRounds(2);
        s.SetIslandAttribute("ModelBytes", UintegerValue(m_model));
        s.SetIslandAttribute("SegmentSize", UintegerValue(segment));
        s.SetIslandAttribute("ComputeTime", TimeValue(Seconds(compute)));
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);

        // island - metro - device, the link, device - metro - island.
        double expected = compute + PacedTransferTime(m_model, segment,
                                                      IslandPath({m_rate}, {m_latency}, edgeRate));
        double naive = compute + m_model * 8.0 / m_rate + m_latency;
        auto durations = IslandDurations(r);
        NS_TEST_ASSERT_MSG_EQ(durations.size(), 4u, "two islands x two rounds");
        for (const auto& [key, measured] : durations)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(measured, expected, 0.02 * expected,
                                      key.first << " round " << key.second << ": measured "
                                                << measured << " s, analytic " << expected
                                                << " s");
            // Headers cost about 0.7% at 8 KB segments: never faster than the naive bound.
            NS_TEST_EXPECT_MSG_GT_OR_EQ(measured, naive, "faster than M/R + d");
        }
        // No loss, no retransmission; every model byte arrived once.
        for (const auto& ir : r.islandRounds)
        {
            NS_TEST_EXPECT_MSG_EQ(ir.retransmittedSegments, 0u, "retransmission without loss");
            NS_TEST_EXPECT_MSG_EQ(ir.bytesReceived, m_model, "bytes received");
            NS_TEST_EXPECT_MSG_EQ(ir.bytesSent, m_model, "bytes sent");
        }
        Simulator::Destroy();
    }

    double m_rate;
    double m_latency;
    uint64_t m_model;
};

/**
 * Three WAN hops of different rates between two islands: the transfer runs at the bottleneck
 * rate and the last segment is stored and forwarded on every hop.
 */
class ThreeHopAnalyticTestCase : public TestCase
{
  public:
    ThreeHopAnalyticTestCase()
        : TestCase("three hops of 10, 4 and 10 Gbps: bottleneck rate plus per-hop latency")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t model = 30000000;
        const uint32_t segment = 8192;
        const double edgeRate = 1e12;
        std::vector<double> rates = {10e9, 4e9, 10e9};
        std::vector<double> lat = {2e-3, 15e-3, 5e-3};
        ScenarioHelper s;
        s.SetTopology(ChainTopology(rates, lat, edgeRate));
        s.SetSchedule(Schedule("ends", {ScheduleRound{{{"C0", "C3"}}}}));
        s.SetIslandAttribute("ModelBytes", UintegerValue(model));
        s.SetIslandAttribute("SegmentSize", UintegerValue(segment));
        s.SetIslandAttribute("ComputeTime", TimeValue(Seconds(0)));
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        const Hops path = IslandPath(rates, lat, edgeRate);
        double expected = PacedTransferTime(model, segment, path);
        auto durations = IslandDurations(r);
        NS_TEST_ASSERT_MSG_EQ(durations.size(), 2u, "two islands");
        for (const auto& [key, measured] : durations)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(measured, expected, 0.02 * expected,
                                      key.first << ": measured " << measured << " s, analytic "
                                                << expected << " s");
        }
        // The middle hop is the bottleneck: it was busy for (almost) the whole transfer.
        const NetworkGraph& g = s.GetGraph();
        auto mid = g.FindEdge(g.NodeByName("C1D"), g.NodeByName("C2D"));
        NS_TEST_ASSERT_MSG_GT_OR_EQ(mid, 0, "middle link exists");
        const auto& c = s.GetLinkMonitor().Get(static_cast<uint32_t>(mid), g.NodeByName("C1D"));
        NS_TEST_EXPECT_MSG_EQ(c.dataPayloadBytes, model, "one copy of the model crossed the link");
        NS_TEST_EXPECT_MSG_GT(c.busyS, 0.98 * (expected - path.Latency()), "bottleneck busy");
        Simulator::Destroy();
    }
};

/**
 * 1% random loss on every link direction: every island still ends every round with every byte
 * of every peer (each segment exactly once), and the losses were really repaired.
 */
class LossRecoveryTestCase : public TestCase
{
  public:
    LossRecoveryTestCase(const std::string& schedule, uint32_t rounds, uint64_t model)
        : TestCase("1% loss on every link, nine cities, " + schedule),
          m_schedule(schedule),
          m_rounds(rounds),
          m_model(model)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t segment = 8192;
        Topology topo = TopologyReader::ReadFile(kData + "/nine-city.topology");
        Schedule sched =
            Schedule::Load(kData + "/schedules/" + m_schedule + ".json", topo.CityCodes());
        ScenarioHelper s;
        s.SetTopology(topo);
        s.SetSchedule(sched);
        s.SetRounds(m_rounds);
        s.SetLossRate(0.01);
        s.SetIslandAttribute("ModelBytes", UintegerValue(m_model));
        s.SetIslandAttribute("SegmentSize", UintegerValue(segment));
        s.Build();

        // (island, round, origin) -> distinct segments and bytes; models completed.
        std::map<std::tuple<std::string, uint32_t, uint32_t>, std::set<uint32_t>> segs;
        std::map<std::tuple<std::string, uint32_t, uint32_t>, uint64_t> bytes;
        std::map<std::pair<std::string, uint32_t>, std::set<uint32_t>> models;
        for (const auto& city : s.GetIslandCities())
        {
            Ptr<TrainingIsland> app = s.GetIsland(city);
            app->TraceConnectWithoutContext(
                "SegmentReceived",
                Callback<void, uint32_t, uint32_t, uint32_t, uint32_t, Ptr<const Packet>>(
                    [&, city](uint32_t round, uint32_t origin, uint32_t seq, uint32_t b,
                              Ptr<const Packet>) {
                        auto key = std::make_tuple(city, round, origin);
                        bool fresh = segs[key].insert(seq).second;
                        NS_TEST_EXPECT_MSG_EQ(fresh, true, "segment delivered twice");
                        bytes[key] += b;
                    }));
            app->TraceConnectWithoutContext(
                "ModelReceived",
                Callback<void, uint32_t, uint32_t>([&, city](uint32_t round, uint32_t origin) {
                    models[{city, round}].insert(origin);
                }));
        }
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);

        const NetworkGraph& g = s.GetGraph();
        uint64_t retransmitted = 0;
        for (const auto& ir : r.islandRounds)
        {
            retransmitted += ir.retransmittedSegments;
        }
        NS_TEST_EXPECT_MSG_GT(retransmitted, 0u, "1% loss must have caused retransmissions");
        uint32_t expectedSegments = static_cast<uint32_t>((m_model + segment - 1) / segment);
        for (uint32_t round = 0; round < m_rounds; ++round)
        {
            for (const auto& clique : sched.RoundAt(round).cliques)
            {
                for (const auto& city : clique)
                {
                    for (const auto& peer : clique)
                    {
                        if (peer == city)
                        {
                            continue;
                        }
                        uint32_t origin = g.IslandNode(peer);
                        auto key = std::make_tuple(city, round, origin);
                        auto got = static_cast<uint32_t>(segs[key].size());
                        uint64_t gotBytes = bytes[key];
                        std::size_t whole = models[std::make_pair(city, round)].count(origin);
                        NS_TEST_EXPECT_MSG_EQ(got, expectedSegments,
                                              city << " round " << round << " from " << peer);
                        NS_TEST_EXPECT_MSG_EQ(gotBytes, m_model,
                                              city << " round " << round << " bytes from "
                                                   << peer);
                        NS_TEST_EXPECT_MSG_EQ(whole, 1u,
                                              city << " got the whole model of " << peer);
                    }
                }
            }
        }
        Simulator::Destroy();
    }

    std::string m_schedule;
    uint32_t m_rounds;
    uint64_t m_model;
};

/// Configuration errors are reported at set-up, not as a hang or a crash.
class ConfigurationErrorTestCase : public TestCase
{
  public:
    ConfigurationErrorTestCase()
        : TestCase("bad configurations are rejected at Build()")
    {
    }

  private:
    void DoRun() override
    {
        auto expectThrow = [this](const std::function<void(ScenarioHelper&)>& setup,
                                  const std::string& fragment) {
            ScenarioHelper s;
            s.SetTopology(ChainTopology({10e9}, {1e-3}));
            s.SetSchedule(Schedule("pair", {ScheduleRound{{{"C0", "C1"}}}}));
            setup(s);
            bool threw = false;
            try
            {
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
        };
        expectThrow(
            [](ScenarioHelper& s) {
                s.SetIslandAttribute("SegmentSize", UintegerValue(9000));
            },
            "MTU");
        expectThrow(
            [](ScenarioHelper& s) {
                s.SetSchedule(Schedule("x", {ScheduleRound{{{"C0", "ZZZ"}}}}));
            },
            "ZZZ");
        expectThrow(
            [](ScenarioHelper& s) {
                Topology t = ChainTopology({10e9}, {1e-3});
                t.AddCity(City{"C9", "C9", 0.0, 0.0});
                t.AddDevice(Device{"C9D", "C9", 1e10, ""});
                s.SetTopology(t);
                s.SetSchedule(Schedule("x", {ScheduleRound{{{"C0", "C9"}}}}));
            },
            "cannot reach");
        expectThrow([](ScenarioHelper& s) { s.SetRounds(0); }, "rounds");
    }
};

class ExchangeTestSuite : public TestSuite
{
  public:
    ExchangeTestSuite()
        : TestSuite("intelligent-network-exchange", UNIT)
    {
        AddTestCase(new TwoIslandAnalyticTestCase(10e9, 20e-3, 50000000), TestCase::QUICK);
        AddTestCase(new TwoIslandAnalyticTestCase(1e9, 45.6e-3, 10000000), TestCase::QUICK);
        AddTestCase(new TwoIslandAnalyticTestCase(40e9, 1e-3, 7777777), TestCase::QUICK);
        AddTestCase(new ThreeHopAnalyticTestCase, TestCase::QUICK);
        AddTestCase(new LossRecoveryTestCase("3x3-rotating", 2, 4000000), TestCase::QUICK);
        AddTestCase(new LossRecoveryTestCase("all-in-one", 1, 2000000), TestCase::QUICK);
        AddTestCase(new ConfigurationErrorTestCase, TestCase::QUICK);
    }
};

static ExchangeTestSuite g_exchangeTestSuite;

} // namespace
