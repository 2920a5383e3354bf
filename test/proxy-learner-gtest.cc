/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: ProxyLearner local steps (SGD, AdamW), exact and summed synchronisation, the
// DiLoCo outer step, and argument checks.

#include "training-gtest-util.h"

#include "ns3/proxy-learner.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;
using namespace ns3::testutil;

namespace
{

std::vector<double>
ToStd(const Eigen::VectorXd& v)
{
    return std::vector<double>(v.data(), v.data() + v.size());
}

/// Three learners of one task that have each taken different local steps.
std::vector<std::shared_ptr<ProxyLearner>>
Diverged(const std::shared_ptr<const ProxyTask>& task, const OuterOptimizerConfig& outer)
{
    auto learners = ProxyLearner::ForAllIslands(task, Inner(0.05, 8), outer, 3);
    for (std::size_t i = 0; i < learners.size(); ++i)
    {
        learners[i]->LocalSteps(0, 5 + 3 * static_cast<uint32_t>(i));
    }
    return learners;
}

} // namespace

TEST(ProxyLearner, SgdDecreasesLocalAndHeldOutLoss)
{
    for (ProxyTaskKind loss : {ProxyTaskKind::LEAST_SQUARES, ProxyTaskKind::LOGISTIC})
    {
        ProxyTaskConfig c = SmallTask(2, 16, 200, 0.5, loss);
        c.signal = 3;
        auto task = MakeLinear(c);
        ProxyLearner l(task, 1, Inner(loss == ProxyTaskKind::LOGISTIC ? 0.2 : 0.05, 16));
        const double local0 = l.LocalLoss();
        const double global0 = l.GlobalLoss();
        double previous = local0;
        for (uint32_t r = 0; r < 10; ++r)
        {
            l.LocalSteps(r, 20);
            ASSERT_EQ(l.LocalHistory().size(), r + 1);
            EXPECT_EQ(l.LocalHistory().back().round, r);
            EXPECT_EQ(l.LocalHistory().back().steps, 20u);
            EXPECT_TRUE(std::isfinite(l.LocalHistory().back().meanBatchLoss));
            EXPECT_LT(l.LastLocalLoss(), previous * 1.02) << ProxyTaskConfig::KindName(loss);
            previous = l.LastLocalLoss();
        }
        EXPECT_EQ(l.StepsDone(), 200u);
        // At least half of the way down to the loss of the generating model.
        const double reference = task->ShardLoss(1, task->IslandModel(1));
        EXPECT_LT(l.LastLocalLoss() - reference, 0.5 * (local0 - reference))
            << ProxyTaskConfig::KindName(loss);
        EXPECT_LT(l.GlobalLoss(), 0.9 * global0) << ProxyTaskConfig::KindName(loss);
    }
}

TEST(ProxyLearner, AdamWDecreasesLossAndDiffersFromSgd)
{
    auto task = MakeTask(SmallTask(1, 16, 200));
    ProxyLearner a(task, 0, Inner(0.02, 16, 0.01, LocalOptimizerKind::ADAMW));
    ProxyLearner s(task, 0, Inner(0.02, 16, 0.01));
    const double start = a.LocalLoss();
    a.LocalSteps(0, 200);
    s.LocalSteps(0, 200);
    EXPECT_LT(a.LastLocalLoss(), 0.2 * start);
    EXPECT_GT(MaxDiff(a.Vector(), s.Vector()), 1e-3);
}

TEST(ProxyLearner, StepsAreDeterministicPerSeed)
{
    auto task = MakeTask(SmallTask(2, 8, 50));
    LocalOptimizerConfig sgd = Inner(0.01, 4);
    ProxyLearner a(task, 1, sgd, OuterOptimizerConfig(), 11);
    ProxyLearner b(task, 1, sgd, OuterOptimizerConfig(), 11);
    ProxyLearner c(task, 1, sgd, OuterOptimizerConfig(), 12);
    a.LocalSteps(0, 30);
    b.LocalSteps(0, 30);
    c.LocalSteps(0, 30);
    EXPECT_EQ(a.Vector(), b.Vector());
    EXPECT_NE(a.Vector(), c.Vector());
    EXPECT_EQ(a.Parameters(), ToStd(a.Vector()));
    EXPECT_EQ(a.Dimension(), 8u);
}

