/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ns-3 TestSuite "intelligent-network-faults": a private link failing mid-round (rerouting over
// another private path or the public internet), an FPGA failing mid-round (fallback to
// multicast with exact sums), a 10x straggler, and random loss of 0.1%, 1% and 5%.

#include "test-util.h"

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/test.h"

#include <cstdio>
#include <functional>
#include <map>
#include <tuple>

using namespace ns3;
using namespace ns3::intelligent_network_test;

namespace
{

const std::string kData = INTELLIGENT_NETWORK_DATA_DIR;

/// A nine-city scenario with the 3x3 schedule.
struct NineCity
{
    explicit NineCity(ExchangePattern mode, uint64_t model = 4000000, uint32_t rounds = 2)
    {
        topology = TopologyReader::ReadFile(kData + "/nine-city.topology");
        scenario.SetTopology(topology);
        scenario.SetSchedule(
            Schedule::Load(kData + "/schedules/3x3-rotating.json", topology.CityCodes()));
        scenario.SetCapabilities(NetworkCapabilities::ForPattern(mode));
        scenario.SetRounds(rounds);
        scenario.SetIslandAttribute("ModelBytes", UintegerValue(model));
        modelBytes = model;
    }

    Topology topology;
    ScenarioHelper scenario;
    uint64_t modelBytes;
};

double
CliqueDuration(const ScenarioResult& r, uint32_t round, const std::string& member)
{
    for (const auto& rec : r.rounds)
    {
        if (rec.round == round && rec.members.find(member) != std::string::npos)
        {
            return rec.endS - rec.startS;
        }
    }
    return -1;
}

uint64_t
PublicPayload(const ScenarioResult& r)
{
    uint64_t b = 0;
    for (const auto& l : r.links)
    {
        b += l.kind == "public" ? l.payloadBytes : 0;
    }
    return b;
}

/// Every island received every byte of each peer in every round.
uint64_t
LostBytes(const ScenarioResult& r, uint64_t model, uint32_t peers)
{
    uint64_t lost = 0;
    for (const auto& ir : r.islandRounds)
    {
        lost += peers * model - std::min<uint64_t>(peers * model, ir.bytesReceived);
    }
    return lost;
}

/**
 * A private link fails in the middle of round 0; after a detection delay the network reroutes
 * (routes, multicast trees and rates recomputed without it). SEO's only private link
 * (SEO1-TYO2): SEO's traffic moves to the 1 Gbps public internet. In a triangle, the direct
 * link A-B: traffic takes the longer private path through C.
 */
class LinkFailureTestCase : public TestCase
{
  public:
    LinkFailureTestCase(ExchangePattern mode, std::string a, std::string b, bool nineCity)
        : TestCase("link " + a + "-" + b + " fails mid-round (" +
                   PatternName(mode) + ")"),
          m_mode(mode),
          m_a(std::move(a)),
          m_b(std::move(b)),
          m_nineCity(nineCity)
    {
    }

  private:
    /// \p drops: packets dropped by the devices' receive error models (only a failed link
    /// drops: no random loss here).
    ScenarioResult RunOnce(bool fail, uint64_t& drops)
    {
        ScenarioHelper s;
        if (m_nineCity)
        {
            Topology topo = TopologyReader::ReadFile(kData + "/nine-city.topology");
            s.SetTopology(topo);
            s.SetSchedule(
                Schedule::Load(kData + "/schedules/3x3-rotating.json", topo.CityCodes()));
        }
        else
        {
            s.SetTopology(TriangleTopology());
            s.SetSchedule(Schedule("ab", {ScheduleRound{{{"A", "B"}}}}));
        }
        s.SetCapabilities(NetworkCapabilities::ForPattern(m_mode));
        s.SetRounds(2);
        s.SetIslandAttribute("ModelBytes", UintegerValue(m_model));
        s.Build();
        if (fail)
        {
            // Compute lasts 10 ms: the exchange of round 0 is under way.
            s.FailLink(m_a, m_b, MilliSeconds(20), MilliSeconds(20));
        }
        drops = 0;
        Config::ConnectWithoutContext(
            "/NodeList/*/DeviceList/*/$ns3::PointToPointNetDevice/PhyRxDrop",
            MakeCallback(+[](uint64_t* n, Ptr<const Packet>) { ++*n; }).Bind(&drops));
        ScenarioResult r = s.Run();
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        uint32_t peers = m_nineCity ? 2 : 1;
        uint64_t baseDrops = 0;
        uint64_t drops = 0;
        ScenarioResult base = RunOnce(false, baseDrops);
        ScenarioResult failed = RunOnce(true, drops);
        NS_TEST_ASSERT_MSG_EQ(failed.complete, true, failed.error);
        // The fault really happened: the failed link dropped what was on it.
        NS_TEST_EXPECT_MSG_EQ(baseDrops, 0u, "no drop without the failure");
        NS_TEST_EXPECT_MSG_GT(drops, 0u, "the failed link dropped packets in flight");
        NS_TEST_EXPECT_MSG_EQ(LostBytes(failed, m_model, peers), 0u, "nothing lost");
        uint64_t retx = 0;
        for (const auto& ir : failed.islandRounds)
        {
            retx += ir.retransmittedSegments;
        }
        NS_TEST_EXPECT_MSG_GT(retx, 0u, "segments in flight on the failed link were resent");
        std::string city = m_nineCity ? m_a.substr(0, 3) : "A";
        double before = CliqueDuration(base, 0, city);
        double after = CliqueDuration(failed, 0, city);
        double later = CliqueDuration(failed, 1, city);
        std::printf("    %s-%s down: round 0 of %s's clique %.1f ms -> %.1f ms (round 1 %.1f ms);"
                    " public payload %.1f MB\n",
                    m_a.c_str(), m_b.c_str(), city.c_str(), before * 1e3, after * 1e3,
                    later * 1e3, PublicPayload(failed) / 1e6);
        NS_TEST_EXPECT_MSG_GT(after, before, "the detour must cost time");
        NS_TEST_EXPECT_MSG_EQ(PublicPayload(base), 0u, "no public traffic without failure");
        if (m_nineCity)
        {
            NS_TEST_EXPECT_MSG_GT(PublicPayload(failed), 0u, "traffic moved to public paths");
        }
        else
        {
            // Round 1 runs entirely over A-C-B: 1 ms more latency than A-B.
            double baseLater = CliqueDuration(base, 1, city);
            NS_TEST_EXPECT_MSG_EQ_TOL(later - baseLater, 1e-3, 0.1e-3,
                                      "detour of 1 ms: " << later << " vs " << baseLater);
        }
    }

    ExchangePattern m_mode;
    std::string m_a;
    std::string m_b;
    bool m_nineCity;
    uint64_t m_model = 20000000;
};

/// Three cities in a line, A - B - C (5 ms, 10 Gbps each); no public paths.
Topology
Line()
{
    Topology t("line");
    for (const char* c : {"A", "B", "C"})
    {
        t.AddCity(City{c, c, 0.0, 0.0});
        t.AddDevice(Device{std::string(c) + "D", c, 1e12, ""});
    }
    t.AddLink(TopologyLink{LinkKind::PRIVATE, "AD", "BD", 5e-3, 10e9});
    t.AddLink(TopologyLink{LinkKind::PRIVATE, "BD", "CD", 5e-3, 10e9});
    return t;
}

/**
 * A link failure that partitions the network (B-C, C's only link) in the middle of round 0:
 * the run ends at the reroute, INCOMPLETE, with the cause (the link, the partition) as its
 * error, in every mode; nothing aborts. The same run without the failure completes.
 */
class PartitionTestCase : public TestCase
{
  public:
    explicit PartitionTestCase(ExchangePattern mode)
        : TestCase("a link failure partitions the network (" + PatternName(mode) +
                   "): INCOMPLETE with the cause, no abort"),
          m_mode(mode)
    {
    }

  private:
    ScenarioResult RunOnce(bool fail)
    {
        ScenarioHelper s;
        s.SetTopology(Line());
        s.SetSchedule(Schedule("abc", {ScheduleRound{{{"A", "B", "C"}}}}));
        s.SetCapabilities(NetworkCapabilities::ForPattern(m_mode));
        s.SetRounds(2);
        s.SetIslandAttribute("ModelBytes", UintegerValue(20000000));
        s.Build();
        if (fail)
        {
            s.FailLink("BD", "CD", MilliSeconds(20), MilliSeconds(20)); // compute: 10 ms
        }
        m_drops = 0;
        Config::ConnectWithoutContext(
            "/NodeList/*/DeviceList/*/$ns3::PointToPointNetDevice/PhyRxDrop",
            MakeCallback(+[](uint64_t* n, Ptr<const Packet>) { ++*n; }).Bind(&m_drops));
        ScenarioResult r = s.Run();
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        ScenarioResult base = RunOnce(false);
        NS_TEST_ASSERT_MSG_EQ(base.complete, true, base.error);
        NS_TEST_EXPECT_MSG_EQ(m_drops, 0u, "no drop without the failure");
        ScenarioResult r = RunOnce(true);
        std::printf("    %s: %s\n", PatternName(m_mode).c_str(), r.error.c_str());
        NS_TEST_EXPECT_MSG_GT(m_drops, 0u, "the failed link dropped packets in flight");
        NS_TEST_EXPECT_MSG_EQ(r.complete, false, "a partitioned network cannot complete");
        NS_TEST_EXPECT_MSG_NE(r.error.find("link BD-CD failed"), std::string::npos, r.error);
        NS_TEST_EXPECT_MSG_NE(r.error.find("partitioned"), std::string::npos, r.error);
        // Ended at the reroute (20 + 20 ms), not at the time limit; round 0 never finished.
        NS_TEST_EXPECT_MSG_LT(r.simTimeS, 0.041, "stopped at the reroute");
        NS_TEST_EXPECT_MSG_GT(base.simTimeS, 0.041, "the failure is mid-round");
        NS_TEST_EXPECT_MSG_EQ(r.rounds.size(), 0u, "no clique-round completed");
    }

    ExchangePattern m_mode;
    uint64_t m_drops = 0; ///< Packets dropped by the devices' receive error models.
};

/**
 * The clique's FPGA fails mid-round: within one aggregation timeout the members fall back to
 * multicast and sum the values themselves; every sum is still exact, and the next round uses
 * multicast from the start.
 */
class FpgaFailureTestCase : public TestCase
{
  public:
    FpgaFailureTestCase()
        : TestCase("FPGA fails mid-round: fallback to multicast within one timeout, exact sums")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t values = 20000;
        const uint64_t model = 4000000;
        const double timeout = 0.05;
        const double failAt = 0.012;
        ScenarioHelper s;
        s.SetTopology(StarTopology(3, 10e9, 2e-3));
        s.SetSchedule(Schedule("leaves", {ScheduleRound{{{"L0", "L1", "L2"}}}}));
        NetworkCapabilities caps = NetworkCapabilities::ForPattern(ExchangePattern::AGGREGATION);
        caps.aggregationTimeoutS = timeout;
        s.SetCapabilities(caps);
        s.SetRounds(2);
        s.SetIslandAttribute("ModelBytes", UintegerValue(model));
        s.SetIslandAttribute("CheckValues", UintegerValue(values));
        s.Build();
        s.FailFpga("HUBD", Seconds(failAt));
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        // A multicast of the model over two 10 Gbps hops of 2 ms, plus the timeout.
        double transfer = PacedTransferTime(model, 8192, IslandPath({10e9, 10e9}, {2e-3, 2e-3}, 1e12));
        for (const auto& city : s.GetIslandCities())
        {
            Ptr<TrainingIsland> app = s.GetIsland(city);
            NS_TEST_EXPECT_MSG_EQ(app->GetFallbackRounds().count(0), 1u, city << " fell back");
            NS_TEST_EXPECT_MSG_EQ(app->GetFallbackRounds().count(1), 1u,
                                  city << " kept multicast for the next round");
            // Each round: both peers' multicast vectors and the sum computed from them.
            NS_TEST_EXPECT_MSG_EQ(app->GetValuesChecked(), 2u * 3u * values, city);
            NS_TEST_EXPECT_MSG_EQ(app->GetValueMismatches(), 0u, city << ": inexact sum");
        }
        // The fallback is recorded per clique and round (rounds.pattern), not hidden under
        // the run's mode.
        NS_TEST_EXPECT_MSG_EQ(r.rounds.size(), 2u, "two clique-rounds");
        for (const auto& rec : r.rounds)
        {
            NS_TEST_EXPECT_MSG_EQ(rec.pattern, std::string(kFallbackPattern),
                                  "round " << rec.round << " recorded as a fallback");
        }
        for (const auto& ir : r.islandRounds)
        {
            if (ir.round == 0)
            {
                double recovery = ir.endS - failAt;
                NS_TEST_EXPECT_MSG_LT(recovery, timeout + 1.2 * transfer + 0.01,
                                      ir.island << " recovered " << recovery << " s after the "
                                                << "failure");
            }
            else
            {
                NS_TEST_EXPECT_MSG_LT(ir.endS - ir.startS, 0.01 + 1.2 * transfer + 0.01,
                                      "round 1 needs no timeout");
            }
        }
        Simulator::Destroy();
    }
};

/**
 * Aggregation under loss with a short timeout: members give up on the FPGA and fall back to
 * multicast, and the FPGA's resend requests for the slots they will never complete are
 * bounded (MaxResendRequests per slot), instead of repeating every timeout until the run
 * ends. The fallback is recorded per clique and round; every value is still exact.
 */
class BoundedResendTestCase : public TestCase
{
  public:
    BoundedResendTestCase()
        : TestCase("aggregation under loss: resend requests bounded per slot, fallback recorded")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t bound = 4;
        Config::SetDefault("ns3::FpgaAggregator::MaxResendRequests", UintegerValue(bound));
        // The members' fixed short timeout alone (not stretched to a few repair round trips
        // of the path), so that they do give up on the FPGA under this loss.
        Config::SetDefault("ns3::TrainingIsland::AggregatorTimeoutRepairs", UintegerValue(0));
        ScenarioHelper s;
        s.SetTopology(StarTopology(3, 10e9, 2e-3));
        s.SetSchedule(Schedule("leaves", {ScheduleRound{{{"L0", "L1", "L2"}}}}));
        NetworkCapabilities caps = NetworkCapabilities::ForPattern(ExchangePattern::AGGREGATION);
        caps.aggregationTimeoutS = 0.002;
        s.SetCapabilities(caps);
        s.SetRounds(4);
        s.SetLossRate(0.05);
        s.SetIslandAttribute("ModelBytes", UintegerValue(4000000));
        s.SetIslandAttribute("CheckValues", UintegerValue(500000)); // every value of the model
        s.Build();
        std::map<std::tuple<uint32_t, uint16_t, uint32_t>, uint32_t> requests;
        Config::ConnectWithoutContext(
            "/NodeList/*/ApplicationList/*/$ns3::FpgaAggregator/Timeout",
            MakeCallback(
                +[](std::map<std::tuple<uint32_t, uint16_t, uint32_t>, uint32_t>* m,
                    uint32_t round, uint16_t clique, uint32_t seq, uint32_t) {
                    ++(*m)[{round, clique, seq}];
                })
                .Bind(&requests));
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        uint32_t most = 0;
        for (const auto& [slot, n] : requests)
        {
            most = std::max(most, n);
        }
        std::size_t fellBack = 0;
        for (const auto& rec : r.rounds)
        {
            fellBack += rec.pattern == kFallbackPattern ? 1 : 0;
        }
        std::printf("    %zu slots asked for resends, at most %u times each; %zu of %zu "
                    "clique-rounds fell back, %.1f ms simulated\n",
                    requests.size(), most, fellBack, r.rounds.size(), r.simTimeS * 1e3);
        NS_TEST_EXPECT_MSG_GT(requests.size(), 0u, "loss left slots incomplete at the FPGA");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(most, bound, "resend requests per slot are bounded");
        NS_TEST_EXPECT_MSG_GT(fellBack, 0u, "a fallback is recorded");
        for (const auto& city : s.GetIslandCities())
        {
            Ptr<TrainingIsland> app = s.GetIsland(city);
            NS_TEST_EXPECT_MSG_EQ(app->GetValueMismatches(), 0u, city << ": inexact sum");
            NS_TEST_EXPECT_MSG_GT(app->GetValuesChecked(), 0u, city);
        }
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * One island computes 10x slower: the rounds still complete, and its clique's rounds are the
 * long ones in the rounds table.
 */
class StragglerTestCase : public TestCase
{
  public:
    StragglerTestCase()
        : TestCase("a 10x straggler island: rounds complete, its cliques are the slow ones")
    {
    }

  private:
    void DoRun() override
    {
        const double compute = 0.05;
        NineCity nc(ExchangePattern::ALL_TO_ALL, 2000000, 2);
        nc.scenario.SetIslandAttribute("ComputeTime", TimeValue(Seconds(compute)));
        nc.scenario.Build();
        nc.scenario.SetIslandAttribute("NYC", "ComputeTime", TimeValue(Seconds(10 * compute)));
        ScenarioResult r = nc.scenario.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        for (const auto& ir : r.islandRounds)
        {
            double c = ir.computeEndS - ir.startS;
            double expected = ir.island == "NYC" ? 10 * compute : compute;
            NS_TEST_EXPECT_MSG_EQ_TOL(c, expected, 1e-9, ir.island);
        }
        for (uint32_t round = 0; round < 2; ++round)
        {
            double slow = CliqueDuration(r, round, "NYC");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(slow, 10 * compute, "the straggler's clique waits");
            for (const auto& rec : r.rounds)
            {
                if (rec.round == round && rec.members.find("NYC") == std::string::npos)
                {
                    std::printf("    round %u: %s %.1f ms, straggler's clique %.1f ms\n", round,
                                rec.members.c_str(), (rec.endS - rec.startS) * 1e3, slow * 1e3);
                    NS_TEST_EXPECT_MSG_GT(slow, rec.endS - rec.startS,
                                          "round " << round << ": " << rec.members);
                }
            }
        }
        Simulator::Destroy();
    }
};

/**
 * Random loss of 0.1%, 1% and 5% on every link, in every mode: no byte lost, every value and
 * sum exact; the round-time inflation against a loss-free run is reported.
 */
class LossLevelsTestCase : public TestCase
{
  public:
    explicit LossLevelsTestCase(ExchangePattern mode)
        : TestCase(std::string("loss 0.1%, 1%, 5% with ") + PatternName(mode)),
          m_mode(mode)
    {
    }

  private:
    static constexpr uint64_t kModel = 2000000;
    static constexpr uint32_t kRounds = 2;
    static constexpr uint32_t kValues = kModel / 8; // every value of the model is checked

    /// Runs with \p loss; \p v: per island (values checked, mismatches); \p drops: packets
    /// the error models dropped (PhyRxDrop of the point-to-point devices).
    ScenarioResult RunOnce(double loss,
                           std::map<std::string, std::pair<uint64_t, uint64_t>>& v,
                           uint64_t& drops)
    {
        NineCity nc(m_mode, kModel, kRounds);
        nc.scenario.SetLossRate(loss);
        nc.scenario.Build();
        for (const auto& city : nc.scenario.GetIslandCities())
        {
            nc.scenario.SetIslandAttribute(city, "CheckValues", UintegerValue(kValues));
        }
        drops = 0;
        Config::ConnectWithoutContext(
            "/NodeList/*/DeviceList/*/$ns3::PointToPointNetDevice/PhyRxDrop",
            MakeCallback(+[](uint64_t* n, Ptr<const Packet>) { ++*n; }).Bind(&drops));
        ScenarioResult r = nc.scenario.Run();
        for (const auto& city : nc.scenario.GetIslandCities())
        {
            Ptr<TrainingIsland> app = nc.scenario.GetIsland(city);
            v[city] = {app->GetValuesChecked(), app->GetValueMismatches()};
        }
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        std::map<std::string, std::pair<uint64_t, uint64_t>> values;
        uint64_t drops = 0;
        ScenarioResult clean = RunOnce(0, values, drops);
        NS_TEST_ASSERT_MSG_EQ(clean.complete, true, clean.error);
        NS_TEST_EXPECT_MSG_EQ(drops, 0u, "no loss, no drop");
        // Values every island checks in a loss-free run: every value of every round (the
        // peers' vectors, or the FPGA's sums).
        std::map<std::string, uint64_t> expected;
        for (const auto& [city, cm] : values)
        {
            expected[city] = cm.first;
            // 3x3 cliques: two peers' vectors per round, or one FPGA sum per round.
            uint64_t perRound = m_mode == ExchangePattern::AGGREGATION ? 1 : 2;
            NS_TEST_EXPECT_MSG_EQ(cm.first, kRounds * perRound * kValues,
                                  city << " checks every value of every round");
        }
        for (double loss : {0.001, 0.01, 0.05})
        {
            values.clear();
            ScenarioResult r = RunOnce(loss, values, drops);
            NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
            NS_TEST_EXPECT_MSG_GT(drops, 0u, "the error models dropped packets");
            uint64_t retx = 0;
            for (const auto& ir : r.islandRounds)
            {
                retx += ir.retransmittedSegments;
                if (m_mode != ExchangePattern::AGGREGATION)
                {
                    NS_TEST_EXPECT_MSG_EQ(ir.bytesReceived, 2u * kModel, ir.island);
                }
            }
            NS_TEST_EXPECT_MSG_GT(retx, 0u, "lost segments were resent");
            for (const auto& [city, cm] : values)
            {
                NS_TEST_EXPECT_MSG_GT_OR_EQ(cm.first, expected[city],
                                            city << " checked every value despite the loss");
                NS_TEST_EXPECT_MSG_EQ(cm.second, 0u, city << ": a value or sum was wrong");
            }
            std::printf("    %s, loss %.1f%%: %.1f ms vs %.1f ms loss-free (x%.2f), %llu "
                        "packets dropped, %llu segments resent\n",
                        PatternName(m_mode).c_str(), loss * 100, r.simTimeS * 1e3,
                        clean.simTimeS * 1e3, r.simTimeS / clean.simTimeS,
                        static_cast<unsigned long long>(drops),
                        static_cast<unsigned long long>(retx));
            NS_TEST_EXPECT_MSG_GT_OR_EQ(r.simTimeS, clean.simTimeS * 0.999, "loss is not free");
        }
    }

    ExchangePattern m_mode;
};

class FaultToleranceTestSuite : public TestSuite
{
  public:
    FaultToleranceTestSuite()
        : TestSuite("intelligent-network-faults", UNIT)
    {
        AddTestCase(new LinkFailureTestCase(ExchangePattern::ALL_TO_ALL, "SEO1", "TYO2", true),
                    TestCase::QUICK);
        AddTestCase(new LinkFailureTestCase(ExchangePattern::MULTICAST, "SEO1", "TYO2", true),
                    TestCase::QUICK);
        AddTestCase(new LinkFailureTestCase(ExchangePattern::ALL_TO_ALL, "AD", "BD", false),
                    TestCase::QUICK);
        for (ExchangePattern mode : {ExchangePattern::ALL_TO_ALL, ExchangePattern::MULTICAST,
                                     ExchangePattern::AGGREGATION})
        {
            AddTestCase(new PartitionTestCase(mode), TestCase::QUICK);
        }
        AddTestCase(new FpgaFailureTestCase, TestCase::QUICK);
        AddTestCase(new BoundedResendTestCase, TestCase::QUICK);
        AddTestCase(new StragglerTestCase, TestCase::QUICK);
        AddTestCase(new LossLevelsTestCase(ExchangePattern::ALL_TO_ALL), TestCase::QUICK);
        AddTestCase(new LossLevelsTestCase(ExchangePattern::MULTICAST), TestCase::QUICK);
        AddTestCase(new LossLevelsTestCase(ExchangePattern::AGGREGATION), TestCase::QUICK);
    }
};

static FaultToleranceTestSuite g_faultToleranceTestSuite;

} // namespace
