/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ns-3 TestSuite "intelligent-network-training": real parameter vectors (the MLP of the
// classification proxy task) through the simulated network. The packet-level run must train
// exactly what the pure C++ TrainingRun computes for the same task, seeds and schedule —
// averaging the received values (unicast, multicast) or the FPGA's fixed-point sums
// (aggregation, within the documented quantisation bound) — also under packet loss; identical
// data with full averaging must reproduce the colocated vector; and over the packet-level
// exchange, islands that never communicate must miss the target that colocated training and
// an all-in-one schedule reach.

#include "test-util.h"

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/test.h"

#include <map>

using namespace ns3;
using namespace ns3::intelligent_network_test;

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

/// A small classification task for \p islands islands: 8 inputs, 5 classes of 2 modes, one
/// hidden layer of \p hidden units (hidden 256: 3589 parameters, several segments of values).
ProxyTaskConfig
SmallTask(std::size_t islands, std::size_t hidden, double alpha, std::size_t rows)
{
    ProxyTaskConfig tc;
    tc.islands = islands;
    tc.samplesPerIsland = rows;
    tc.heldOutSamples = 400;
    tc.inputs = 8;
    tc.latent = 4;
    tc.classes = 5;
    tc.modesPerClass = 2;
    tc.modeNoise = 0.3;
    tc.hidden = {hidden};
    tc.alpha = alpha;
    tc.seed = 7;
    return tc;
}

/// SGD with momentum 0.9, learning rate 0.05, minibatches of \p batch rows.
LocalOptimizerConfig
Sgd(uint32_t batch)
{
    LocalOptimizerConfig inner;
    inner.learningRate = 0.05;
    inner.momentum = 0.9;
    inner.batchSize = batch;
    return inner;
}

/// Schedule of one round in which every city of \p cities sits alone.
Schedule
NoCommunication(const std::vector<std::string>& cities)
{
    std::vector<Clique> alone;
    for (const auto& c : cities)
    {
        alone.push_back({c});
    }
    return Schedule("no-communication", {ScheduleRound{alone, {}}});
}

class PacketEqualsFluidTrainingTestCase : public TestCase
{
  public:
    PacketEqualsFluidTrainingTestCase(ExchangePattern mode, double loss)
        : TestCase(std::string("packet-level training equals TrainingRun: ") + PatternName(mode) +
                   (loss > 0 ? ", 1% loss" : ""))
        , m_mode(mode)
        , m_loss(loss)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t rounds = 4;
        const uint32_t localSteps = 3;
        Topology topo = TopologyReader::ReadFile(kData + "/nine-city.topology");
        Schedule sched = Schedule::Load(kData + "/schedules/3x3-rotating.json", topo.CityCodes());
        std::vector<std::string> cities = sched.Cities();
        auto task = ProxyTask::Create(SmallTask(cities.size(), 256, 0.1, 256));
        NS_TEST_ASSERT_MSG_GT(task->Dimension(), 2048u, "more than one segment of values");
        LocalOptimizerConfig inner = Sgd(16);
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
        const bool aggregated = m_mode == ExchangePattern::AGGREGATION;
        config.sync = aggregated ? SyncMode::FIXED_POINT : SyncMode::EXACT;
        TrainingRunResult ref = reference.Run(config, TrainingRun::Periodic({1.0}));
        double diff = MaxDifference(learners, reference.Learners());
        double tolerance = aggregated ? 0.0 : 1e-9;
        NS_TEST_EXPECT_MSG_LT_OR_EQ(diff, tolerance, "vectors differ from TrainingRun by " << diff);
        if (aggregated)
        {
            // The FPGA's sums are those of TrainingRun bit for bit, so its per-round error
            // against the exact average is the one the pure model measures: within the bound.
            const double bound = FixedPoint(16).QuantizationBound();
            NS_TEST_EXPECT_MSG_EQ(ref.overflows, 0u, "no int32 overflow");
            for (const TrainingRoundRecord& round : ref.rounds)
            {
                NS_TEST_EXPECT_MSG_LT_OR_EQ(round.maxAverageError, bound,
                                            "round " << round.round
                                                     << ": fixed-point average off by "
                                                     << round.maxAverageError);
                NS_TEST_EXPECT_MSG_GT(round.maxAverageError, 0.0, "quantisation is modelled");
            }
        }
        // And training did something.
        double loss = TrainingMetrics::GlobalLoss(*task, TrainingMetrics::Vectors(learners));
        NS_TEST_EXPECT_MSG_LT(loss, ref.initial.loss, "training lowers the held-out loss");
        Simulator::Destroy();
    }

    ExchangePattern m_mode;
    double m_loss;
};

