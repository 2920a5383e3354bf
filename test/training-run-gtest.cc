/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: TrainingRun under schedules with caller-supplied round durations, exact and
// fixed-point (in-network aggregation) synchronisation.

#include "training-gtest-util.h"

#include "ns3/colocated-trainer.h"
#include "ns3/input-error.h"
#include "ns3/results-database.h"
#include "ns3/training-run.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace ns3;
using namespace ns3::testutil;

namespace
{

/// Gossip over the ring 0-1-2-3: two rounds of disjoint pairs.
Schedule
RingOfFour(const std::vector<std::string>& c)
{
    return Schedule("ring", {ScheduleRound{{{c[0], c[1]}, {c[2], c[3]}}},
                             ScheduleRound{{{c[1], c[2]}, {c[3], c[0]}}}});
}

} // namespace

TEST(TrainingRun, IdenticalDataAllReduceEqualsColocatedEveryRound)
{
    ProxyTaskConfig c = SmallTask(4, 16, 48, 1.0);
    c.identicalData = true;
    auto task = MakeTask(c);
    auto cities = Cities(4);
    TrainingRun run(task, AllReduceSchedule(cities), cities, Inner(0.05, 0), OuterOptimizerConfig(),
                    9);
    TrainingRunConfig config;
    config.rounds = 5;
    config.localSteps = 3;
    TrainingRunResult result = run.Run(config, TrainingRun::Periodic({2.0}));
    ColocatedTrainer colocated(task, Inner(0.05, 0), 0.5, 9);
    ASSERT_EQ(result.rounds.size(), 5u);
    for (const TrainingRoundRecord& r : result.rounds)
    {
        colocated.Steps(3);
        EXPECT_NEAR(r.average.loss, colocated.HeldOutLoss(), 1e-9);
        EXPECT_LT(r.consensusDistance, 1e-12);
    }
    for (const auto& l : run.Learners())
    {
        EXPECT_LT(MaxDiff(l->Vector(), colocated.Vector()), 1e-6);
    }
    EXPECT_LT(result.rounds.back().average.loss, 0.8 * result.initial.loss);
}

TEST(TrainingRun, RoundTimesAccumulateAndGiveTheCurve)
{
    auto task = MakeTask(SmallTask(4, 8, 40, 0.5));
    auto cities = Cities(4);
    TrainingRun run(task, RingOfFour(cities), cities, Inner(0.05, 8));
    TrainingRunConfig config;
    config.rounds = 5;
    config.localSteps = 2;
    TrainingRunResult result = run.Run(config, TrainingRun::Periodic({1.0, 3.0}));
    const double ends[] = {1, 4, 5, 8, 9};
    LossCurve curve = result.Curve();
    ASSERT_EQ(curve.size(), 6u);
    EXPECT_DOUBLE_EQ(curve[0].timeS, 0);
    EXPECT_DOUBLE_EQ(curve[0].loss, result.initial.loss);
    for (std::size_t r = 0; r < 5; ++r)
    {
        EXPECT_DOUBLE_EQ(result.rounds[r].endS, ends[r]);
        EXPECT_DOUBLE_EQ(result.rounds[r].startS, r == 0 ? 0 : ends[r - 1]);
        EXPECT_DOUBLE_EQ(curve[r + 1].timeS, ends[r]);
        EXPECT_EQ(result.rounds[r].localLoss.size(), 4u);
        EXPECT_EQ(result.rounds[r].islands.size(), 4u);
        EXPECT_EQ(result.rounds[r].batchLoss.size(), 4u);
        EXPECT_GT(result.rounds[r].consensusDistance, 0); // gossip does not average exactly
    }
    for (const auto& l : run.Learners())
    {
        EXPECT_EQ(l->StepsDone(), 10u);
        EXPECT_EQ(l->Synchronizations(), 5u);
    }
    // A second run starts afresh and repeats the first.
    TrainingRunResult again = run.Run(config, TrainingRun::Periodic({1.0, 3.0}));
    EXPECT_EQ(again.rounds.back().average.loss, result.rounds.back().average.loss);
}

