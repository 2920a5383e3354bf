/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: ProxyTask generation (seeded, sharded, heterogeneity), losses and gradients.

#include "training-gtest-util.h"

#include "ns3/batch-sampler.h"
#include "ns3/proxy-task.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <set>

using namespace ns3;
using namespace ns3::testutil;

namespace
{

/// Central finite-difference gradient of the shard loss.
Eigen::VectorXd
NumericGradient(const ProxyTask& task, std::size_t island, const Eigen::VectorXd& w)
{
    const double h = 1e-6;
    Eigen::VectorXd g(w.size());
    for (Eigen::Index j = 0; j < w.size(); ++j)
    {
        Eigen::VectorXd a = w;
        Eigen::VectorXd b = w;
        a[j] += h;
        b[j] -= h;
        g[j] = (task.ShardLoss(island, a) - task.ShardLoss(island, b)) / (2 * h);
    }
    return g;
}

} // namespace

TEST(ProxyTask, SameSeedSameDataOtherSeedOtherData)
{
    ProxyTaskConfig c = SmallTask(3, 8, 20, 0.5);
    LinearTask a(c);
    LinearTask b(c);
    c.seed = 8;
    LinearTask other(c);
    for (std::size_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(a.Features(i), b.Features(i));
        EXPECT_EQ(a.Targets(i), b.Targets(i));
        EXPECT_NE(a.Features(i), other.Features(i));
    }
    EXPECT_EQ(a.HeldOutFeatures(), b.HeldOutFeatures());
    EXPECT_EQ(a.TrueModel(), b.TrueModel());
    EXPECT_EQ(a.Features(0).rows(), 20);
    EXPECT_EQ(a.Features(0).cols(), 8);
    EXPECT_EQ(a.HeldOutFeatures().rows(), 128);
    EXPECT_NE(a.Features(0), a.Features(1));
}

TEST(ProxyTask, IdenticalDataGivesEveryIslandTheSameShard)
{
    ProxyTaskConfig c = SmallTask(4, 8, 20, 2.0);
    c.identicalData = true;
    LinearTask t(c);
    for (std::size_t i = 1; i < 4; ++i)
    {
        EXPECT_EQ(t.Features(i), t.Features(0));
        EXPECT_EQ(t.Targets(i), t.Targets(0));
    }
    EXPECT_THROW(t.Features(4), std::out_of_range);
}

TEST(ProxyTask, HeterogeneityShiftsIslandModelsAroundTheTrueModel)
{
    LinearTask iid(SmallTask(5, 16, 1000, 0));
    LinearTask shifted(SmallTask(5, 16, 1000, 1.5));
    Eigen::VectorXd mean = Eigen::VectorXd::Zero(16);
    for (std::size_t k = 0; k < 5; ++k)
    {
        EXPECT_EQ(iid.IslandModel(k), iid.TrueModel());
        EXPECT_GT((shifted.IslandModel(k) - shifted.TrueModel()).norm(), 0.1);
        mean += shifted.IslandModel(k) / 5;
    }
    // The concept shifts are centred: island models average to w*.
    EXPECT_LT(MaxDiff(mean, shifted.TrueModel()), 1e-12);
    EXPECT_EQ(iid.TrueModel(), shifted.TrueModel());
    // Island features are shifted by h u_k (||u_k|| ~ 1); the sampling noise of a shard's mean
    // feature is ~ sqrt(d / rows) = 0.13.
    for (std::size_t k = 0; k < 5; ++k)
    {
        EXPECT_LT(iid.Features(k).colwise().mean().norm(), 0.3);
        EXPECT_GT(shifted.Features(k).colwise().mean().norm(), 0.75);
    }
}

TEST(ProxyTask, LeastSquaresTargetsFollowTheIslandModelPlusNoise)
{
    ProxyTaskConfig c = SmallTask(2, 16, 4000, 1.0);
    c.noise = 0.2;
    LinearTask t(c);
    for (std::size_t k = 0; k < 2; ++k)
    {
        // At the generating model only the noise remains: loss ~ noise^2 / 2 = 0.02.
        double atModel = t.ShardLoss(k, t.IslandModel(k));
        EXPECT_NEAR(atModel, 0.02, 0.003);
        // The other island's model (shifted by h (v_1 - v_0)) fits worse.
        EXPECT_GT(t.ShardLoss(k, t.IslandModel(1 - k)), 2 * atModel);
    }
}