TEST(ProxyLearner, SynchronizeAveragesExactlyAndSumDividesByMembers)
{
    auto task = MakeTask(SmallTask(3, 8, 50, 1.0));
    auto l = Diverged(task, OuterOptimizerConfig());
    std::vector<double> x0 = l[0]->Parameters();
    std::vector<double> x1 = l[1]->Parameters();
    std::vector<double> x2 = l[2]->Parameters();
    Eigen::VectorXd expected(8);
    for (int j = 0; j < 8; ++j)
    {
        expected[j] = (x0[j] + x1[j] + x2[j]) / 3;
    }
    l[0]->Synchronize(4, {x1, x2});
    EXPECT_LT(MaxDiff(l[0]->Vector(), expected), 1e-14);
    EXPECT_EQ(l[0]->Synchronizations(), 1u);
    EXPECT_EQ(l[0]->LastSyncRound(), 4u);
    std::vector<double> sum(8);
    for (int j = 0; j < 8; ++j)
    {
        sum[j] = x0[j] + x1[j] + x2[j];
    }
    l[1]->SynchronizeSum(4, sum, 3);
    EXPECT_LT(MaxDiff(l[1]->Vector(), expected), 1e-14);
    EXPECT_EQ(l[1]->Anchor(), l[1]->Vector());
}

TEST(ProxyLearner, CliqueOfOneChangesNothing)
{
    auto task = MakeTask(SmallTask(3, 8, 50, 1.0));
    OuterOptimizerConfig diloco{0.7, 0.9, true};
    auto l = Diverged(task, diloco);
    Eigen::VectorXd before = l[0]->Vector();
    l[0]->Synchronize(0, {});
    l[0]->SynchronizeSum(0, l[0]->Parameters(), 1);
    EXPECT_EQ(l[0]->Vector(), before);
    EXPECT_EQ(l[0]->Synchronizations(), 0u);
    // The anchor stays at the start: the pseudo-gradient keeps accumulating local progress.
    EXPECT_EQ(l[0]->Anchor(), task->InitialParameters());
}

TEST(ProxyLearner, OuterLrOneMomentumZeroIsPlainAveraging)
{
    auto task = MakeTask(SmallTask(3, 8, 50, 1.0));
    for (bool nesterov : {true, false})
    {
        auto l = Diverged(task, OuterOptimizerConfig{1.0, 0.0, nesterov});
        for (uint32_t r = 0; r < 3; ++r)
        {
            std::vector<std::vector<double>> sent;
            for (const auto& learner : l)
            {
                sent.push_back(learner->Parameters());
            }
            Eigen::VectorXd average = Eigen::VectorXd::Zero(8);
            for (const auto& v : sent)
            {
                average += Eigen::Map<const Eigen::VectorXd>(v.data(), 8) / 3;
            }
            l[0]->Synchronize(r, {sent[1], sent[2]});
            l[1]->Synchronize(r, {sent[0], sent[2]});
            l[2]->Synchronize(r, {sent[0], sent[1]});
            for (const auto& learner : l)
            {
                EXPECT_LT(MaxDiff(learner->Vector(), average), 1e-13);
                learner->LocalSteps(r + 1, 4);
            }
        }
    }
}

