/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ns-3 TestSuite "intelligent-network-training": real parameter vectors through the simulated
// network. The packet-level run must train exactly what the pure C++ TrainingRun computes for
// the same task, seeds and schedule — averaging the received values (unicast, multicast) or
// the FPGA's fixed-point sums (aggregation) — also under packet loss; and identical data with
// full averaging must reproduce the colocated vector.

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/test.h"

using namespace ns3;

namespace
{

const std::string kData = INTELLIGENT_NETWORK_DATA_DIR;

/// Largest absolute difference between the islands' vectors of two learner sets.
double
MaxDifference(const std::vector<std::shared_ptr<ProxyLearner>>& a,
              const std::vector<std::shared_ptr<ProxyLearner>>& b)
{
    double d = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        d = std::max(d, (a[i]->Vector() - b[i]->Vector()).cwiseAbs().maxCoeff());
    }
    return d;
}

class PacketEqualsFluidTrainingTestCase : public TestCase
{
  public:
    PacketEqualsFluidTrainingTestCase(ExchangePattern mode, double loss)
        : TestCase(std::string("packet-level training equals TrainingRun: ") +
                   PatternName(mode) + (loss > 0 ? ", 1% loss" : "")),
          m_mode(mode),
          m_loss(loss)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t rounds = 4;
        const uint32_t localSteps = 3;
        Topology topo = TopologyReader::ReadFile(kData + "/nine-city.topology");
        Schedule sched =
            Schedule::Load(kData + "/schedules/3x3-rotating.json", topo.CityCodes());
        std::vector<std::string> cities = sched.Cities();
        ProxyTaskConfig tc;
        tc.dimension = 3000; // more than one segment of values in every mode
        tc.islands = cities.size();
        tc.samplesPerIsland = 256;
        tc.heldOutSamples = 256;
        tc.heterogeneity = 1.0;
        auto task = std::make_shared<const ProxyTask>(tc);
        LocalOptimizerConfig inner;
        OuterOptimizerConfig outer;
        outer.learningRate = 0.8;
        outer.momentum = 0.5; // DiLoCo outer step: state must evolve identically too
        auto learners = ProxyLearner::ForAllIslands(task, inner, outer, 7);

        ScenarioHelper s;
        s.SetTopology(topo);
        s.SetSchedule(sched);
        s.SetCapabilities(NetworkCapabilities::ForPattern(m_mode));
        s.SetRounds(rounds);
        s.SetLossRate(m_loss);
        s.SetIslandAttribute("ModelBytes", UintegerValue(1000000));
        s.SetIslandAttribute("LocalSteps", UintegerValue(localSteps));
        for (std::size_t i = 0; i < cities.size(); ++i)
        {
            s.SetLearner(cities[i], learners[i]);
        }
        uint32_t observed = 0;
        s.SetRoundObserver([&](uint32_t round, double) {
            NS_TEST_EXPECT_MSG_EQ(round, observed, "rounds observed in order");
            ++observed;
        });
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        NS_TEST_EXPECT_MSG_EQ(observed, rounds, "one observation per round");

        TrainingRun reference(task, sched, cities, inner, outer, 7);
        TrainingRunConfig config;
        config.rounds = rounds;
        config.localSteps = localSteps;
        config.sync = m_mode == ExchangePattern::AGGREGATION ? SyncMode::FIXED_POINT
                                                          : SyncMode::EXACT;
        TrainingRunResult ref = reference.Run(config, TrainingRun::Periodic({1.0}));
        double diff = MaxDifference(learners, reference.Learners());
        double tolerance = m_mode == ExchangePattern::AGGREGATION ? 0.0 : 1e-9;
        NS_TEST_EXPECT_MSG_LT_OR_EQ(diff, tolerance,
                                    "vectors differ from TrainingRun by " << diff);
        // And training did something.
        double loss = TrainingMetrics::GlobalLoss(*task, TrainingMetrics::Vectors(learners));
        NS_TEST_EXPECT_MSG_LT(loss, ref.initialLoss, "training lowers the held-out loss");
        Simulator::Destroy();
    }

    ExchangePattern m_mode;
    double m_loss;
};

/// Identical data on every island, full-batch SGD, everyone in one clique every round: after
/// every round each island's vector equals the colocated trainer's to 1e-6.
class ColocatedEquivalenceTestCase : public TestCase
{
  public:
    ColocatedEquivalenceTestCase()
        : TestCase("identical data and full averaging over the network equal colocated")
    {
    }

  private:
    void DoRun() override
    {
        Topology topo = TopologyReader::ReadFile(kData + "/nine-city.topology");
        Schedule sched = Schedule::Load(kData + "/schedules/all-in-one.json", topo.CityCodes());
        std::vector<std::string> cities = sched.Cities();
        ProxyTaskConfig tc;
        tc.dimension = 512;
        tc.islands = cities.size();
        tc.samplesPerIsland = 128;
        tc.heldOutSamples = 128;
        tc.identicalData = true;
        auto task = std::make_shared<const ProxyTask>(tc);
        LocalOptimizerConfig inner;
        inner.batchSize = 0; // full shard
        auto learners = ProxyLearner::ForAllIslands(task, inner, OuterOptimizerConfig(), 3);
        const uint32_t rounds = 3;
        const uint32_t localSteps = 2;
        ScenarioHelper s;
        s.SetTopology(topo);
        s.SetSchedule(sched);
        s.SetCapabilities(NetworkCapabilities::ForPattern(ExchangePattern::MULTICAST));
        s.SetRounds(rounds);
        s.SetIslandAttribute("ModelBytes", UintegerValue(200000));
        s.SetIslandAttribute("LocalSteps", UintegerValue(localSteps));
        for (std::size_t i = 0; i < cities.size(); ++i)
        {
            s.SetLearner(cities[i], learners[i]);
        }
        ColocatedTrainer colocated(task, inner, 0.01, 3);
        s.SetRoundObserver([&](uint32_t round, double) {
            colocated.Steps(localSteps);
            for (const auto& l : learners)
            {
                double d = (l->Vector() - colocated.Vector()).cwiseAbs().maxCoeff();
                NS_TEST_EXPECT_MSG_LT(d, 1e-6, "round " << round << ": off colocated by " << d);
            }
        });
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        Simulator::Destroy();
    }
};

class TrainingProxyTestSuite : public TestSuite
{
  public:
    TrainingProxyTestSuite()
        : TestSuite("intelligent-network-training", UNIT)
    {
        for (ExchangePattern mode :
             {ExchangePattern::ALL_TO_ALL, ExchangePattern::MULTICAST, ExchangePattern::AGGREGATION})
        {
            AddTestCase(new PacketEqualsFluidTrainingTestCase(mode, 0.0), TestCase::QUICK);
        }
        AddTestCase(new PacketEqualsFluidTrainingTestCase(ExchangePattern::AGGREGATION, 0.01),
                    TestCase::QUICK);
        AddTestCase(new ColocatedEquivalenceTestCase, TestCase::QUICK);
    }
};

static TrainingProxyTestSuite g_trainingProxyTestSuite;

} // namespace
