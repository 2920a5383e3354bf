/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: consensus distance, global loss, time to target and the gap ratio.

#include "training-gtest-util.h"

#include "ns3/proxy-learner.h"
#include "ns3/training-metrics.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;
using namespace ns3::testutil;

TEST(TrainingMetrics, MeanAndConsensusDistance)
{
    Eigen::VectorXd a(2);
    Eigen::VectorXd b(2);
    Eigen::VectorXd c(2);
    a << 3, 4;
    b << -3, -4;
    c << 0, 0;
    EXPECT_LT(MaxDiff(TrainingMetrics::Mean({a, b}), Eigen::VectorXd::Zero(2)), 1e-15);
    EXPECT_DOUBLE_EQ(TrainingMetrics::ConsensusDistance({a, b}), 5);
    // Mean (0, 0): distances 5, 5, 0.
    EXPECT_DOUBLE_EQ(TrainingMetrics::ConsensusDistance({a, b, c}), 10.0 / 3);
    EXPECT_DOUBLE_EQ(TrainingMetrics::ConsensusDistance({a, a}), 0);
    ExpectInvalid([]() { TrainingMetrics::Mean({}); }, "no parameter vectors");
    ExpectInvalid([&]() { TrainingMetrics::Mean({a, Eigen::VectorXd::Zero(3)}); }, "differ");
}

TEST(TrainingMetrics, GlobalLossIsTheHeldOutLossOfTheMean)
{
    auto task = MakeLinear(SmallTask(2, 8, 20, 1.0));
    Eigen::VectorXd a = task->IslandModel(0);
    Eigen::VectorXd b = task->IslandModel(1);
    EXPECT_DOUBLE_EQ(TrainingMetrics::GlobalLoss(*task, {a, b}), task->HeldOutLoss((a + b) / 2));
    std::vector<double> each = TrainingMetrics::IslandGlobalLosses(*task, {a, b});
    ASSERT_EQ(each.size(), 2u);
    EXPECT_DOUBLE_EQ(each[1], task->HeldOutLoss(b));
}

TEST(TrainingMetrics, HeterogeneityIncreasesConsensusDistance)
{
    // Islands that train alone from the same start drift apart by sampling noise only when
    // the shards are iid, and towards their own optima (h v_k apart) when they are not.
    LocalOptimizerConfig sgd = Inner(0.05, 16);
    std::vector<double> distance;
    for (double h : {0.0, 1.0, 3.0})
    {
        auto task = MakeTask(SmallTask(4, 16, 200, h));
        auto learners = ProxyLearner::ForAllIslands(task, sgd);
        for (auto& l : learners)
        {
            l->LocalSteps(0, 100);
        }
        distance.push_back(TrainingMetrics::ConsensusDistance(TrainingMetrics::Vectors(learners)));
    }
    EXPECT_GT(distance[0], 0);
    EXPECT_GT(distance[1], 2 * distance[0]);
    EXPECT_GT(distance[2], 2 * distance[1]);
}

TEST(TrainingMetrics, TimeToTargetInterpolatesLinearly)
{
    LossCurve curve{{0, 10}, {1, 6}, {2, 2}, {3, 1}};
    EXPECT_DOUBLE_EQ(TrainingMetrics::TimeToTarget(curve, 4), 1.5);
    EXPECT_DOUBLE_EQ(TrainingMetrics::TimeToTarget(curve, 6), 1);
    EXPECT_DOUBLE_EQ(TrainingMetrics::TimeToTarget(curve, 12), 0);
    EXPECT_DOUBLE_EQ(TrainingMetrics::TimeToTarget(curve, 1.5), 2.5);
    EXPECT_TRUE(std::isinf(TrainingMetrics::TimeToTarget(curve, 0.5)));
    EXPECT_TRUE(std::isinf(TrainingMetrics::TimeToTarget({}, 0.5)));
    // Not monotone in loss: the first crossing counts.
    LossCurve bumpy{{0, 5}, {2, 3}, {4, 7}, {6, 1}};
    EXPECT_DOUBLE_EQ(TrainingMetrics::TimeToTarget(bumpy, 4), 1);
    // A NaN point never counts as reached; the next point that does is taken as it is.
    LossCurve nan{{0, 5}, {1, NAN}, {2, 1}};
    EXPECT_DOUBLE_EQ(TrainingMetrics::TimeToTarget(nan, 3), 2);
    ExpectInvalid([]() { TrainingMetrics::TimeToTarget({{1, 5}, {0, 1}}, 3); }, "non-decreasing");
}

TEST(TrainingMetrics, GapRatioComparesTimesToTarget)
{
    LossCurve colocated{{0, 10}, {1, 4}, {2, 1}};
    LossCurve slower{{0, 10}, {2, 4}, {4, 2}};
    EXPECT_DOUBLE_EQ(TrainingMetrics::GapRatio(slower, colocated, 4), 2);
    EXPECT_DOUBLE_EQ(TrainingMetrics::GapRatio(colocated, colocated, 2.5), 1);
    EXPECT_TRUE(std::isinf(TrainingMetrics::GapRatio(slower, colocated, 1.5)));
    EXPECT_TRUE(std::isnan(TrainingMetrics::GapRatio(slower, colocated, 0.5)));
    EXPECT_TRUE(std::isnan(TrainingMetrics::GapRatio(slower, colocated, 11)));
}