TEST(ProxyLearner, NesterovOuterStepFollowsTheDocumentedUpdate)
{
    auto task = MakeTask(SmallTask(2, 8, 50, 1.0));
    const double eta = 0.7;
    const double mu = 0.9;
    for (bool nesterov : {true, false})
    {
        auto l = Diverged(task, OuterOptimizerConfig{eta, mu, nesterov});
        Eigen::VectorXd anchor = task->InitialParameters();
        Eigen::VectorXd m = Eigen::VectorXd::Zero(8);
        for (uint32_t r = 0; r < 3; ++r)
        {
            std::vector<double> own = l[0]->Parameters();
            std::vector<double> peer = l[1]->Parameters();
            l[0]->Synchronize(r, {peer});
            // Independent computation of the documented update, entry by entry.
            Eigen::VectorXd expected(8);
            for (int j = 0; j < 8; ++j)
            {
                double delta = anchor[j] - (own[j] + peer[j]) / 2;
                m[j] = mu * m[j] + delta;
                expected[j] = anchor[j] - eta * (nesterov ? delta + mu * m[j] : m[j]);
            }
            EXPECT_LT(MaxDiff(l[0]->Vector(), expected), 1e-13);
            anchor = expected;
            l[0]->LocalSteps(r + 1, 3);
            l[1]->LocalSteps(r + 1, 3);
        }
    }
}

TEST(ProxyLearner, BadArgumentsThrowWithClearMessages)
{
    auto task = MakeTask(SmallTask(2, 8, 20));
    LocalOptimizerConfig ok;
    ExpectInvalid([&]() { ProxyLearner(task, 0, Inner(-0.1, 4)); }, "learningRate");
    ExpectInvalid([&]() { ProxyLearner(nullptr, 0, ok); }, "no task");
    ExpectInvalid([&]() { ProxyLearner(task, 2, ok); }, "island 2");
    ExpectInvalid(
        [&]() {
            ProxyLearner(task, 0, ok, OuterOptimizerConfig{0, 0, true});
        },
        "learningRate");
    ExpectInvalid(
        [&]() {
            ProxyLearner(task, 0, ok, OuterOptimizerConfig{1, 1, true});
        },
        "momentum");
    LocalOptimizerConfig adam;
    adam.kind = LocalOptimizerKind::ADAMW;
    adam.beta2 = 1;
    ExpectInvalid([&]() { ProxyLearner(task, 0, adam); }, "beta2");
    ExpectInvalid([]() { LocalOptimizerConfig::ParseKind("lion"); }, "lion");
    EXPECT_EQ(LocalOptimizerConfig::ParseKind("adamw"), LocalOptimizerKind::ADAMW);
    ProxyLearner l(task, 0, ok);
    ExpectInvalid([&]() { l.Synchronize(0, {std::vector<double>(7)}); }, "peer vector has 7");
    ExpectInvalid([&]() { l.SynchronizeSum(0, std::vector<double>(8), 0); }, "zero members");
    ExpectInvalid([&]() { l.SynchronizeSum(0, std::vector<double>(9), 2); }, "sum vector has 9");
    ExpectInvalid([&]() { l.SetVector(Eigen::VectorXd::Zero(3)); }, "vector has 3");
}

TEST(LocalOptimizer, SgdMomentumFollowsTheDocumentedUpdate)
{
    for (bool nesterov : {false, true})
    {
        LocalOptimizerConfig c = Inner(0.1, 0, 0.01);
        c.momentum = 0.9;
        c.nesterov = nesterov;
        LocalOptimizer opt(c, 2);
        Eigen::VectorXd x(2);
        x << 1, -2;
        Eigen::VectorXd expected = x;
        Eigen::VectorXd b = Eigen::VectorXd::Zero(2);
        for (int t = 0; t < 4; ++t)
        {
            Eigen::VectorXd g(2);
            g << 0.5 * t - 1, 2.0 / (t + 1);
            opt.Step(x, g);
            expected *= 1 - 0.1 * 0.01;
            b = 0.9 * b + g;
            expected -= 0.1 * (nesterov ? Eigen::VectorXd(g + 0.9 * b) : b);
            EXPECT_LT(MaxDiff(x, expected), 1e-15) << nesterov << " step " << t;
        }
    }
    LocalOptimizerConfig bad = Inner(0.1, 0);
    bad.momentum = 1;
    ExpectInvalid([&]() { bad.Validate(); }, "momentum");
    bad.momentum = 0.5;
    bad.kind = LocalOptimizerKind::ADAMW;
    ExpectInvalid([&]() { bad.Validate(); }, "adamw");
}
