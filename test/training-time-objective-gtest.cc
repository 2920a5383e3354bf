/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: TrainingTimeObjective -- steady-state disagreement computed by hand on tiny
// schedules (all-in-one, DiLoCo-h, 3x3 rotating, a lone pair), +inf for islands that never
// (all) communicate, the ScheduleObjective contract (score non-decreasing in round times,
// PeriodBound below every connected period's score, limited Mixing consistent), the exact
// search against brute force with this objective, and bad input.

#include "ns3/baseline-schedules.h"
#include "ns3/schedule-optimizer.h"
#include "ns3/topology-reader.h"
#include "ns3/training-time-objective.h"

#include "partitions-gtest-util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <random>

using namespace ns3;

namespace
{

const double kInf = std::numeric_limits<double>::infinity();

IndexRound
AllInOne(uint32_t n)
{
    IndexRound r(1);
    for (uint32_t i = 0; i < n; ++i)
    {
        r[0].push_back(i);
    }
    return r;
}

} // namespace

TEST(TrainingTimeObjective, AllInOneEveryRoundHasNoDisagreement)
{
    TrainingTimeObjective o(9, 2.0);
    EXPECT_NEAR(o.Disagreement({AllInOne(9)}), 0, 1e-12);
    MixingSummary m = o.Mixing({AllInOne(9), AllInOne(9)}, {}, kInf);
    ASSERT_TRUE(m.reaches);
    // Mean round time x (1 + 0).
    EXPECT_NEAR(o.Score(m, {3.0, 5.0}), 4.0, 1e-12);
}

TEST(TrainingTimeObjective, DilocoMatchesTheHandComputation)
{
    // h-1 rounds without communication, then all-in-one: after the j-th silent round every
    // island is j injections from the mean, trace(S)/n = j (n-1)/n, 0 after the average;
    // D = (n-1)(h-1) / (2n).
    for (uint32_t n : {2u, 5u, 9u})
    {
        for (uint32_t h : {2u, 3u, 6u})
        {
            std::vector<IndexRound> rounds(h - 1, IndexRound{});
            rounds.push_back(AllInOne(n));
            TrainingTimeObjective o(n, 0.5, 7.0);
            double d = (n - 1.0) * (h - 1.0) / (2.0 * n);
            EXPECT_NEAR(o.Disagreement(rounds), d, 1e-9) << n << " " << h;
            // The all-in-one round agrees exactly: D_best = 0, m plays no part.
            EXPECT_NEAR(o.Steady(rounds).best, 0, 1e-12);
            MixingSummary m = o.Mixing(rounds, {}, kInf);
            std::vector<double> times(h, 1.0);
            times.back() = 1.0 + h; // mean round time 2
            EXPECT_NEAR(o.Score(m, times), 2.0 * (1 + 0.5 * d), 1e-9);
        }
    }
}

TEST(TrainingTimeObjective, RotatingThreeByThreeMatchesTheHandComputation)
{
    // W2 W1 = 11^T/n, so the steady state after each round is W_r - J: trace = rank - 1 = 2
    // (three cliques), D = 2/9.
    IndexRound a{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}};
    IndexRound b{{0, 3, 6}, {1, 4, 7}, {2, 5, 8}};
    TrainingTimeObjective o(9, 1.0, 3.0);
    EXPECT_NEAR(o.Disagreement({a, b}), 2.0 / 9, 1e-9);
    EXPECT_NEAR(o.Steady({a, b}).best, 2.0 / 9, 1e-9);
    // Score: mean round time 2 x (1 + 1 x 2/9 + 3 x 2/9) = 2 x 17/9.
    MixingSummary m = o.Mixing({a, b}, {}, kInf);
    EXPECT_NEAR(o.Score(m, {1.0, 3.0}), 34.0 / 9, 1e-9);
    // Repeating the period changes nothing.
    EXPECT_NEAR(o.Disagreement({a, b, a, b}), 2.0 / 9, 1e-9);
}

TEST(TrainingTimeObjective, ThreeIslandGossipMatchesTheHandComputation)
{
    // Period {0,1} | {1,2} on three islands: the doubling solve against a long direct
    // iteration of S <- B (S + I - J) B^T (no Lyapunov solve).
    IndexRound a{{0, 1}, {2}};
    IndexRound b{{0}, {1, 2}};
    TrainingTimeObjective o(3);
    ConsensusMetric metric(3);
    Eigen::MatrixXd j = Eigen::MatrixXd::Constant(3, 3, 1.0 / 3);
    Eigen::MatrixXd p = Eigen::MatrixXd::Identity(3, 3) - j;
    Eigen::MatrixXd s = Eigen::MatrixXd::Zero(3, 3);
    double sum = 0;
    double best = kInf;
    const int periods = 400;
    for (int k = 0; k < periods; ++k)
    {
        for (const auto* r : {&a, &b})
        {
            Eigen::MatrixXd w = metric.MixingMatrix(*r) - j;
            s = w * (s + p) * w.transpose();
            if (k == periods - 1)
            {
                sum += s.trace() / 3;
                best = std::min(best, s.trace() / 3);
            }
        }
    }
    EXPECT_NEAR(o.Disagreement({a, b}), sum / 2, 1e-9);
    EXPECT_NEAR(o.Steady({a, b}).best, best, 1e-9);
    EXPECT_GT(o.Disagreement({a, b}), 0.1);
}

