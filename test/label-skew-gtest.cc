/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: Dirichlet label skew (statistics of the draws, placement, counts).

#include "training-gtest-util.h"

#include "ns3/label-skew.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

using namespace ns3;
using namespace ns3::testutil;

TEST(LabelSkew, DirichletSharesHaveTheConfiguredConcentration)
{
    // E[sum_c p_c^2] = (alpha + 1) / (C alpha + 1) and E[p_c] = 1 / C: sample means over 4000
    // draws with a fixed seed, tolerances of about four standard errors.
    const std::size_t classes = 10;
    for (double alpha : {0.03, 0.1, 0.5, 1.0, 10.0})
    {
        Eigen::MatrixXd p = LabelSkew::Shares(4000, classes, alpha, ClassPlacement::RANDOM, 9);
        Eigen::VectorXd squares = p.rowwise().squaredNorm();
        double expected = LabelSkew::ExpectedSquaredShare(classes, alpha);
        double sd = std::sqrt((squares.array() - squares.mean()).square().mean());
        EXPECT_NEAR(squares.mean(), expected, 4 * sd / std::sqrt(4000.0) + 1e-3) << alpha;
        for (Eigen::Index c = 0; c < p.cols(); ++c)
        {
            EXPECT_NEAR(p.col(c).mean(), 0.1, 0.02) << alpha;
        }
        EXPECT_LT((p.rowwise().sum().array() - 1).abs().maxCoeff(), 1e-12);
        EXPECT_GE(p.minCoeff(), 0);
    }
    // Small alpha concentrates an island on few classes: at 0.03 the largest share is most.
    Eigen::MatrixXd skewed = LabelSkew::Shares(500, classes, 0.03, ClassPlacement::RANDOM, 2);
    EXPECT_GT(skewed.rowwise().maxCoeff().mean(), 0.85);
    Eigen::MatrixXd flat = LabelSkew::Shares(500, classes, 100, ClassPlacement::RANDOM, 2);
    EXPECT_LT(flat.rowwise().maxCoeff().mean(), 0.15);
}

TEST(LabelSkew, TinyAndInfiniteAlpha)
{
    std::mt19937_64 rng(1);
    std::vector<double> tiny = LabelSkew::Dirichlet(10, 1e-4, rng);
    double sum = std::accumulate(tiny.begin(), tiny.end(), 0.0);
    EXPECT_NEAR(sum, 1, 1e-12); // no underflow to 0/0
    EXPECT_GT(*std::max_element(tiny.begin(), tiny.end()), 0.99);
    std::vector<double> iid = LabelSkew::Dirichlet(4, INFINITY, rng);
    EXPECT_EQ(iid, std::vector<double>(4, 0.25));
    EXPECT_DOUBLE_EQ(LabelSkew::ExpectedSquaredShare(4, INFINITY), 0.25);
    EXPECT_DOUBLE_EQ(LabelSkew::ExpectedSquaredShare(4, 1.0), 2.0 / 5);
}

TEST(LabelSkew, RotatedPlacementPutsIslandKsLargestShareOnClassK)
{
    Eigen::MatrixXd rotated = LabelSkew::Shares(12, 5, 0.2, ClassPlacement::ROTATED, 4);
    Eigen::MatrixXd random = LabelSkew::Shares(12, 5, 0.2, ClassPlacement::RANDOM, 4);
    for (Eigen::Index k = 0; k < 12; ++k)
    {
        Eigen::Index top = 0;
        rotated.row(k).maxCoeff(&top);
        EXPECT_EQ(top, k % 5);
        // Same draw, permuted: the multiset of shares is the same.
        Eigen::VectorXd r = rotated.row(k).transpose();
        Eigen::VectorXd s = random.row(k).transpose();
        std::sort(r.data(), r.data() + r.size());
        std::sort(s.data(), s.data() + s.size());
        EXPECT_LT((r - s).cwiseAbs().maxCoeff(), 1e-15);
        // Shares decrease along the rotation: class k, k+1, ...
        for (Eigen::Index i = 1; i < 5; ++i)
        {
            EXPECT_LE(rotated(k, (k + i) % 5), rotated(k, (k + i - 1) % 5));
        }
    }
}

TEST(LabelSkew, CountsAreLargestRemainder)
{
    Eigen::VectorXd shares(3);
    shares << 0.5, 0.3, 0.2;
    EXPECT_EQ(LabelSkew::Counts(shares, 10), (std::vector<std::size_t>{5, 3, 2}));
    EXPECT_EQ(LabelSkew::Counts(shares, 7), (std::vector<std::size_t>{4, 2, 1})); // 3.5 2.1 1.4
    shares << 1, 1, 1;
    EXPECT_EQ(LabelSkew::Counts(shares, 4), (std::vector<std::size_t>{2, 1, 1})); // ties: lower
    shares << 0, 1, 0;
    EXPECT_EQ(LabelSkew::Counts(shares, 9), (std::vector<std::size_t>{0, 9, 0}));
    shares << 0, 0, 0;
    ExpectInvalid([&]() { LabelSkew::Counts(shares, 9); }, "positive sum");
    shares << -1, 2, 0;
    ExpectInvalid([&]() { LabelSkew::Counts(shares, 9); }, "non-negative");
}

TEST(LabelSkew, BadInputThrows)
{
    ExpectInvalid([]() { LabelSkew::ValidateAlpha(0); }, "alpha must be positive");
    ExpectInvalid([]() { LabelSkew::ValidateAlpha(-1); }, "alpha must be positive");
    ExpectInvalid([]() { LabelSkew::ValidateAlpha(NAN); }, "alpha must be positive");
    ExpectInvalid([]() { LabelSkew::Shares(0, 3, 1, ClassPlacement::ROTATED, 1); }, "islands");
    ExpectInvalid([]() { LabelSkew::ParsePlacement("sorted"); }, "sorted");
    EXPECT_EQ(LabelSkew::ParsePlacement(LabelSkew::PlacementName(ClassPlacement::RANDOM)),
              ClassPlacement::RANDOM);
}
