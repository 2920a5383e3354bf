/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: the hand-written MLP (forward, cross-entropy, backward) against finite
// differences, hand-computed values and a problem no linear model solves.

#include "training-gtest-util.h"

#include "ns3/local-optimizer.h"
#include "ns3/mlp.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace ns3;
using namespace ns3::testutil;

namespace
{

/// A random batch of \p rows rows for \p net, with random labels.
void
RandomBatch(const Mlp& net, std::size_t rows, uint64_t seed, Mlp::Matrix& x, std::vector<int>& y)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> gauss(0, 1);
    std::uniform_int_distribution<int> label(0, static_cast<int>(net.Classes()) - 1);
    x.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(net.Inputs()));
    for (Eigen::Index i = 0; i < x.size(); ++i)
    {
        x.data()[i] = gauss(rng);
    }
    y.resize(rows);
    for (int& v : y)
    {
        v = label(rng);
    }
}

/// Largest relative difference between the analytic and the central-difference gradient.
double
WorstGradientError(const Mlp& net, const Eigen::VectorXd& w, const Mlp::Matrix& x,
                   const std::vector<int>& y)
{
    Eigen::VectorXd grad;
    net.Loss(w, x, y, &grad);
    const double h = 1e-6;
    double worst = 0;
    for (Eigen::Index j = 0; j < w.size(); ++j)
    {
        Eigen::VectorXd a = w;
        Eigen::VectorXd b = w;
        a[j] += h;
        b[j] -= h;
        double numeric = (net.Loss(a, x, y, nullptr) - net.Loss(b, x, y, nullptr)) / (2 * h);
        worst = std::max(worst, std::abs(numeric - grad[j]) / std::max(1e-3, std::abs(numeric)));
    }
    return worst;
}

} // namespace

TEST(Mlp, ParameterCountAndLayout)
{
    Mlp net({3, 4, 2});
    EXPECT_EQ(net.Parameters(), (3u + 1) * 4 + (4u + 1) * 2);
    EXPECT_EQ(net.Inputs(), 3u);
    EXPECT_EQ(net.Classes(), 2u);
    // Hand-computed forward pass of a one-layer net: logits = x W + b, W column-major.
    Mlp linear({2, 3});
    Eigen::VectorXd w(9);
    w << 1, 2, 3, 4, 5, 6, 0.5, -0.5, 1.5; // W = [1 3 5; 2 4 6], b = (0.5, -0.5, 1.5)
    Mlp::Matrix x(1, 2);
    x << 1, -1;
    Mlp::Matrix logits = linear.Logits(w, x);
    EXPECT_DOUBLE_EQ(logits(0, 0), 1 - 2 + 0.5);
    EXPECT_DOUBLE_EQ(logits(0, 1), 3 - 4 - 0.5);
    EXPECT_DOUBLE_EQ(logits(0, 2), 5 - 6 + 1.5);
    // Cross-entropy by hand: logsumexp(-0.5, -1.5, 0.5) - logit of the label.
    double lse = std::log(std::exp(-0.5) + std::exp(-1.5) + std::exp(0.5));
    EXPECT_NEAR(linear.Loss(w, x, {2}, nullptr), lse - 0.5, 1e-14);
    Evaluation e = linear.Evaluate(w, x, {2});
    EXPECT_NEAR(e.loss, lse - 0.5, 1e-14);
    EXPECT_EQ(e.accuracy, 1.0);
    EXPECT_EQ(linear.Evaluate(w, x, {0}).accuracy, 0.0);
}

TEST(Mlp, ZeroWeightsGiveLogCAndTheHiddenLayerUsesReLU)
{
    Mlp net({4, 6, 5});
    Mlp::Matrix x;
    std::vector<int> y;
    RandomBatch(net, 20, 1, x, y);
    EXPECT_NEAR(net.Loss(Eigen::VectorXd::Zero(net.Parameters()), x, y, nullptr), std::log(5.0),
                1e-14);
    // One hidden unit with weight +1 from input 0 and a unit weight to class 1: logit 1 is
    // max(x0, 0), every other logit is 0.
    Mlp tiny({2, 1, 2});
    Eigen::VectorXd w = Eigen::VectorXd::Zero(tiny.Parameters()); // W0 (2x1), b0, W1 (1x2), b1
    w[0] = 1;
    w[4] = 1; // W1(0, 1)
    Mlp::Matrix rows(2, 2);
    rows << 2, 7, -3, 7;
    Mlp::Matrix logits = tiny.Logits(w, rows);
    EXPECT_DOUBLE_EQ(logits(0, 1), 2);
    EXPECT_DOUBLE_EQ(logits(1, 1), 0); // ReLU cuts -3
    EXPECT_DOUBLE_EQ(logits(0, 0), 0);
}