TEST(TrainingMetrics, TargetLossIsAFractionOfTheReferenceProgress)
{
    LossCurve colocated{{0, 10}, {1, 4}, {2, 2}};
    EXPECT_DOUBLE_EQ(TrainingMetrics::TargetLoss(colocated, 0.25), 4);
    EXPECT_DOUBLE_EQ(TrainingMetrics::TargetLoss(colocated, 0), 2);
    EXPECT_DOUBLE_EQ(
        TrainingMetrics::TimeToTarget(colocated, TrainingMetrics::TargetLoss(colocated, 0)), 2);
    ExpectInvalid([&]() { TrainingMetrics::TargetLoss(colocated, 1.5); }, "fraction");
    ExpectInvalid([]() { TrainingMetrics::TargetLoss({}, 0.5); }, "no reference curve");
}

TEST(TrainingMetrics, TimeToAccuracyAndTheHeldOutBestTarget)
{
    // An overfitting curve: accuracy peaks at 0.8 and falls back; the target is a fraction of
    // the best, and the first crossing counts.
    LossCurve curve{{0, 2.3, 0.1}, {1, 1.0, 0.6}, {2, 0.7, 0.8}, {3, 0.9, 0.7}, {4, 1.2, 0.65}};
    EXPECT_DOUBLE_EQ(TrainingMetrics::BestAccuracy(curve), 0.8);
    EXPECT_DOUBLE_EQ(TrainingMetrics::TargetAccuracy(curve, 0.9), 0.72);
    EXPECT_DOUBLE_EQ(TrainingMetrics::TimeToAccuracy(curve, 0.72), 1.6); // 0.6 -> 0.8 over [1, 2]
    EXPECT_DOUBLE_EQ(TrainingMetrics::TimeToAccuracy(curve, 0.05), 0);
    EXPECT_TRUE(std::isinf(TrainingMetrics::TimeToAccuracy(curve, 0.81)));
    LossCurve slower{{0, 2.3, 0.1}, {2, 1.0, 0.6}, {4, 0.7, 0.8}};
    EXPECT_DOUBLE_EQ(TrainingMetrics::AccuracyGapRatio(slower, curve, 0.72), 2);
    EXPECT_TRUE(std::isinf(TrainingMetrics::AccuracyGapRatio({{0, 1, 0.1}}, curve, 0.7)));
    EXPECT_TRUE(std::isnan(TrainingMetrics::AccuracyGapRatio(slower, curve, 0.85)));
    // NaN accuracy never counts (a regression task).
    LossCurve none{{0, 1}, {1, 0.5}};
    EXPECT_TRUE(std::isinf(TrainingMetrics::TimeToAccuracy(none, 0.1)));
    ExpectInvalid([&]() { TrainingMetrics::BestAccuracy(none); }, "no accuracy");
    ExpectInvalid([&]() { TrainingMetrics::TargetAccuracy(curve, 0); }, "fraction");
    ExpectInvalid([&]() { TrainingMetrics::TargetAccuracy(curve, 1.1); }, "fraction");
}

TEST(TrainingMetrics, ScoreOfIslandsAndOfTheAverageModel)
{
    std::vector<Evaluation> islands{{1.0, 0.9}, {2.0, 0.5}, {3.0, 0.7}};
    Evaluation average{0.5, 0.95};
    Evaluation mean = TrainingMetrics::Score(islands, average, TargetMetric::ISLAND_MEAN);
    EXPECT_DOUBLE_EQ(mean.loss, 2.0);
    EXPECT_DOUBLE_EQ(mean.accuracy, 0.7);
    Evaluation worst = TrainingMetrics::Score(islands, average, TargetMetric::ISLAND_MIN);
    EXPECT_DOUBLE_EQ(worst.loss, 3.0);
    EXPECT_DOUBLE_EQ(worst.accuracy, 0.5);
    Evaluation avg = TrainingMetrics::Score(islands, average, TargetMetric::AVERAGE_MODEL);
    EXPECT_DOUBLE_EQ(avg.accuracy, 0.95);
    ExpectInvalid([&]() { TrainingMetrics::Score({}, average, TargetMetric::ISLAND_MEAN); },
                  "no island");
    for (TargetMetric m :
         {TargetMetric::ISLAND_MEAN, TargetMetric::ISLAND_MIN, TargetMetric::AVERAGE_MODEL})
    {
        EXPECT_EQ(TrainingMetrics::ParseMetric(TrainingMetrics::MetricName(m)), m);
    }
    ExpectInvalid([]() { TrainingMetrics::ParseMetric("best"); }, "'best'");
    // On a real task: the average model and each island's own model.
    auto task = MakeTask(SmallClassification(3, 50, 0.1));
    Eigen::VectorXd a = task->InitialParameters();
    Eigen::VectorXd b = a + Eigen::VectorXd::Constant(a.size(), 0.1);
    Evaluation e = TrainingMetrics::AverageModel(*task, {a, b});
    EXPECT_DOUBLE_EQ(e.accuracy, task->HeldOut((a + b) / 2).accuracy);
    auto each = TrainingMetrics::IslandEvaluations(*task, {a, b});
    EXPECT_DOUBLE_EQ(each[1].loss, task->HeldOut(b).loss);
}
