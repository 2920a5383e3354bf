/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: CostModel against hand-computed fluid round times.

#include "ns3/cost-model.h"
#include "ns3/topology-reader.h"
#include "ns3/wire-format.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;

namespace
{

const double kRate = 10e9;

/// Islands first, then devices; every edge has rate kRate.
NetworkGraph
Graph(const std::vector<std::string>& islands, const std::vector<std::string>& devices,
      const std::vector<std::tuple<std::string, std::string, double>>& edges)
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
    for (const auto& [a, b, lat] : edges)
    {
        g.AddEdge(GraphEdge{g.NodeByName(a), g.NodeByName(b), lat, kRate, EdgeKind::PRIVATE});
    }
    return g;
}

/// A and C behind device X, B and D behind device Y; X-Y is the shared 10 ms link.
NetworkGraph
Dumbbell()
{
    return Graph({"A", "B", "C", "D"}, {"X", "Y"},
                 {{"A", "X", 0.001},
                  {"C", "X", 0.001},
                  {"X", "Y", 0.01},
                  {"Y", "B", 0.001},
                  {"Y", "D", 0.001}});
}

CostParameters
Params(double modelBytes, double computeS = 0)
{
    CostParameters p;
    p.modelBytes = modelBytes;
    p.segmentPayloadBytes = 8000;
    p.computeTimeS = computeS;
    return p;
}

double
WireBits(double modelBytes, uint32_t segment)
{
    double segments = std::ceil(modelBytes / segment);
    return 8 * (modelBytes + segments * WireFormat::WireBytes(0));
}

} // namespace

TEST(CostModel, WireBitsCountEverySegmentsHeaders)
{
    CostParameters p = Params(1e6 + 1);
    EXPECT_EQ(p.Segments(), 126u); // ceil(1000001 / 8000)
    EXPECT_DOUBLE_EQ(p.ModelWireBits(), 8 * (1e6 + 1 + 126.0 * 58));
    EXPECT_DOUBLE_EQ(p.SegmentWireBits(), 8 * 8058.0);
    EXPECT_DOUBLE_EQ(Params(100).SegmentWireBits(), 8 * 158.0);
}

TEST(CostModel, OneLinkIsBitsOverRatePlusLatency)
{
    const double d = 0.0123;
    NetworkGraph g = Graph({"A", "B"}, {}, {{"A", "B", d}});
    const double m = 5e7;
    CostModel cm(g, NetworkCapabilities{}, Params(m, 0.25));
    RoundCost rc = cm.Round(CostModel::NodeCliques{{0, 1}});
    // The two directions are separate resources: each stream has the whole rate.
    EXPECT_NEAR(rc.commS, WireBits(m, 8000) / kRate + d, 1e-12);
    EXPECT_NEAR(rc.roundS, 0.25 + WireBits(m, 8000) / kRate + d, 1e-12);
    ASSERT_EQ(rc.cliqueCommS.size(), 1u);
    EXPECT_DOUBLE_EQ(rc.cliqueCommS[0], rc.commS);
}

TEST(CostModel, StoreAndForwardOnEveryHopAfterTheFirst)
{
    const double d1 = 0.001;
    const double d2 = 0.002;
    const double d3 = 0.004;
    NetworkGraph g =
        Graph({"A", "B"}, {"X", "Y"}, {{"A", "X", d1}, {"X", "Y", d2}, {"Y", "B", d3}});
    const double m = 1e7;
    CostModel cm(g, NetworkCapabilities{}, Params(m));
    auto flows = cm.SimulateFlows({{0, 1}});
    ASSERT_EQ(flows.size(), 2u);
    double seg = 8 * 8058.0;
    for (const auto& f : flows)
    {
        EXPECT_NEAR(f.lastBitS, WireBits(m, 8000) / kRate, 1e-12);
        EXPECT_NEAR(f.tailS, d1 + d2 + d3 + 2 * seg / kRate, 1e-12);
        EXPECT_NEAR(f.finishS, f.lastBitS + f.tailS, 1e-15);
        EXPECT_NEAR(f.initialRateBps, kRate, 1);
    }
}

