/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: ConsensusMetric mixing matrices, period norms, rounds and seconds to the target.

#include "ns3/baseline-schedules.h"
#include "ns3/consensus-metric.h"
#include "ns3/input-error.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;

namespace
{

std::vector<std::string>
Islands(std::size_t n)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i)
    {
        out.push_back("I" + std::to_string(i));
    }
    return out;
}

/// Rounds to the target by explicit matrix products and SVDs (independent of Mixing).
std::size_t
RoundsByMatrices(const ConsensusMetric& m, const std::vector<IndexRound>& rounds, std::size_t max)
{
    const auto n = static_cast<Eigen::Index>(m.Islands());
    Eigen::MatrixXd j = Eigen::MatrixXd::Constant(n, n, 1.0 / n);
    Eigen::MatrixXd p = Eigen::MatrixXd::Identity(n, n);
    for (std::size_t k = 1; k <= max; ++k)
    {
        p = m.MixingMatrix(rounds[(k - 1) % rounds.size()]) * p;
        Eigen::JacobiSVD<Eigen::MatrixXd> svd(p - j);
        if (svd.singularValues()(0) <= m.Target())
        {
            return k;
        }
    }
    return ConsensusScore::kNever;
}

} // namespace

TEST(ConsensusMetric, MixingMatrixIsBlockAveraging)
{
    ConsensusMetric m(5);
    Eigen::MatrixXd w = m.MixingMatrix({{0, 2}, {1, 3, 4}});
    EXPECT_DOUBLE_EQ(w(0, 2), 0.5);
    EXPECT_DOUBLE_EQ(w(0, 0), 0.5);
    EXPECT_DOUBLE_EQ(w(3, 1), 1.0 / 3);
    EXPECT_DOUBLE_EQ(w(0, 1), 0);
    // Symmetric and doubly stochastic.
    EXPECT_NEAR((w - w.transpose()).norm(), 0, 1e-15);
    EXPECT_NEAR((w.rowwise().sum().array() - 1).abs().maxCoeff(), 0, 1e-15);
    // An island in no clique keeps its value.
    Eigen::MatrixXd sit = m.MixingMatrix({{0, 1}});
    EXPECT_DOUBLE_EQ(sit(4, 4), 1);
    EXPECT_DOUBLE_EQ(sit.row(4).sum(), 1);
    EXPECT_THROW(m.MixingMatrix({{0, 1}, {1, 2}}), std::invalid_argument);
    EXPECT_THROW(m.MixingMatrix({{0, 7}}), std::invalid_argument);
    // Before any round the worst-case error is 1; a pair alone leaves other directions intact.
    EXPECT_NEAR(m.Error({{{0, 1}}}, 0), 1.0, 1e-12);
    EXPECT_NEAR(m.Error({{{0, 1}}}, 3), 1.0, 1e-12);
    EXPECT_NEAR(m.Error({{{0, 1, 2, 3, 4}}}, 1), 0.0, 1e-12);
}

TEST(ConsensusMetric, AllReduceIsExactInOneRound)
{
    auto islands = Islands(7);
    ConsensusMetric m(7);
    auto rounds = ConsensusMetric::ToIndices(BaselineSchedules::AllReduce(islands), islands);
    ConsensusScore s = m.Evaluate(rounds, {2.5});
    EXPECT_TRUE(s.exact);
    EXPECT_LT(s.norm, 1e-12);
    EXPECT_EQ(s.roundsToTarget, 1u);
    EXPECT_DOUBLE_EQ(s.secondsToTarget, 2.5);
    EXPECT_TRUE(std::isinf(s.rate));
}

TEST(ConsensusMetric, GridAveragesExactlyInTwoRounds)
{
    auto islands = Islands(9);
    ConsensusMetric m(9);
    auto rounds = ConsensusMetric::ToIndices(BaselineSchedules::Grid(islands), islands);
    ASSERT_EQ(rounds.size(), 2u);
    // One round of rows alone never mixes the rows.
    EXPECT_NEAR(m.PeriodNorm({rounds[0]}), 1.0, 1e-12);
    EXPECT_FALSE(m.Mixing({rounds[0]}).exact);
    EXPECT_EQ(m.Mixing({rounds[0]}).roundsToTarget, ConsensusScore::kNever);
    ConsensusScore s = m.Evaluate(rounds, {1.0, 2.0});
    EXPECT_TRUE(s.exact);
    EXPECT_EQ(s.roundsToTarget, 2u);
    EXPECT_DOUBLE_EQ(s.secondsToTarget, 3.0);
    EXPECT_DOUBLE_EQ(s.periodS, 3.0);
}