TEST(TrainingRun, IslandsOutsideEveryCliqueOnlyCompute)
{
    auto task = MakeTask(SmallTask(4, 8, 40, 0.5));
    auto cities = Cities(4);
    Schedule pair("pair", {ScheduleRound{{{cities[0], cities[1]}, {cities[2]}}}});
    TrainingRun run(task, pair, cities, Inner(0.05, 8));
    TrainingRunConfig config;
    config.rounds = 3;
    run.Run(config, TrainingRun::Periodic({1.0}));
    EXPECT_EQ(run.Learners()[0]->Synchronizations(), 3u);
    EXPECT_EQ(run.Learners()[2]->Synchronizations(), 0u);
    EXPECT_EQ(run.Learners()[3]->Synchronizations(), 0u);
    EXPECT_EQ(run.Learners()[3]->StepsDone(), 3u);
    EXPECT_EQ(run.Learners()[0]->Vector(), run.Learners()[1]->Vector());
}

TEST(TrainingRun, FixedPointSumIsWithinKHalfUlpsAndAverageWithinOneHalfUlp)
{
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(-20, 20);
    for (int bits : {4, 10, 16, 24})
    {
        FixedPoint codec(bits);
        for (std::size_t k = 1; k <= 9; ++k)
        {
            std::vector<std::vector<double>> vectors(k, std::vector<double>(200));
            for (auto& v : vectors)
            {
                for (double& x : v)
                {
                    x = u(rng);
                }
            }
            uint64_t overflows = 0;
            std::vector<double> sum = TrainingRun::FixedPointSum(codec, vectors, overflows);
            EXPECT_EQ(overflows, 0u);
            for (std::size_t j = 0; j < 200; ++j)
            {
                double exact = 0;
                for (const auto& v : vectors)
                {
                    exact += v[j];
                }
                EXPECT_LE(std::abs(sum[j] - exact), k * codec.QuantizationBound() * (1 + 1e-12));
                EXPECT_LE(std::abs(sum[j] / k - exact / k),
                          codec.QuantizationBound() * (1 + 1e-12));
            }
        }
    }
    // Overflow is counted, not hidden: 40000 does not fit 16 fraction bits (one encode
    // overflow; the saturated lane then overflows again when 1.0 is added to it).
    uint64_t overflows = 0;
    TrainingRun::FixedPointSum(FixedPoint(16), {{40000.0, 1.0}, {1.0, 1.0}}, overflows);
    EXPECT_EQ(overflows, 2u);
    overflows = 0;
    TrainingRun::FixedPointSum(FixedPoint(16), {{30000.0}, {30000.0}}, overflows); // sum only
    EXPECT_EQ(overflows, 1u);
}

TEST(TrainingRun, AggregatedRoundsStayWithinTheQuantisationBound)
{
    auto task = MakeTask(SmallTask(4, 16, 48, 1.0));
    auto cities = Cities(4);
    TrainingRunConfig config;
    config.rounds = 8;
    config.localSteps = 3;
    TrainingRun run(task, AllReduceSchedule(cities), cities, Inner(0.05, 8));
    TrainingRunResult exact = run.Run(config, TrainingRun::Periodic({1.0}));
    for (int bits : {8, 16})
    {
        config.sync = SyncMode::FIXED_POINT;
        config.fractionBits = bits;
        TrainingRunResult aggregated = run.Run(config, TrainingRun::Periodic({1.0}));
        const double bound = FixedPoint(bits).QuantizationBound();
        EXPECT_EQ(aggregated.overflows, 0u);
        for (const TrainingRoundRecord& r : aggregated.rounds)
        {
            EXPECT_LE(r.maxAverageError, bound * (1 + 1e-9)) << bits;
            EXPECT_LT(r.consensusDistance, 1e-12); // every member decodes the same sum
        }
        // Quantisation perturbs training a little: more with fewer fraction bits.
        double gap =
            std::abs(aggregated.rounds.back().average.loss - exact.rounds.back().average.loss);
        EXPECT_LT(gap, 1e-3 * exact.rounds.back().average.loss + 400 * bound) << bits;
        if (bits == 8)
        {
            EXPECT_GT(gap, 0); // quantisation effects do appear
        }
    }
}

