/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: the colocated gold standard, and when island training with full averaging
// equals it (the "same total compute" definition of ColocatedTrainer).

#include "training-gtest-util.h"

#include "ns3/colocated-trainer.h"
#include "ns3/proxy-learner.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;
using namespace ns3::testutil;

namespace
{

/// Every learner runs \p steps local steps, then the islands average exactly over all of them.
void
FullAverageRound(const std::vector<std::shared_ptr<ProxyLearner>>& learners, uint32_t round,
                 uint32_t steps)
{
    std::vector<std::vector<double>> sent;
    for (const auto& l : learners)
    {
        l->LocalSteps(round, steps);
        sent.push_back(l->Parameters());
    }
    for (std::size_t i = 0; i < learners.size(); ++i)
    {
        std::vector<std::vector<double>> peers;
        for (std::size_t j = 0; j < learners.size(); ++j)
        {
            if (j != i)
            {
                peers.push_back(sent[j]);
            }
        }
        learners[i]->Synchronize(round, peers);
    }
}

/// Largest distance of any island's vector from the colocated vector after each of \p rounds
/// full-average rounds of \p steps local steps (the colocated trainer runs \p steps per round).
double
WorstGapToColocated(const std::shared_ptr<const ProxyTask>& task,
                    const LocalOptimizerConfig& config, uint32_t rounds, uint32_t steps)
{
    auto learners = ProxyLearner::ForAllIslands(task, config, OuterOptimizerConfig(), 5);
    ColocatedTrainer colocated(task, config, 0.1, 5);
    double worst = 0;
    for (uint32_t r = 0; r < rounds; ++r)
    {
        FullAverageRound(learners, r, steps);
        colocated.Steps(steps);
        for (const auto& l : learners)
        {
            worst = std::max(worst, MaxDiff(l->Vector(), colocated.Vector()));
        }
    }
    // The vectors moved: the comparison is not between two untouched starting points.
    EXPECT_GT(colocated.Vector().norm(), 0.1);
    return worst;
}

} // namespace

TEST(ColocatedTrainer, IdenticalDataFullAverageEqualsColocated)
{
    // Identical data, full-batch steps: every island follows the colocated trajectory for any
    // number of local steps and any inner optimiser, so a full-average round gives it exactly.
    ProxyTaskConfig c = SmallTask(4, 16, 48, 1.0);
    c.identicalData = true;
    for (ProxyTaskKind loss : {ProxyTaskKind::LEAST_SQUARES, ProxyTaskKind::LOGISTIC})
    {
        c.kind = loss;
        auto task = MakeTask(c);
        LocalOptimizerConfig sgd = Inner(0.05, 0);
        EXPECT_LT(WorstGapToColocated(task, sgd, 4, 5), 1e-6) << ProxyTaskConfig::KindName(loss);
        LocalOptimizerConfig adam = Inner(0.05, 0, 0.01, LocalOptimizerKind::ADAMW);
        EXPECT_LT(WorstGapToColocated(task, adam, 4, 5), 1e-6) << ProxyTaskConfig::KindName(loss);
    }
}

TEST(ColocatedTrainer, ClassificationIdenticalDataFullAverageEqualsColocated)
{
    // The MLP task: identical data, full-batch steps, SGD with (Nesterov) momentum or AdamW,
    // five local steps per round, exact averaging over all islands: the colocated model to 1e-6.
    ProxyTaskConfig c = SmallClassification(4, 60, 0.1);
    c.identicalData = true;
    auto task = MakeTask(c);
    LocalOptimizerConfig momentum = Inner(0.1, 0, 0.01);
    momentum.momentum = 0.9;
    EXPECT_LT(WorstGapToColocated(task, momentum, 4, 5), 1e-6);
    momentum.nesterov = true;
    EXPECT_LT(WorstGapToColocated(task, momentum, 4, 5), 1e-6);
    EXPECT_LT(WorstGapToColocated(task, Inner(0.01, 0, 0.01, LocalOptimizerKind::ADAMW), 4, 5),
              1e-6);
}

TEST(ColocatedTrainer, OneMomentumStepPerRoundEqualsColocatedOnSkewedData)
{
    // Averaging is linear in the momentum buffers too: one local step of SGD with momentum per
    // round, exact averaging, label-skewed minibatches: still the colocated model.
    auto task = MakeTask(SmallClassification(5, 60, 0.1));
    LocalOptimizerConfig momentum = Inner(0.1, 8);
    momentum.momentum = 0.9;
    EXPECT_LT(WorstGapToColocated(task, momentum, 20, 1), 1e-9);
    // With several local steps the label skew drives the islands apart.
    EXPECT_GT(WorstGapToColocated(task, momentum, 3, 5), 1e-3);
}

TEST(ColocatedTrainer, OneSgdStepPerRoundEqualsColocatedOnAnyData)
{
    // Averaging x - lr (g_i + wd x) over islands is one colocated step with the all-reduced
    // gradient: equal on heterogeneous data with minibatches, as long as each round is one
    // local step of plain SGD and the colocated workers draw the islands' minibatches.
    auto task = MakeTask(SmallTask(5, 16, 40, 2.0));
    EXPECT_LT(WorstGapToColocated(task, Inner(0.05, 6, 0.1), 30, 1), 1e-9);
}

TEST(ColocatedTrainer, SeveralMinibatchStepsOnHeterogeneousDataDriftFromColocated)
{
    // The counterpart: with several local minibatch steps the islands drift apart and the
    // average is not the colocated model (the comparison above can fail).
    auto task = MakeTask(SmallTask(5, 16, 40, 2.0));
    EXPECT_GT(WorstGapToColocated(task, Inner(0.05, 6), 3, 5), 1e-3);
}

TEST(ColocatedTrainer, LossDecreasesAndTimeIsStepsTimesComputeTime)
{
    auto task = MakeTask(SmallTask(3, 16, 100, 0.5));
    ColocatedTrainer t(task, Inner(0.05, 10), 0.25);
    LossCurve curve = t.Run(50, 20);
    ASSERT_EQ(curve.size(), 4u); // start, 20, 40, 50
    EXPECT_DOUBLE_EQ(curve[0].timeS, 0);
    EXPECT_DOUBLE_EQ(curve[1].timeS, 5);
    EXPECT_DOUBLE_EQ(curve[3].timeS, 12.5);
    EXPECT_LT(curve.back().loss, 0.5 * curve.front().loss);
    EXPECT_EQ(t.StepsDone(), 50u);
    EXPECT_DOUBLE_EQ(t.HeldOutLoss(), curve.back().loss);
    // Continue until 20 s: 80 steps in all.
    LossCurve more = t.RunUntil(20.0, 10);
    EXPECT_EQ(t.StepsDone(), 80u);
    EXPECT_DOUBLE_EQ(more.front().timeS, 12.5);
    EXPECT_DOUBLE_EQ(more.back().timeS, 20.0);
}

TEST(ColocatedTrainer, BadArgumentsThrow)
{
    auto task = MakeTask(SmallTask(2, 8, 20));
    LocalOptimizerConfig ok;
    ExpectInvalid([&]() { ColocatedTrainer(nullptr, ok, 1.0); }, "no task");
    ExpectInvalid([&]() { ColocatedTrainer(task, ok, -1.0); }, "computeTimeS");
    ExpectInvalid([&]() { ColocatedTrainer(task, Inner(-0.5, 4), 1.0); }, "learningRate");
    ColocatedTrainer t(task, ok, 1.0);
    ExpectInvalid([&]() { t.Run(3, 0); }, "evalEvery");
}
