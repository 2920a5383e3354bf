/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: the classification proxy task (generation, label skew of the shards, iid
// held-out set, gradients through the task, configuration errors).

#include "training-gtest-util.h"

#include "ns3/classification-task.h"
#include "ns3/colocated-trainer.h"
#include "ns3/proxy-learner.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;
using namespace ns3::testutil;

namespace
{

std::shared_ptr<const ClassificationTask>
MakeClassification(const ProxyTaskConfig& c)
{
    return std::make_shared<const ClassificationTask>(c);
}

/// Mean over islands of sum_c (share of class c in the island's shard)^2.
double
MeanSquaredShare(const ClassificationTask& task)
{
    double total = 0;
    for (std::size_t k = 0; k < task.Islands(); ++k)
    {
        double rows = static_cast<double>(task.ShardRows(k));
        for (std::size_t n : task.ClassCounts(k))
        {
            total += (n / rows) * (n / rows);
        }
    }
    return total / static_cast<double>(task.Islands());
}

} // namespace

TEST(ClassificationTask, ShardsHaveTheConfiguredDirichletSkew)
{
    // 300 islands of 200 rows, 10 classes, fixed seed: the shards' mean squared class share is
    // (alpha + 1) / (10 alpha + 1) within sampling error (counts round shares to 1/200).
    for (double alpha : {0.05, 0.3, 1.0, 20.0})
    {
        ProxyTaskConfig c = SmallClassification(300, 200, alpha);
        c.classes = 10;
        c.hidden = {};
        c.heldOutSamples = 10;
        auto task = MakeClassification(c);
        double expected = LabelSkew::ExpectedSquaredShare(10, alpha);
        EXPECT_NEAR(MeanSquaredShare(*task), expected, 0.08 * expected + 0.005) << alpha;
        for (std::size_t k = 0; k < 300; ++k)
        {
            EXPECT_EQ(task->ShardRows(k), 200u);
            // The counts follow the island's shares.
            std::vector<std::size_t> counts = task->ClassCounts(k);
            for (std::size_t cls = 0; cls < 10; ++cls)
            {
                EXPECT_LE(
                    std::abs(static_cast<double>(counts[cls]) - 200 * task->ClassShares()(k, cls)),
                    1.0);
            }
        }
    }
}

TEST(ClassificationTask, HeldOutSetIsIidOverAllClasses)
{
    ProxyTaskConfig c = SmallClassification(4, 100, 0.01);
    c.heldOutSamples = 5000;
    auto task = MakeClassification(c);
    std::vector<double> freq(5, 0);
    for (int y : task->HeldOutLabels())
    {
        freq[y] += 1.0 / 5000;
    }
    for (double f : freq)
    {
        EXPECT_NEAR(f, 0.2, 0.025); // 4 standard errors
    }
    // ... whereas every shard is dominated by one class at alpha = 0.01.
    for (std::size_t k = 0; k < 4; ++k)
    {
        std::vector<std::size_t> counts = task->ClassCounts(k);
        EXPECT_GE(*std::max_element(counts.begin(), counts.end()), 90u);
        EXPECT_EQ(counts[k % 5], *std::max_element(counts.begin(), counts.end())); // rotated
    }
}

TEST(ClassificationTask, SameSeedSameTaskAndIdenticalData)
{
    ProxyTaskConfig c = SmallClassification(3, 50, 0.5);
    auto a = MakeClassification(c);
    auto b = MakeClassification(c);
    EXPECT_EQ(a->Features(1), b->Features(1));
    EXPECT_EQ(a->Labels(2), b->Labels(2));
    EXPECT_EQ(a->InitialParameters(), b->InitialParameters());
    EXPECT_EQ(a->Dimension(), (8u + 1) * 16 + (16u + 1) * 5);
    c.seed = 8;
    auto other = MakeClassification(c);
    EXPECT_NE(a->Features(1), other->Features(1));
    EXPECT_NE(a->InitialParameters(), other->InitialParameters());
    c.identicalData = true;
    auto same = MakeClassification(c);
    for (std::size_t k = 1; k < 3; ++k)
    {
        EXPECT_EQ(same->Features(k), same->Features(0));
        EXPECT_EQ(same->Labels(k), same->Labels(0));
    }
    EXPECT_THROW(same->Features(3), std::out_of_range);
}

TEST(ClassificationTask, RowsLieAroundTheirClassModes)
{
    // Every row is a mode centre of its class plus N(0, sigma^2 I): its squared distance to the
    // nearest centre of its class is at most about sigma^2 D.
    ProxyTaskConfig c = SmallClassification(2, 300, 1.0);
    c.modeNoise = 0.05;
    auto task = MakeClassification(c);
    const auto& x = task->Features(0);
    const auto& y = task->Labels(0);
    for (Eigen::Index r = 0; r < x.rows(); ++r)
    {
        double best = INFINITY;
        for (std::size_t m = 0; m < c.modesPerClass; ++m)
        {
            auto centre =
                task->Centres().row(static_cast<Eigen::Index>(y[r] * c.modesPerClass + m));
            best = std::min(best, (x.row(r) - centre).norm());
        }
        EXPECT_LT(best, 0.05 * std::sqrt(8.0) * 2.5);
    }
}

TEST(ClassificationTask, TaskGradientsMatchFiniteDifferences)
{
    auto task = MakeClassification(SmallClassification(2, 30, 0.5, 6));
    Eigen::VectorXd w =
        task->InitialParameters() + Eigen::VectorXd::Constant(task->Dimension(), 0.01);
    Eigen::VectorXd g;
    std::vector<std::size_t> rows{3, 17, 5, 29};
    task->BatchGradient(1, w, rows, g);
    const double h = 1e-6;
    for (Eigen::Index j = 0; j < w.size(); ++j)
    {
        Eigen::VectorXd a = w;
        Eigen::VectorXd b = w;
        a[j] += h;
        b[j] -= h;
        Eigen::VectorXd unused;
        double numeric =
            (task->BatchGradient(1, a, rows, unused) - task->BatchGradient(1, b, rows, unused)) /
            (2 * h);
        EXPECT_NEAR(g[j], numeric, 1e-6 + 1e-5 * std::abs(numeric)) << j;
    }
    Eigen::VectorXd full;
    EXPECT_DOUBLE_EQ(task->ShardGradient(0, w, full), task->ShardLoss(0, w));
    EXPECT_THROW(task->BatchGradient(0, w, {30}, g), std::out_of_range);
    ExpectInvalid([&]() { task->BatchGradient(0, w, {}, g); }, "empty minibatch");
}

TEST(ClassificationTask, AnIslandsOwnShardDoesNotGeneralise)
{
    // Trained alone on a shard of (mostly) one class, an island fits its shard but classifies
    // the iid held-out set little better than the share of its class; colocated training on
    // all shards does much better.
    ProxyTaskConfig c = SmallClassification(5, 200, 0.01);
    auto task = MakeClassification(c);
    LocalOptimizerConfig sgd = Inner(0.05, 16);
    sgd.momentum = 0.9;
    ProxyLearner alone(task, 2, sgd);
    alone.LocalSteps(0, 300);
    Evaluation own = task->ShardEvaluation(2, alone.Vector());
    EXPECT_GT(own.accuracy, 0.95);
    EXPECT_LT(alone.HeldOut().accuracy, 0.35);
    ColocatedTrainer colocated(task, sgd, 1.0);
    colocated.Steps(300);
    EXPECT_GT(colocated.HeldOut().accuracy, 0.75);
}

TEST(ClassificationTask, BadConfigurationsThrowNamingTheField)
{
    auto with = [](const std::function<void(ProxyTaskConfig&)>& change) {
        ProxyTaskConfig c = SmallClassification();
        change(c);
        return [c]() { ProxyTask::Create(c); };
    };
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.latent = 9; }), "latent (9) must not exceed");
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.classes = 1; }), "classes");
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.alpha = 0; }), "alpha");
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.alpha = NAN; }), "alpha");
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.modeNoise = 0; }), "modeNoise");
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.modesPerClass = 0; }), "modesPerClass");
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.hidden = {8, 0}; }), "hidden[1]");
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.inputs = 0; }), "inputs");
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.samplesPerIsland = 0; }), "samplesPerIsland");
    ExpectInvalid([]() { ProxyTaskConfig::ParseHidden("64,x"); }, "'x'");
    ExpectInvalid([]() { ProxyTaskConfig::ParseHidden("64,,3"); }, "''");
    ExpectInvalid([]() { ProxyTaskConfig::ParseHidden("64,"); }, "comma");
    ExpectInvalid([]() { ProxyTaskConfig::ParseHidden("-4"); }, "'-4'");
    ExpectInvalid([]() { ProxyTaskConfig::ParseHidden("0"); }, "'0'");
    EXPECT_EQ(ProxyTaskConfig::ParseHidden("128,64"), (std::vector<std::size_t>{128, 64}));
    EXPECT_TRUE(ProxyTaskConfig::ParseHidden("none").empty());
    EXPECT_EQ(ProxyTaskConfig::HiddenText({128, 64}), "128,64");
    ExpectInvalid([]() { ProxyTaskConfig::ParseKind("regression"); }, "regression");
    EXPECT_EQ(ProxyTaskConfig::ParseKind("classification"), ProxyTaskKind::CLASSIFICATION);
    ProxyTaskConfig linear = SmallTask();
    ExpectInvalid([&]() { ClassificationTask t(linear); }, "of kind least-squares");
    ExpectInvalid([]() { LinearTask t(SmallClassification()); }, "ClassificationTask");
}