TEST(TrainingRun, BadArgumentsThrow)
{
    auto task = MakeTask(SmallTask(4, 8, 20));
    auto cities = Cities(4);
    Schedule all = AllReduceSchedule(cities);
    ExpectInvalid([&]() { TrainingRun(nullptr, all, cities, Inner(0.05, 4)); }, "no task");
    ExpectInvalid([&]() { TrainingRun(task, all, Cities(3), Inner(0.05, 4)); }, "3 island names");
    ExpectInvalid(
        [&]() {
            TrainingRun(task, all, {"A", "B", "A", "C"}, Inner(0.05, 4));
        },
        "duplicate");
    ExpectInvalid([&]() { TrainingRun(task, all, cities, Inner(-1, 4)); }, "learningRate");
    Schedule stranger("x", {ScheduleRound{{{"I0", "XYZ"}}}});
    EXPECT_THROW(TrainingRun(task, stranger, cities, Inner(0.05, 4)), InputError);
    TrainingRun run(task, all, cities, Inner(0.05, 4));
    TrainingRunConfig config;
    config.rounds = 0;
    ExpectInvalid([&]() { run.Run(config, TrainingRun::Periodic({1.0})); }, "rounds");
    config.rounds = 2;
    ExpectInvalid([&]() { run.Run(config, [](std::size_t) { return -1.0; }); }, "duration");
    ExpectInvalid([&]() { run.Run(config, nullptr); }, "duration");
    ExpectInvalid([]() { TrainingRun::Periodic({}); }, "period");
    ExpectInvalid([]() { TrainingRunConfig::ParseSync("lossy"); }, "lossy");
    EXPECT_EQ(TrainingRunConfig::ParseSync("fixed-point"), SyncMode::FIXED_POINT);
}

TEST(TrainingRun, ClassificationRecordsEveryIslandAndStopsAtTheTarget)
{
    auto task = MakeTask(SmallClassification(4, 100, 0.1));
    auto cities = Cities(4);
    LocalOptimizerConfig sgd = Inner(0.05, 16);
    sgd.momentum = 0.9;
    TrainingRun run(task, AllReduceSchedule(cities), cities, sgd);
    TrainingRunConfig config;
    config.rounds = 40;
    config.localSteps = 3;
    TrainingRunResult all = run.Run(config, TrainingRun::Periodic({1.0}));
    ASSERT_EQ(all.rounds.size(), 40u);
    for (const auto& r : all.rounds)
    {
        ASSERT_EQ(r.islands.size(), 4u);
        for (const auto& e : r.islands)
        {
            EXPECT_DOUBLE_EQ(e.accuracy, r.average.accuracy); // all-in-one: one model
        }
        EXPECT_TRUE(std::isfinite(r.localLoss[0]));
    }
    LossCurve curve = all.Curve();
    double target = 0.5 * (curve.front().accuracy + TrainingMetrics::BestAccuracy(curve));
    config.stopAccuracy = target;
    config.shardLoss = false;
    TrainingRunResult stopped = run.Run(config, TrainingRun::Periodic({1.0}));
    ASSERT_LT(stopped.rounds.size(), 40u);
    std::size_t n = stopped.rounds.size();
    EXPECT_GE(stopped.rounds[n - 1].average.accuracy, target);
    EXPECT_LT(all.rounds[n - 2].average.accuracy, target);   // the first round that reaches it
    EXPECT_TRUE(std::isnan(stopped.rounds[0].localLoss[0])); // shard loss not tracked
    EXPECT_TRUE(std::isfinite(stopped.rounds[0].batchLoss[0]));
}

TEST(TrainingRun, TrainingRowsKeepTheirAccuracyInTheDatabase)
{
    std::string path = ::testing::TempDir() + "training-rows.db";
    std::remove(path.c_str());
    ResultsDatabase db(path);
    RunRecord run;
    run.program = "test";
    int64_t id = db.InsertRun(run, "complete", 1, 1);
    TrainingRecord row{3, "LON", 2.5, 0.4, 0.6, 0.5, 0.01};
    row.globalAccuracy = 0.75;
    row.meanGlobalAccuracy = 0.8;
    db.InsertTraining(id, row);
    TrainingRecord regression{4, "LON", 3.5, 0.4, 0.6, 0.5, 0.01}; // no accuracy: NULL
    db.InsertTraining(id, regression);
    auto rows = db.Query("SELECT global_accuracy, mean_global_accuracy FROM training "
                         "WHERE run_id = ? ORDER BY round",
                         {id});
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_DOUBLE_EQ(std::get<double>(rows[0][0]), 0.75);
    EXPECT_DOUBLE_EQ(std::get<double>(rows[0][1]), 0.8);
    EXPECT_TRUE(std::holds_alternative<std::nullptr_t>(rows[1][0]));
    EXPECT_TRUE(std::holds_alternative<std::nullptr_t>(rows[1][1]));
    std::remove(path.c_str());
}