TEST(ConsensusMetric, RingAndExponentialGraphContract)
{
    for (std::size_t n : {6u, 8u, 9u})
    {
        auto islands = Islands(n);
        ConsensusMetric m(n);
        for (const Schedule& sch :
             {BaselineSchedules::Ring(islands), BaselineSchedules::ExponentialGraph(islands)})
        {
            auto rounds = ConsensusMetric::ToIndices(sch, islands);
            std::vector<double> times(rounds.size(), 0.5);
            ConsensusScore s = m.Evaluate(rounds, times);
            bool hypercube = sch.GetName() == "exp-graph" && n == 8;
            EXPECT_EQ(s.exact, hypercube) << sch.GetName() << " n=" << n;
            EXPECT_LT(s.norm, 1.0) << sch.GetName();
            EXPECT_GT(s.rate, 0) << sch.GetName();
            if (!s.exact)
            {
                EXPECT_GT(s.norm, 1e-3);
                EXPECT_NEAR(s.rate, -std::log(s.norm) / (0.5 * rounds.size()), 1e-12);
            }
            // Rounds to the target agree with explicit matrix products.
            EXPECT_EQ(s.roundsToTarget, RoundsByMatrices(m, rounds, 100000)) << sch.GetName();
            EXPECT_NEAR(s.secondsToTarget, 0.5 * s.roundsToTarget, 1e-9);
            // The error can shrink no slower than norm per period.
            double periods = std::ceil(std::log(1e-3) / std::log(std::max(s.norm, 1e-300)));
            EXPECT_LE(s.roundsToTarget, (periods + 1) * rounds.size());
        }
    }
}

TEST(ConsensusMetric, RankingPrefersRateThenSeconds)
{
    ConsensusScore exactSlow;
    exactSlow.rate = std::numeric_limits<double>::infinity();
    exactSlow.secondsToTarget = 10;
    ConsensusScore exactFast = exactSlow;
    exactFast.secondsToTarget = 5;
    ConsensusScore finite;
    finite.rate = 3;
    finite.secondsToTarget = 1;
    EXPECT_TRUE(ConsensusMetric::Better(exactFast, 2, exactSlow, 1));
    EXPECT_FALSE(ConsensusMetric::Better(exactSlow, 1, exactFast, 2));
    EXPECT_TRUE(ConsensusMetric::Better(exactSlow, 1, finite, 1));
    ConsensusScore finiteSameRate = finite;
    finiteSameRate.secondsToTarget = 0.5;
    EXPECT_TRUE(ConsensusMetric::Better(finiteSameRate, 3, finite, 1));
    EXPECT_TRUE(ConsensusMetric::Better(finite, 1, finite, 2));
    EXPECT_FALSE(ConsensusMetric::Better(finite, 1, finite, 1));
}

TEST(ConsensusMetric, ErrorIsTheWorstCaseOverStartVectors)
{
    // The worst-case error bounds the error of any start vector, and is reached by some.
    auto islands = Islands(6);
    ConsensusMetric m(6);
    auto rounds = ConsensusMetric::ToIndices(BaselineSchedules::Ring(islands), islands);
    Eigen::MatrixXd p = Eigen::MatrixXd::Identity(6, 6);
    for (std::size_t k = 1; k <= 5; ++k)
    {
        p = m.MixingMatrix(rounds[(k - 1) % rounds.size()]) * p;
        double worst = m.Error(rounds, k);
        for (int trial = 0; trial < 20; ++trial)
        {
            Eigen::VectorXd x = Eigen::VectorXd::Random(6);
            Eigen::VectorXd dev = x.array() - x.mean();
            Eigen::VectorXd after = (p * x).array() - x.mean();
            EXPECT_LE(after.norm() / dev.norm(), worst + 1e-12);
        }
        Eigen::JacobiSVD<Eigen::MatrixXd> svd(p - Eigen::MatrixXd::Constant(6, 6, 1.0 / 6),
                                              Eigen::ComputeFullV);
        Eigen::VectorXd v = svd.matrixV().col(0);
        Eigen::VectorXd after = (p * v).array() - v.mean();
        Eigen::VectorXd dev = v.array() - v.mean();
        EXPECT_NEAR(after.norm() / dev.norm(), worst, 1e-9);
    }
}

TEST(ConsensusMetric, BadInputIsRejected)
{
    EXPECT_THROW(ConsensusMetric(0), std::invalid_argument);
    EXPECT_THROW(ConsensusMetric(3, 0.0), std::invalid_argument);
    EXPECT_THROW(ConsensusMetric(3, 1.5), std::invalid_argument);
    ConsensusMetric m(3);
    EXPECT_THROW(m.Mixing({}), std::invalid_argument);
    EXPECT_THROW(m.Evaluate({{{0, 1}}}, {1.0, 2.0}), std::invalid_argument);
    Schedule s("s", {ScheduleRound{{{"I0", "XX"}}}});
    EXPECT_THROW(ConsensusMetric::ToIndices(s, Islands(3)), InputError);
}
