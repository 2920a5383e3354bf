/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: the fast path from round times to time to target (GapEvaluator): islands that
// never communicate miss the target that colocated training and synchronising schedules reach;
// the optimizer's schedules (training objective) reach it for every capability set; time to
// target scales with the round time; early stop; bad input.

#include "training-gtest-util.h"

#include "ns3/baseline-schedules.h"
#include "ns3/gap-evaluator.h"
#include "ns3/schedule-optimizer.h"
#include "ns3/topology-reader.h"
#include "ns3/training-time-objective.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;
using namespace ns3::testutil;

namespace
{

/// Six islands, 6 classes, strong label skew (alpha 0.1), 5 local steps of 0.1 s per round.
GapSetup
SmallSetup(TargetMetric metric = TargetMetric::ISLAND_MEAN)
{
    GapSetup s;
    s.task = SmallClassification(6, 300, 0.1, 32);
    s.task.classes = 6;
    s.inner = Inner(0.05, 16);
    s.inner.momentum = 0.9;
    s.localSteps = 5;
    s.computeTimeS = 0.1;
    s.targetFraction = 0.9;
    s.referenceHorizonS = 30;
    s.metric = metric;
    s.seed = 3;
    return s;
}

Schedule
NoCommunication(const std::vector<std::string>& cities)
{
    std::vector<Clique> alone;
    for (const auto& c : cities)
    {
        alone.push_back({c});
    }
    return Schedule("none", {ScheduleRound{alone, {}}});
}

} // namespace

TEST(GapEvaluator, NoCommunicationMissesTheTargetThatColocatedAndAllReduceReach)
{
    GapEvaluator evaluator(SmallSetup());
    auto cities = Cities(6);
    const double compute = 5 * 0.1;
    EXPECT_TRUE(std::isfinite(evaluator.ColocatedTimeToTarget()));
    EXPECT_NEAR(evaluator.TargetAccuracy(), 0.9 * evaluator.BestAccuracy(), 1e-15);
    EXPECT_GT(evaluator.BestAccuracy(), 0.7);
    // All-in-one every round, communication of 0.2 s per round: reaches the target, later.
    GapResult all = evaluator.Evaluate(BaselineSchedules::AllReduce(cities), cities,
                                       {compute + 0.2}, 60, SyncMode::EXACT, 16, false);
    EXPECT_TRUE(all.Reached());
    EXPECT_GT(all.gap, 1.0);
    // Never communicating: free rounds, twice the horizon, and still never.
    GapResult none = evaluator.Evaluate(NoCommunication(cities), cities, {compute}, 120,
                                        SyncMode::EXACT, 16, false);
    EXPECT_FALSE(none.Reached());
    EXPECT_TRUE(std::isinf(none.gap));
    EXPECT_LT(TrainingMetrics::BestAccuracy(none.curve), 0.7 * evaluator.TargetAccuracy());
    EXPECT_EQ(none.run.rounds.size(), 240u); // 120 s of 0.5 s rounds
    // A rotating schedule of pairs (islands mix through a ring of cliques) also gets there.
    Schedule pairs(
        "pairs",
        {ScheduleRound{{{cities[0], cities[1]}, {cities[2], cities[3]}, {cities[4], cities[5]}},
                       {}},
         ScheduleRound{{{cities[1], cities[2]}, {cities[3], cities[4]}, {cities[5], cities[0]}},
                       {}}});
    GapResult mixing = evaluator.Evaluate(pairs, cities, {compute + 0.1}, 120);
    EXPECT_TRUE(mixing.Reached());
}

TEST(GapEvaluator, TimeToTargetScalesWithTheRoundTime)
{
    // Same schedule, rounds twice as long: the same per-round training, so exactly twice the
    // time to target (the interpolation scales too).
    GapEvaluator evaluator(SmallSetup());
    auto cities = Cities(6);
    Schedule all = BaselineSchedules::AllReduce(cities);
    GapResult fast = evaluator.Evaluate(all, cities, {0.7}, 60);
    GapResult slow = evaluator.Evaluate(all, cities, {1.4}, 120);
    ASSERT_TRUE(fast.Reached());
    EXPECT_NEAR(slow.timeToTargetS, 2 * fast.timeToTargetS, 1e-9 * fast.timeToTargetS);
    EXPECT_NEAR(fast.gap, fast.timeToTargetS / evaluator.ColocatedTimeToTarget(), 1e-12);
    // Early stop: the run ends with the first round at the target.
    const auto& last = fast.run.rounds.back();
    EXPECT_GE(
        TrainingMetrics::Score(last.islands, last.average, TargetMetric::ISLAND_MEAN).accuracy,
        evaluator.TargetAccuracy());
    EXPECT_LE(fast.timeToTargetS, last.endS);
    EXPECT_GT(fast.timeToTargetS, last.endS - 0.7);
    // A period of two round times alternates them.
    GapResult alternating =
        evaluator.Evaluate(all, cities, {0.5, 1.5}, 4.0, SyncMode::EXACT, 16, false);
    ASSERT_EQ(alternating.run.rounds.size(), 4u);
    EXPECT_DOUBLE_EQ(alternating.run.rounds[1].endS, 2.0);
    EXPECT_DOUBLE_EQ(alternating.run.rounds[3].endS, 4.0);
}