TEST(CostModel, TwoCliquesSharingALinkHalveTheirRates)
{
    NetworkGraph g = Dumbbell();
    const double m = 2e7;
    CostModel cm(g, NetworkCapabilities{}, Params(m));
    double tail = 0.012 + 2 * 8 * 8058.0 / kRate;
    double alone = cm.Round(CostModel::NodeCliques{{0, 1}}).commS;
    EXPECT_NEAR(alone, WireBits(m, 8000) / kRate + tail, 1e-12);
    RoundCost both = cm.Round(CostModel::NodeCliques{{0, 1}, {2, 3}});
    ASSERT_EQ(both.cliqueCommS.size(), 2u);
    for (double t : both.cliqueCommS)
    {
        EXPECT_NEAR(t - tail, 2 * (alone - tail), 1e-9);
    }
    for (const auto& f : cm.SimulateFlows({{0, 1}, {2, 3}}))
    {
        EXPECT_NEAR(f.initialRateBps, kRate / 2, 1);
    }
    // A lower bound never exceeds the simulated time.
    EXPECT_LE(cm.CommLowerBound({{0, 1}, {2, 3}}), both.commS + 1e-12);
    EXPECT_LE(cm.CommLowerBound({{0, 1}}), alone + 1e-12);
}

TEST(CostModel, MulticastIsCheaperThanUnicastOnASharedLink)
{
    // A and C behind X, B and D behind Y: unicast carries 4 models over X->Y (A->B, A->D,
    // C->B, C->D), multicast 2 (A's and C's trees). Every island still receives 3 models over
    // its access link in both modes.
    NetworkGraph g = Dumbbell();
    CostParameters p = Params(1e8);
    CostModel uni(g, NetworkCapabilities::ForPattern(ExchangePattern::ALL_TO_ALL), p);
    CostModel multi(g, NetworkCapabilities::ForPattern(ExchangePattern::MULTICAST), p);
    double tu = uni.Round(CostModel::NodeCliques{{0, 1, 2, 3}}).commS;
    double tm = multi.Round(CostModel::NodeCliques{{0, 1, 2, 3}}).commS;
    double bits = WireBits(1e8, 8000);
    EXPECT_LT(tm, tu);
    EXPECT_GE(tu, 4 * bits / kRate);
    EXPECT_GE(tm, 3 * bits / kRate);
    EXPECT_LT(tm, 3 * bits / kRate + 0.02);
}

TEST(CostModel, AggregationIsTwoLatenciesPlusOneModel)
{
    const double d = 0.02;
    NetworkGraph g = Graph({"A", "B", "C"}, {"X"}, {{"A", "X", d}, {"B", "X", d}, {"C", "X", d}});
    NetworkCapabilities caps = NetworkCapabilities::ForPattern(ExchangePattern::AGGREGATION);
    caps.aggregationSlots = 1u << 20; // window larger than the model: no cap
    const double m = 1e8;
    CostModel cm(g, caps, Params(m));
    double seg = 8 * 8058.0;
    double t = cm.Round(CostModel::NodeCliques{{0, 1, 2}}).commS;
    EXPECT_NEAR(t, WireBits(m, 8000) / kRate + 2 * d + caps.fpgaLatencyS + seg / kRate, 1e-12);
    // Unicast would send every model twice over each access link.
    CostModel uni(g, NetworkCapabilities{}, Params(m));
    EXPECT_GT(uni.Round(CostModel::NodeCliques{{0, 1, 2}}).commS, 1.9 * WireBits(m, 8000) / kRate);

    // A small slot pool caps the rate: slots x slotBytes per round trip (the tail).
    caps.aggregationSlots = 64;
    CostModel capped(g, caps, Params(m));
    auto flows = capped.SimulateFlows({{0, 1, 2}});
    ASSERT_EQ(flows.size(), 1u);
    double cap = 64.0 * caps.slotBytes / 8000 * seg / flows[0].tailS;
    EXPECT_NEAR(flows[0].initialRateBps, cap, 1e-6 * cap);
    EXPECT_NEAR(flows[0].lastBitS, WireBits(m, 8000) / cap, 1e-9);
}