TEST(TrainingTimeObjective, IslandsThatNeverAllCommunicateNeverReachTheGoal)
{
    TrainingTimeObjective o(4);
    // Nobody talks.
    EXPECT_EQ(o.Disagreement({IndexRound{}}), kInf);
    // Two fixed pairs: the pairs never agree with each other.
    IndexRound pairs{{0, 1}, {2, 3}};
    MixingSummary m = o.Mixing({pairs, pairs}, {}, kInf);
    EXPECT_FALSE(m.reaches);
    EXPECT_EQ(o.Score(m, {1.0, 1.0}), kInf);
    // Rotating the pairs connects everybody.
    IndexRound other{{0, 2}, {1, 3}};
    EXPECT_TRUE(std::isfinite(o.Disagreement({pairs, other})));
}

TEST(TrainingTimeObjective, ContractHoldsOnRandomSchedules)
{
    const uint32_t n = 5;
    std::vector<IndexRound> parts = testutil::AllPartitions(n);
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<std::size_t> pick(0, parts.size() - 1);
    std::uniform_real_distribution<double> time(0.1, 5.0);
    TrainingTimeObjective o(n, 3.0);
    int connected = 0;
    for (int trial = 0; trial < 300; ++trial)
    {
        std::size_t p = 1 + trial % 3;
        std::vector<IndexRound> rounds;
        std::vector<double> times;
        for (std::size_t r = 0; r < p; ++r)
        {
            rounds.push_back(parts[pick(rng)]);
            times.push_back(time(rng));
        }
        MixingSummary m = o.Mixing(rounds, {}, kInf);
        double score = o.Score(m, times);
        if (!m.reaches)
        {
            EXPECT_EQ(score, kInf);
            continue;
        }
        ++connected;
        double sum = 0;
        for (double t : times)
        {
            sum += t;
        }
        // PeriodBound is below the score, whatever the flood rounds.
        for (std::size_t flood = 1; flood <= 4; ++flood)
        {
            EXPECT_LE(o.PeriodBound(p, sum, flood), score * (1 + 1e-12));
        }
        // Non-decreasing in every round time.
        for (std::size_t r = 0; r < p; ++r)
        {
            std::vector<double> longer = times;
            longer[r] *= 1.5;
            EXPECT_GE(o.Score(m, longer), score);
        }
        // Mixing with a limit: limited exactly when the score with these times reaches it.
        MixingSummary below = o.Mixing(rounds, times, score * 1.01);
        EXPECT_FALSE(below.limited);
        EXPECT_NEAR(o.Score(below, times), score, 1e-12 * score);
        MixingSummary above = o.Mixing(rounds, times, score * 0.99);
        EXPECT_TRUE(above.limited);
        EXPECT_EQ(o.Score(above, times), kInf);
    }
    EXPECT_GT(connected, 50);
}

TEST(TrainingTimeObjective, ExactSearchFindsTheBruteForceOptimum)
{
    NetworkGraphOptions go;
    go.privateRateBps = 10e9;
    NetworkGraph g = NetworkGraph::FromTopology(
        TopologyReader::ReadFile(std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology"),
        go);
    CostParameters params;
    params.modelBytes = 1e9;
    params.computeTimeS = 0.05;
    params.localSteps = 20;
    const std::vector<std::string> islands{"AMS", "FRA", "LON", "NYC", "SEO"};
    std::vector<uint32_t> nodes;
    for (const auto& c : islands)
    {
        nodes.push_back(g.IslandNode(c));
    }
    for (const std::string caps : {"unicast", "unicast,multicast,aggregation"})
    {
        NetworkCapabilities nc;
        nc.SetSwitches(caps);
        CostModel cm(g, nc, params);
        auto objective = std::make_shared<TrainingTimeObjective>(islands.size(), 2.0);
        OptimizerOptions options;
        options.objective = objective;
        ScheduleOptimizer opt(cm, islands, options);
        OptimizerResult r = opt.Exact(2);
        // Brute force over every pair of partitions, same round costs, no pruning.
        std::vector<IndexRound> parts = testutil::AllPartitions(islands.size());
        std::vector<double> times;
        for (const auto& part : parts)
        {
            CostModel::NodeCliques cliques;
            for (const auto& c : part)
            {
                if (c.size() >= 2)
                {
                    std::vector<uint32_t> m;
                    for (uint32_t i : c)
                    {
                        m.push_back(nodes[i]);
                    }
                    cliques.push_back(m);
                }
            }
            times.push_back(cm.BestRound(cliques).roundS);
        }
        double best = kInf;
        for (std::size_t a = 0; a < parts.size(); ++a)
        {
            for (std::size_t b = 0; b < parts.size(); ++b)
            {
                MixingSummary m = objective->Mixing({parts[a], parts[b]}, {}, kInf);
                best = std::min(best, objective->Score(m, {times[a], times[b]}));
            }
        }
        ASSERT_TRUE(std::isfinite(best));
        EXPECT_NEAR(r.score, best, 1e-9 * best) << caps << " " << r.schedule.Describe();
        OptimizerResult again = opt.Evaluate(r.schedule);
        EXPECT_NEAR(again.score, r.score, 1e-12 * r.score);
    }
}

TEST(TrainingTimeObjective, BadInputIsRejected)
{
    EXPECT_THROW(TrainingTimeObjective(3, -1), std::invalid_argument);
    EXPECT_THROW(TrainingTimeObjective(3, kInf), std::invalid_argument);
    EXPECT_THROW(TrainingTimeObjective(3, std::nan("")), std::invalid_argument);
    EXPECT_THROW(TrainingTimeObjective(3, 1, -1), std::invalid_argument);
    EXPECT_THROW(TrainingTimeObjective(3, 1, kInf), std::invalid_argument);
    TrainingTimeObjective o(3);
    EXPECT_THROW(o.Disagreement({}), std::invalid_argument);
    EXPECT_THROW(o.Disagreement({IndexRound{{0, 3}}}), std::invalid_argument);
    EXPECT_THROW(o.Disagreement({IndexRound{{0, 1}, {1, 2}}}), std::invalid_argument);
}