TEST(GapEvaluator, FixedPointAggregationStaysWithinTheBound)
{
    GapEvaluator evaluator(SmallSetup());
    auto cities = Cities(6);
    GapResult agg = evaluator.Evaluate(BaselineSchedules::AllReduce(cities), cities, {0.7}, 10,
                                       SyncMode::FIXED_POINT, 16, false);
    const double bound = FixedPoint(16).QuantizationBound();
    EXPECT_EQ(agg.run.overflows, 0u);
    for (const auto& r : agg.run.rounds)
    {
        EXPECT_LE(r.maxAverageError, bound);
        EXPECT_GT(r.maxAverageError, 0.0);
    }
    GapResult exact = evaluator.Evaluate(BaselineSchedules::AllReduce(cities), cities, {0.7}, 10,
                                         SyncMode::EXACT, 16, false);
    // Quantisation barely changes the outcome.
    EXPECT_NEAR(agg.curve.back().accuracy, exact.curve.back().accuracy, 0.03);
}

TEST(GapEvaluator, BadInputThrows)
{
    GapSetup bad = SmallSetup();
    bad.targetFraction = 1.5;
    ExpectInvalid([&]() { GapEvaluator e(bad); }, "targetFraction");
    bad = SmallSetup();
    bad.localSteps = 0;
    ExpectInvalid([&]() { GapEvaluator e(bad); }, "localSteps");
    bad = SmallSetup();
    bad.computeTimeS = 0;
    ExpectInvalid([&]() { GapEvaluator e(bad); }, "computeTimeS");
    bad = SmallSetup();
    bad.referenceHorizonS = 0.01;
    ExpectInvalid([&]() { GapEvaluator e(bad); }, "referenceHorizonS");
    bad = SmallSetup();
    bad.task = SmallTask(6);
    ExpectInvalid([&]() { GapEvaluator e(bad); }, "no accuracy");
    GapSetup small = SmallSetup();
    small.referenceHorizonS = 1;
    GapEvaluator evaluator(small);
    auto cities = Cities(6);
    Schedule all = BaselineSchedules::AllReduce(cities);
    ExpectInvalid([&]() { evaluator.Evaluate(all, cities, {}, 10); }, "no round times");
    ExpectInvalid([&]() { evaluator.Evaluate(all, cities, {-1}, 10); }, "round time 0");
    ExpectInvalid([&]() { evaluator.Evaluate(all, cities, {0, 0}, 10); }, "every round time");
    ExpectInvalid([&]() { evaluator.Evaluate(all, cities, {1}, 0); }, "horizonS");
    ExpectInvalid([&]() { evaluator.Evaluate(all, Cities(5), {1}, 1); }, "5 island names");
}

TEST(GapEvaluator, OptimizedSchedulesReachTheTarget)
{
    // The optimizer's best schedule under the training objective, for every capability set,
    // on six nine-city islands (100 MB model at 10 Gbps; 0.5 s of compute per round), trained
    // with its own round times: it reaches the target that islands alone never reach.
    GapEvaluator evaluator(SmallSetup());
    const std::vector<std::string> cities{"AMS", "FRA", "LON", "NYC", "SEO", "TYO"};
    NetworkGraphOptions go;
    go.privateRateBps = 10e9;
    NetworkGraph graph = NetworkGraph::FromTopology(
        TopologyReader::ReadFile(std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology"),
        go);
    CostParameters params;
    params.modelBytes = 1e8;
    params.computeTimeS = 0.1;
    params.localSteps = 5;
    for (const std::string set : {"unicast", "unicast,multicast", "unicast,multicast,aggregation"})
    {
        NetworkCapabilities caps;
        caps.SetSwitches(set);
        CostModel cost(graph, caps, params);
        OptimizerOptions options;
        options.maxPeriod = 2;
        options.objective = std::make_shared<TrainingTimeObjective>(cities.size());
        OptimizerResult best = ScheduleOptimizer(cost, cities, options).Optimize();
        ASSERT_TRUE(std::isfinite(best.score)) << set;
        GapResult r = evaluator.Evaluate(best.schedule, cities, best.roundTimes, 120,
                                         caps.aggregation ? SyncMode::FIXED_POINT
                                                          : SyncMode::EXACT);
        EXPECT_TRUE(r.Reached()) << set << " " << best.schedule.Describe();
    }
}