TEST(Mlp, GradientMatchesFiniteDifferences)
{
    for (const std::vector<std::size_t>& layers :
         std::vector<std::vector<std::size_t>>{{5, 3}, {5, 7, 4}, {6, 8, 5, 3}})
    {
        Mlp net(layers);
        Eigen::VectorXd w = net.Initialize(3);
        std::mt19937_64 rng(4);
        std::normal_distribution<double> gauss(0, 0.1);
        for (Eigen::Index j = 0; j < w.size(); ++j)
        {
            w[j] += gauss(rng); // biases too, so that no gradient is trivially zero
        }
        Mlp::Matrix x;
        std::vector<int> y;
        RandomBatch(net, 12, 5, x, y);
        EXPECT_LT(WorstGradientError(net, w, x, y), 1e-5) << layers.size() << " layers";
    }
}

TEST(Mlp, SolvesXorWhichNoLinearModelCan)
{
    // Four points of XOR, repeated: a hidden layer learns it; no hidden layer stays at <= 3/4.
    Mlp::Matrix x(4, 2);
    x << -1, -1, -1, 1, 1, -1, 1, 1;
    std::vector<int> y{0, 1, 1, 0};
    auto train = [&](const Mlp& net) {
        Eigen::VectorXd w = net.Initialize(11);
        LocalOptimizerConfig c;
        c.learningRate = 0.1;
        c.momentum = 0.9;
        LocalOptimizer sgd(c, net.Parameters());
        Eigen::VectorXd grad;
        for (int s = 0; s < 2000; ++s)
        {
            net.Loss(w, x, y, &grad);
            sgd.Step(w, grad);
        }
        return net.Evaluate(w, x, y);
    };
    Evaluation hidden = train(Mlp({2, 16, 2}));
    EXPECT_EQ(hidden.accuracy, 1.0);
    EXPECT_LT(hidden.loss, 0.05);
    Evaluation linear = train(Mlp({2, 2}));
    EXPECT_LE(linear.accuracy, 0.75);
    EXPECT_GT(linear.loss, 0.6);
}

TEST(Mlp, InitializationIsHeScaledAndSeeded)
{
    Mlp net({400, 300, 10});
    Eigen::VectorXd w = net.Initialize(1);
    EXPECT_EQ(w, net.Initialize(1));
    EXPECT_NE(w, net.Initialize(2));
    // First-layer weights: variance 2 / 400; biases zero.
    Eigen::VectorXd first = w.head(400 * 300);
    EXPECT_NEAR(first.squaredNorm() / first.size(), 2.0 / 400, 0.05 * 2.0 / 400);
    EXPECT_EQ(w.segment(400 * 300, 300).cwiseAbs().maxCoeff(), 0.0);
}

TEST(Mlp, BadArgumentsThrow)
{
    ExpectInvalid([]() { Mlp({5}); }, "at least an input and an output");
    ExpectInvalid([]() { Mlp({5, 0, 3}); }, "layer 1 has no units");
    ExpectInvalid([]() { Mlp({5, 1}); }, "at least 2 classes");
    Mlp net({3, 2});
    Mlp::Matrix x = Mlp::Matrix::Zero(2, 3);
    Eigen::VectorXd w = Eigen::VectorXd::Zero(8);
    ExpectInvalid(
        [&]() {
            net.Loss(Eigen::VectorXd::Zero(7), x, {0, 1}, nullptr);
        },
        "7 entries, expected 8");
    ExpectInvalid(
        [&]() {
            net.Loss(w, Mlp::Matrix::Zero(2, 4), {0, 1}, nullptr);
        },
        "4 features, expected 3");
    ExpectInvalid([&]() { net.Loss(w, x, {0}, nullptr); }, "1 labels for 2 rows");
    ExpectInvalid([&]() { net.Loss(w, x, {0, 2}, nullptr); }, "label 2 outside");
    ExpectInvalid([&]() { net.Evaluate(w, Mlp::Matrix::Zero(0, 3), {}); }, "empty batch");
}
