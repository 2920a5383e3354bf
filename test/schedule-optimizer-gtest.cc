/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: ScheduleOptimizer -- the heuristic against the exhaustive optimum, determinism,
// baselines never beating the result, bad input.

#include "ns3/baseline-schedules.h"
#include "ns3/input-error.h"
#include "ns3/schedule-optimizer.h"
#include "ns3/synthetic-topology.h"
#include "ns3/topology-reader.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;

namespace
{

NetworkGraph
NineCity(double rate)
{
    NetworkGraphOptions o;
    o.privateRateBps = rate;
    o.metroRateBps = rate;
    o.exchangeRateBps = rate;
    return NetworkGraph::FromTopology(
        TopologyReader::ReadFile(std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology"),
        o);
}

CostParameters
Params(double modelBytes, double computeS)
{
    CostParameters p;
    p.modelBytes = modelBytes;
    p.computeTimeS = computeS;
    return p;
}

/// "Within 1%": the same kind of rate, and seconds (exact) or rate (otherwise) within 1%.
void
ExpectWithinOnePercent(const OptimizerResult& heuristic, const OptimizerResult& exhaustive,
                       const std::string& what)
{
    const ConsensusScore& h = heuristic.score;
    const ConsensusScore& e = exhaustive.score;
    // Nothing beats the exhaustive optimum of its period (beyond rounding).
    if (std::isinf(h.rate) && std::isinf(e.rate))
    {
        EXPECT_GE(h.secondsToTarget, e.secondsToTarget * (1 - 1e-9)) << what;
    }
    else
    {
        EXPECT_LE(h.rate, e.rate * (1 + 1e-9)) << what;
    }
    if (std::isinf(e.rate))
    {
        EXPECT_TRUE(std::isinf(h.rate)) << what;
        EXPECT_LE(h.secondsToTarget, 1.01 * e.secondsToTarget) << what;
    }
    else
    {
        EXPECT_GE(h.rate, 0.99 * e.rate) << what;
    }
}

} // namespace

TEST(ScheduleOptimizer, BellNumbers)
{
    EXPECT_EQ(ScheduleOptimizer::BellNumber(0), 1u);
    EXPECT_EQ(ScheduleOptimizer::BellNumber(5), 52u);
    EXPECT_EQ(ScheduleOptimizer::BellNumber(6), 203u);
    EXPECT_EQ(ScheduleOptimizer::BellNumber(9), 21147u);
    EXPECT_EQ(ScheduleOptimizer::BellNumber(200), UINT64_MAX);
}

TEST(ScheduleOptimizer, ExhaustiveEnumeratesEveryPartition)
{
    NetworkGraph g = NineCity(10e9);
    CostModel cm(g, NetworkCapabilities{}, Params(1e8, 0));
    ScheduleOptimizer opt(cm, {"AMS", "FRA", "LON", "NYC", "LAX"});
    OptimizerResult r = opt.Exhaustive(1);
    EXPECT_EQ(r.evaluated, 52u);
    EXPECT_EQ(r.method, "exhaustive");
    // With one round per period only the all-island clique ever averages.
    ASSERT_EQ(r.schedule.Period(), 1u);
    ASSERT_EQ(r.schedule.Rounds()[0].cliques.size(), 1u);
    EXPECT_EQ(r.schedule.Rounds()[0].cliques[0].size(), 5u);
    EXPECT_TRUE(r.score.exact);
    // Its score is that of the same schedule evaluated on its own.
    OptimizerResult same = opt.Evaluate(BaselineSchedules::AllReduce(opt.Islands()));
    EXPECT_DOUBLE_EQ(same.score.secondsToTarget, r.score.secondsToTarget);
    EXPECT_DOUBLE_EQ(same.roundTimes[0], cm.Round(r.schedule.Rounds()[0]).roundS);
}

TEST(ScheduleOptimizer, HeuristicIsWithinOnePercentOfTheExhaustiveOptimum)
{
    struct Case
    {
        std::vector<std::string> islands;
        ExchangePattern mode;
        double rate;
        double modelBytes;
        double computeS;
    };
    const std::vector<Case> cases{
        {{"AMS", "FRA", "LON", "NYC", "LAX"}, ExchangePattern::ALL_TO_ALL, 10e9, 1e9, 0},
        {{"AMS", "FRA", "NYC", "SEO", "TYO", "SIN"}, ExchangePattern::ALL_TO_ALL, 10e9, 1e8, 0.05},
        {{"AMS", "BAR", "LON", "NYC", "LAX", "TYO"}, ExchangePattern::MULTICAST, 100e9, 1e9, 0},
        {{"FRA", "LON", "NYC", "LAX", "SIN"}, ExchangePattern::AGGREGATION, 10e9, 1e9, 0.01},
    };
    for (const Case& c : cases)
    {
        NetworkGraph g = NineCity(c.rate);
        CostModel cm(g, NetworkCapabilities::ForPattern(c.mode), Params(c.modelBytes, c.computeS));
        for (std::size_t period : {1u, 2u})
        {
            OptimizerOptions o;
            o.seed = 3;
            o.iterations = 1500;
            ScheduleOptimizer exhaustive(cm, c.islands, o);
            ScheduleOptimizer heuristic(cm, c.islands, o);
            OptimizerResult e = exhaustive.Exhaustive(period);
            OptimizerResult h = heuristic.Heuristic(period);
            std::string what = PatternName(c.mode) +
                               " n=" + std::to_string(c.islands.size()) + " period " +
                               std::to_string(period) + ": heuristic " + h.schedule.Describe() +
                               " vs exhaustive " + e.schedule.Describe();
            EXPECT_EQ(h.method, "heuristic");
            EXPECT_EQ(h.schedule.Period(), period);
            ExpectWithinOnePercent(h, e, what);
        }
    }
}

TEST(ScheduleOptimizer, DeterministicForASeedAndNeverWorseThanABaseline)
{
    Topology t = SyntheticTopology::Generate({12, 5});
    NetworkGraph g = NetworkGraph::FromTopology(t);
    CostModel cm(g, NetworkCapabilities::ForPattern(ExchangePattern::MULTICAST), Params(2e8, 0.02));
    OptimizerOptions o;
    o.maxPeriod = 2;
    o.iterations = 500;
    uint64_t reports = 0;
    o.progress = [&reports](const OptimizerProgress& p) {
        EXPECT_LE(p.done, p.total);
        ++reports;
    };
    ScheduleOptimizer a(cm, t.CityCodes(), o);
    ScheduleOptimizer b(cm, t.CityCodes(), o);
    OptimizerResult ra = a.Optimize();
    OptimizerResult rb = b.Optimize();
    EXPECT_GT(reports, 0u);
    EXPECT_EQ(ra.schedule.ToJson(), rb.schedule.ToJson());
    EXPECT_EQ(ra.score.secondsToTarget, rb.score.secondsToTarget);
    ra.schedule.Validate(t.CityCodes());
    for (const Schedule& s : BaselineSchedules::All(t.CityCodes(), "CAA", 3))
    {
        if (s.Period() > o.maxPeriod)
        {
            continue;
        }
        OptimizerResult base = a.Evaluate(s);
        EXPECT_FALSE(
            ConsensusMetric::Better(base.score, s.Period(), ra.score, ra.schedule.Period()))
            << s.GetName();
    }
    // The reported score is what evaluating the returned schedule gives.
    OptimizerResult again = a.Evaluate(ra.schedule);
    EXPECT_DOUBLE_EQ(again.score.secondsToTarget, ra.score.secondsToTarget);
}

TEST(ScheduleOptimizer, BadInputIsRejected)
{
    NetworkGraph g = NineCity(10e9);
    CostModel cm(g, NetworkCapabilities{}, Params(1e8, 0));
    EXPECT_THROW(ScheduleOptimizer(cm, {}), std::invalid_argument);
    EXPECT_THROW(ScheduleOptimizer(cm, {"AMS", "AMS"}), std::invalid_argument);
    EXPECT_THROW(ScheduleOptimizer(cm, {"AMS", "XYZ"}), InputError);
    OptimizerOptions o;
    o.maxPeriod = 0;
    EXPECT_THROW(ScheduleOptimizer(cm, {"AMS", "FRA"}, o), std::invalid_argument);
    ScheduleOptimizer opt(cm, g.IslandCities());
    EXPECT_THROW(opt.Exhaustive(3), std::invalid_argument); // 21147^3 schedules
    EXPECT_THROW(opt.Heuristic(0), std::invalid_argument);
    EXPECT_THROW(opt.Evaluate(Schedule("s", {ScheduleRound{{{"AMS", "ZZZ"}}}})), InputError);
}