TEST(ProxyTask, GradientsMatchFiniteDifferences)
{
    for (ProxyTaskKind loss : {ProxyTaskKind::LEAST_SQUARES, ProxyTaskKind::LOGISTIC})
    {
        LinearTask t(SmallTask(2, 6, 30, 0.7, loss));
        Eigen::VectorXd w = t.TrueModel() * 0.5 + Eigen::VectorXd::Constant(6, 0.1);
        Eigen::VectorXd g;
        double l = t.ShardGradient(1, w, g);
        EXPECT_DOUBLE_EQ(l, t.ShardLoss(1, w));
        EXPECT_LT(MaxDiff(g, NumericGradient(t, 1, w)), 1e-6) << ProxyTaskConfig::KindName(loss);
    }
}

TEST(ProxyTask, BatchGradientIsTheMeanOfRowGradients)
{
    LinearTask t(SmallTask(2, 6, 30, 0.3, ProxyTaskKind::LOGISTIC));
    Eigen::VectorXd w = Eigen::VectorXd::LinSpaced(6, -1, 1);
    std::vector<std::size_t> rows{3, 17, 5, 29};
    Eigen::VectorXd g;
    double l = t.BatchGradient(0, w, rows, g);
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(6);
    double lsum = 0;
    for (std::size_t r : rows)
    {
        Eigen::VectorXd gr;
        lsum += t.BatchGradient(0, w, {r}, gr);
        sum += gr;
    }
    EXPECT_NEAR(l, lsum / 4, 1e-12);
    EXPECT_LT(MaxDiff(g, sum / 4), 1e-12);
    // All rows in order is the full shard.
    std::vector<std::size_t> all(30);
    std::iota(all.begin(), all.end(), std::size_t{0});
    Eigen::VectorXd full;
    t.ShardGradient(0, w, full);
    t.BatchGradient(0, w, all, g);
    EXPECT_LT(MaxDiff(g, full), 1e-12);
    EXPECT_THROW(t.BatchGradient(0, w, {30}, g), std::out_of_range);
    EXPECT_THROW(t.ShardLoss(0, Eigen::VectorXd::Zero(5)), std::invalid_argument);
}

TEST(ProxyTask, LogisticLabelsAreBinaryAndInformative)
{
    ProxyTaskConfig c = SmallTask(1, 8, 2000, 0, ProxyTaskKind::LOGISTIC);
    c.signal = 4;
    LinearTask t(c);
    std::set<double> labels(t.Targets(0).data(), t.Targets(0).data() + t.Targets(0).size());
    EXPECT_EQ(labels, (std::set<double>{0.0, 1.0}));
    // The generating model beats the zero model (log 2).
    EXPECT_LT(t.HeldOutLoss(t.TrueModel()), 0.8 * std::log(2.0));
    EXPECT_NEAR(t.HeldOutLoss(t.InitialParameters()), std::log(2.0), 1e-12);
}

TEST(ProxyTask, BadConfigurationsThrowNamingTheField)
{
    auto with = [](const std::function<void(ProxyTaskConfig&)>& change) {
        ProxyTaskConfig c = SmallTask();
        change(c);
        return [c]() { LinearTask t(c); };
    };
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.dimension = 0; }), "dimension");
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.islands = 0; }), "islands");
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.samplesPerIsland = 0; }), "samplesPerIsland");
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.heldOutSamples = 0; }), "heldOutSamples");
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.heterogeneity = -1; }), "heterogeneity");
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.noise = NAN; }), "noise");
    ExpectInvalid(with([](ProxyTaskConfig& c) { c.signal = 0; }), "signal");
    ExpectInvalid([]() { ProxyTaskConfig::ParseKind("hinge"); }, "hinge");
    EXPECT_EQ(ProxyTaskConfig::ParseKind("logistic"), ProxyTaskKind::LOGISTIC);
    EXPECT_EQ(ProxyTaskConfig::ParseKind(ProxyTaskConfig::KindName(ProxyTaskKind::LEAST_SQUARES)),
              ProxyTaskKind::LEAST_SQUARES);
}

TEST(BatchSampler, EpochsCoverEveryRowOnceAndRepeatForTheSameSeed)
{
    BatchSampler a(10, 3, 5);
    BatchSampler b(10, 3, 5);
    std::multiset<std::size_t> epoch;
    for (int i = 0; i < 3; ++i)
    {
        const auto& batch = a.Next();
        EXPECT_EQ(batch, b.Next());
        epoch.insert(batch.begin(), batch.end());
    }
    EXPECT_EQ(epoch.size(), 9u);
    EXPECT_EQ(std::set<std::size_t>(epoch.begin(), epoch.end()).size(), 9u); // no repeats
    BatchSampler full(10, 0, 5);
    EXPECT_TRUE(full.FullBatch());
    EXPECT_EQ(full.Next().size(), 10u);
    EXPECT_EQ(full.Next()[9], 9u);
    EXPECT_NE(BatchSampler::DeriveSeed(1, 0), BatchSampler::DeriveSeed(1, 1));
    EXPECT_THROW(BatchSampler(0, 3, 1), std::invalid_argument);
}