/// Identical data on every island, full-batch SGD with momentum, everyone in one clique every
/// round: after every round each island's vector equals the colocated trainer's to 1e-6.
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
        ProxyTaskConfig tc = SmallTask(cities.size(), 64, 0.1, 128);
        tc.identicalData = true;
        auto task = ProxyTask::Create(tc);
        LocalOptimizerConfig inner = Sgd(0); // full shard
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
        NS_TEST_EXPECT_MSG_GT((colocated.Vector() - task->InitialParameters()).norm(), 0.1,
                              "the model moved");
        Simulator::Destroy();
    }
};

/**
 * Time to target over the packet-level exchange. Label-skewed shards (alpha 0.05: each island
 * sees mostly one class); target: 90% of the colocated run's best held-out accuracy (same data,
 * same compute: one step of all islands' minibatches per ComputeTime). Scored on the islands'
 * own models (islands-mean): with the all-in-one schedule (multicast) the islands reach the
 * target within the run; islands that never communicate (every island alone every round, no
 * traffic) do not.
 */
class NoCommunicationMissesTargetTestCase : public TestCase
{
  public:
    NoCommunicationMissesTargetTestCase()
        : TestCase("packet level: no communication misses the target, all-in-one reaches it")
    {
    }

  private:
    /// Packet-level run of \p sched; returns the islands-mean curve (time, loss, accuracy).
    LossCurve Train(const Topology& topo, const Schedule& sched,
                    const std::shared_ptr<const ProxyTask>& task)
    {
        std::vector<std::string> cities = topo.CityCodes();
        auto learners = ProxyLearner::ForAllIslands(task, Sgd(16), OuterOptimizerConfig(), 5);
        ScenarioHelper s;
        s.SetTopology(topo);
        s.SetSchedule(sched);
        s.SetCapabilities(NetworkCapabilities::ForPattern(ExchangePattern::MULTICAST));
        s.SetRounds(kRounds);
        s.SetIslandAttribute("ModelBytes", UintegerValue(100000));
        s.SetIslandAttribute("LocalSteps", UintegerValue(kLocalSteps));
        s.SetIslandAttribute("ComputeTime", TimeValue(Seconds(kComputeS)));
        for (std::size_t i = 0; i < cities.size(); ++i)
        {
            s.SetLearner(cities[i], learners[i]);
        }
        Evaluation initial = task->HeldOut(task->InitialParameters());
        LossCurve curve{{0.0, initial.loss, initial.accuracy}};
        s.SetRoundObserver([&](uint32_t, double time) {
            auto vectors = TrainingMetrics::Vectors(learners);
            Evaluation score = TrainingMetrics::Score(
                TrainingMetrics::IslandEvaluations(*task, vectors),
                TrainingMetrics::AverageModel(*task, vectors), TargetMetric::ISLAND_MEAN);
            curve.push_back({time, score.loss, score.accuracy});
        });
        ScenarioResult r = s.Run();
        NS_TEST_EXPECT_MSG_EQ(r.complete, true, r.error);
        Simulator::Destroy();
        return curve;
    }

    void DoRun() override
    {
        Topology topo = TopologyReader::ReadFile(kData + "/nine-city.topology");
        std::vector<std::string> cities = topo.CityCodes();
        auto task = ProxyTask::Create(SmallTask(cities.size(), 32, 0.05, 200));
        ColocatedTrainer colocated(task, Sgd(16), kComputeS, 5);
        LossCurve reference = colocated.Run(kRounds * kLocalSteps, kLocalSteps);
        const double target = TrainingMetrics::TargetAccuracy(reference, 0.9);
        const double colocatedTime = TrainingMetrics::TimeToAccuracy(reference, target);
        NS_TEST_ASSERT_MSG_EQ(std::isfinite(colocatedTime), true, "colocated reaches its target");

        LossCurve all = Train(topo, BaselineSchedules::AllReduce(cities), task);
        LossCurve none = Train(topo, NoCommunication(cities), task);
        double allTime = TrainingMetrics::TimeToAccuracy(all, target);
        double noneTime = TrainingMetrics::TimeToAccuracy(none, target);
        NS_TEST_EXPECT_MSG_EQ(std::isfinite(allTime), true,
                              "all-in-one reaches " << target << ": best "
                                                    << TrainingMetrics::BestAccuracy(all));
        NS_TEST_EXPECT_MSG_GT(allTime, colocatedTime, "communication costs time");
        NS_TEST_EXPECT_MSG_EQ(std::isinf(noneTime), true,
                              "no communication misses " << target << ": best "
                                                         << TrainingMetrics::BestAccuracy(none));
        // The islands alone do learn their own classes (the miss is not a failure to train).
        NS_TEST_EXPECT_MSG_GT(TrainingMetrics::BestAccuracy(none), 1.5 * reference.front().accuracy,
                              "islands alone learn something");
    }

    static constexpr uint32_t kRounds = 30;
    static constexpr uint32_t kLocalSteps = 5;
    static constexpr double kComputeS = 0.01;
};

/// Counts its local-step calls (one per round); parameters constant.
class CountingLearner : public IslandLearner
{
  public:
    std::size_t Dimension() const override
    {
        return 16;
    }

