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