TEST(CostModel, OverlapHidesCommunicationBehindCompute)
{
    NetworkGraph g = Graph({"A", "B"}, {}, {{"A", "B", 0.01}});
    CostParameters p = Params(1e7, 0.5);
    p.localSteps = 2;
    CostModel serial(g, NetworkCapabilities{}, p);
    p.overlap = true;
    CostModel overlapped(g, NetworkCapabilities{}, p);
    double comm = WireBits(1e7, 8000) / kRate + 0.01;
    RoundCost rs = serial.Round(CostModel::NodeCliques{{0, 1}});
    RoundCost ro = overlapped.Round(CostModel::NodeCliques{{0, 1}});
    EXPECT_NEAR(rs.roundS, 1.0 + comm, 1e-12);
    EXPECT_NEAR(ro.roundS, 1.0, 1e-12); // comm < compute: hidden
    auto run = overlapped.Run(Schedule("s", {ScheduleRound{{{"A", "B"}}}}), 3);
    ASSERT_EQ(run.size(), 3u);
    EXPECT_NEAR(overlapped.RunEndS(run), 1.0 + 2 * 1.0 + comm, 1e-12);
    auto serialRun = serial.Run(Schedule("s", {ScheduleRound{{{"A", "B"}}}}), 3);
    EXPECT_NEAR(serial.RunEndS(serialRun), 3 * (1.0 + comm), 1e-12);
}

TEST(CostModel, ScheduleRunsOnTheNineCityGraph)
{
    NetworkGraph g = NetworkGraph::FromTopology(TopologyReader::ReadFile(
        std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology"));
    CostModel cm(g, NetworkCapabilities{}, Params(1e8, 0.1));
    Schedule s = Schedule::Load(
        std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/schedules/3x3-rotating.json", {});
    auto run = cm.Run(s, 5);
    ASSERT_EQ(run.size(), 5u);
    for (std::size_t r = 0; r < run.size(); ++r)
    {
        EXPECT_EQ(run[r].cliqueCommS.size(), 3u);
        EXPECT_DOUBLE_EQ(run[r].roundS, run[r % 2].roundS);
        EXPECT_GT(run[r].commS, WireBits(1e8, 8000) / 10e9);
        // Each clique alone is no slower than the clique in company, and the round waits for
        // its slowest clique.
        for (std::size_t c = 0; c < 3; ++c)
        {
            const auto& clique = s.RoundAt(r).cliques[c];
            RoundCost alone = cm.Round(ScheduleRound{{clique}});
            EXPECT_LE(alone.commS, run[r].cliqueCommS[c] * (1 + 1e-9));
            EXPECT_LE(run[r].cliqueCommS[c], run[r].commS);
        }
    }
    auto times = cm.PeriodRoundTimes(s);
    ASSERT_EQ(times.size(), 2u);
    EXPECT_DOUBLE_EQ(times[1], run[1].roundS);
    EXPECT_GT(cm.CachedComponents(), 0u);
}

TEST(CostModel, BadInputIsRejected)
{
    NetworkGraph g = Graph({"A", "B"}, {}, {{"A", "B", 0.01}});
    CostParameters p = Params(0);
    EXPECT_THROW(CostModel(g, NetworkCapabilities{}, p), std::invalid_argument);
    p = Params(1e6);
    p.segmentPayloadBytes = 0;
    EXPECT_THROW(CostModel(g, NetworkCapabilities{}, p), std::invalid_argument);
    p = Params(1e6, -1);
    EXPECT_THROW(CostModel(g, NetworkCapabilities{}, p), std::invalid_argument);
    p = Params(1e6);
    p.localSteps = 0;
    EXPECT_THROW(CostModel(g, NetworkCapabilities{}, p), std::invalid_argument);
    CostModel cm(g, NetworkCapabilities{}, Params(1e6));
    EXPECT_THROW(cm.Round(ScheduleRound{{{"A", "ZZZ"}}}), std::runtime_error);
    // A down link leaves no route.
    NetworkGraph down = g;
    down.SetEdgeUp(0, false);
    CostModel broken(down, NetworkCapabilities{}, Params(1e6));
    EXPECT_THROW(broken.Round(CostModel::NodeCliques{{0, 1}}), std::runtime_error);
}