    void LocalSteps(uint32_t, uint32_t) override
    {
        ++calls;
    }

    std::vector<double> Parameters() const override
    {
        return std::vector<double>(Dimension(), 1.0);
    }

    void Synchronize(uint32_t, const std::vector<std::vector<double>>&) override
    {
    }

    void SynchronizeSum(uint32_t, const std::vector<double>&, uint32_t) override
    {
    }

    uint32_t calls = 0;
};

/**
 * Without barriers the islands of a fast clique run rounds ahead of a slow one: what an island
 * holds after round r exists only when it finished r. The island-round observer sees every
 * island exactly then (r + 1 local-step calls); the round observer, when the last island
 * finished r, sees fast islands already further (before, training-proxy's training table
 * recorded those later states as round r; found by a training audit).
 */
class IslandRoundObserverTestCase : public TestCase
{
  public:
    IslandRoundObserverTestCase()
        : TestCase("without barriers, each island's state is observed as it finished the round")
    {
    }

  private:
    void DoRun() override
    {
        Topology topo = TopologyReader::ReadFile(kData + "/nine-city.topology");
        // AMS+LON (1.45 ms apart) and SIN+BAR (far) every round.
        Schedule sched("pairs", {ScheduleRound{{{"AMS", "LON"}, {"SIN", "BAR"}}, {}}});
        ScenarioHelper s;
        s.SetTopology(topo);
        s.SetSchedule(sched);
        s.SetRounds(4);
        s.SetBarrier(false);
        s.SetIslandAttribute("ModelBytes", UintegerValue(100000));
        s.SetIslandAttribute("ComputeTime", TimeValue(MilliSeconds(1)));
        std::map<std::string, std::shared_ptr<CountingLearner>> learners;
        for (const auto& city : sched.Cities())
        {
            learners[city] = std::make_shared<CountingLearner>();
            s.SetLearner(city, learners[city]);
        }
        uint32_t seen = 0;
        s.SetIslandRoundObserver([&](const std::string& city, uint32_t round) {
            ++seen;
            NS_TEST_EXPECT_MSG_EQ(learners.at(city)->calls, round + 1,
                                  city << " observed after round " << round);
        });
        uint32_t ahead = 0;
        s.SetRoundObserver([&](uint32_t round, double) {
            for (const auto& [city, l] : learners)
            {
                ahead += l->calls > round + 1 ? 1 : 0;
            }
        });
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        NS_TEST_EXPECT_MSG_EQ(seen, 4u * 4, "every island, every round");
        NS_TEST_EXPECT_MSG_GT(ahead, 0u, "the fast pair ran ahead (the case is not vacuous)");
        Simulator::Destroy();
    }
};

/// A learner's vector that does not fit the model is refused at Build(), naming the island.
class LearnerTooLargeTestCase : public TestCase
{
  public:
    LearnerTooLargeTestCase()
        : TestCase("a learner's vector larger than the model is refused before the run")
    {
    }

  private:
    void DoRun() override
    {
        Topology topo = TopologyReader::ReadFile(kData + "/nine-city.topology");
        ScenarioHelper s;
        s.SetTopology(topo);
        s.SetSchedule(Schedule("pair", {ScheduleRound{{{"AMS", "LON"}}, {}}}));
        s.SetIslandAttribute("ModelBytes", UintegerValue(100)); // 16 doubles need 128
        s.SetLearner("AMS", std::make_shared<CountingLearner>());
        std::string error = ErrorOf([&] { s.Build(); });
        NS_TEST_EXPECT_MSG_EQ(error,
                              "ModelBytes 100 is too small for the learner of AMS: its 16 "
                              "parameters travel as 8-byte doubles (at least 128 bytes)",
                              "refused at Build()");
        Simulator::Destroy();
    }
};

class TrainingProxyTestSuite : public TestSuite
{
  public:
    TrainingProxyTestSuite()
        : TestSuite("intelligent-network-training", UNIT)
    {
        for (ExchangePattern mode : {ExchangePattern::ALL_TO_ALL, ExchangePattern::MULTICAST,
                                     ExchangePattern::AGGREGATION})
        {
            AddTestCase(new PacketEqualsFluidTrainingTestCase(mode, 0.0), TestCase::QUICK);
        }
        AddTestCase(new PacketEqualsFluidTrainingTestCase(ExchangePattern::AGGREGATION, 0.01),
                    TestCase::QUICK);
        AddTestCase(new ColocatedEquivalenceTestCase, TestCase::QUICK);
        AddTestCase(new NoCommunicationMissesTargetTestCase, TestCase::QUICK);
        AddTestCase(new IslandRoundObserverTestCase, TestCase::QUICK);
        AddTestCase(new LearnerTooLargeTestCase, TestCase::QUICK);
    }
};

static TrainingProxyTestSuite g_trainingProxyTestSuite;

} // namespace
