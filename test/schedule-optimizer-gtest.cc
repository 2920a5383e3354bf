/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: ScheduleOptimizer -- the exact search against brute force and against an
// exhaustive reference on the nine-city table's configurations, more capability never worse
// (property test), every round counted, infeasible patterns skipped (32 islands with
// aggregation), the heuristic's bound, determinism, equal optima reported in one phase, bad
// input.

#include "ns3/baseline-schedules.h"
#include "ns3/consensus-objective.h"
#include "ns3/input-error.h"
#include "ns3/schedule-optimizer.h"
#include "ns3/synthetic-topology.h"
#include "ns3/training-time-objective.h"
#include "ns3/topology-reader.h"

#include "partitions-gtest-util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

NetworkGraph
NineCity(double rate)
{
    NetworkGraphOptions o;
    o.privateRateBps = rate;
    o.metroRateBps = rate;
    o.exchangeRateBps = rate;
    return NetworkGraph::FromTopology(
        TopologyReader::ReadFile(std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology"),
        o);
}

CostParameters
Params(double modelBytes, double computeS)
{
    CostParameters p;
    p.modelBytes = modelBytes;
    p.computeTimeS = computeS;
    return p;
}

NetworkCapabilities
Caps(const std::string& set)
{
    NetworkCapabilities c;
    c.SetSwitches(set);
    return c;
}

/// The cliques (two or more) of \p r as island nodes.
CostModel::NodeCliques
NodeCliques(const IndexRound& r, const std::vector<uint32_t>& nodes)
{
    CostModel::NodeCliques out;
    for (const auto& c : r)
    {
        if (c.size() >= 2)
        {
            std::vector<uint32_t> m;
            for (uint32_t i : c)
            {
                m.push_back(nodes[i]);
            }
            out.push_back(m);
        }
    }
    return out;
}

/// True if the two rounds together connect all n islands (an independent union-find).
bool
Connected(const IndexRound& a, const IndexRound& b, uint32_t n)
{
    std::vector<uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    std::function<uint32_t(uint32_t)> find = [&](uint32_t x) {
        return parent[x] == x ? x : parent[x] = find(parent[x]);
    };
    for (const auto* r : {&a, &b})
    {
        for (const auto& c : *r)
        {
            for (uint32_t i : c)
            {
                parent[find(i)] = find(c[0]);
            }
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (find(i) != find(0))
        {
            return false;
        }
    }
    return true;
}

/// Seconds to consensus in whole periods, from the metric itself.
double
ScoreOf(const ConsensusMetric& metric, const std::vector<IndexRound>& rounds,
        const std::vector<double>& times)
{
    ConsensusScore s = metric.Mixing(rounds);
    if (s.roundsToTarget == ConsensusScore::kNever)
    {
        return std::numeric_limits<double>::infinity();
    }
    double period = std::accumulate(times.begin(), times.end(), 0.0);
    std::size_t p = rounds.size();
    return static_cast<double>(std::max<std::size_t>((s.roundsToTarget + p - 1) / p, 1)) *
           period;
}

/// Block (clique) index of every island in a partition.
std::vector<uint32_t>
BlockOf(const IndexRound& r, uint32_t n)
{
    std::vector<uint32_t> out(n);
    for (uint32_t b = 0; b < r.size(); ++b)
    {
        for (uint32_t i : r[b])
        {
            out[i] = b;
        }
    }
    return out;
}

/// True if averaging in A then in B is exact: (W_B W_A)_ij = |B(i) & A(j)| / (|B(i)| |A(j)|)
/// equals 1/n for every i, j.
bool
ExactInTwo(const IndexRound& a, const IndexRound& b, uint32_t n)
{
    auto ba = BlockOf(a, n);
    auto bb = BlockOf(b, n);
    std::vector<std::vector<uint32_t>> common(b.size(), std::vector<uint32_t>(a.size(), 0));
    for (uint32_t i = 0; i < n; ++i)
    {
        ++common[bb[i]][ba[i]];
    }
    for (uint32_t x = 0; x < b.size(); ++x)
    {
        for (uint32_t y = 0; y < a.size(); ++y)
        {
            if (common[x][y] * n != b[x].size() * a[y].size())
            {
                return false;
            }
        }
    }
    return true;
}

/**
 * The period-2 optimum by exhaustive enumeration of ordered pairs of partitions, sharing only
 * the cost model with the optimizer. A pair is skipped only on simple, valid grounds: it does
 * not connect the islands; the sum of its rounds' lower bounds (CostModel::BestRoundLowerBound,
 * never above the round time) is not below the best score so far (a score is at least one
 * period); or that sum is at least half the best and the pair does not reach the target within
 * one period (neither the first round all-in-one nor the two rounds exact: two periods or more
 * cannot win). The rest get exact round times (CostModel::BestRound) and the number of rounds
 * to the target from ConsensusMetric::Error, round by round, as far as it could still win.
 */
double
ExhaustivePeriodTwo(const CostModel& cm, const std::vector<uint32_t>& nodes, bool prune)
{
    const auto n = static_cast<uint32_t>(nodes.size());
    auto parts = testutil::AllPartitions(n);
    ConsensusMetric metric(n);
    std::vector<double> lb(parts.size());
    std::vector<double> exact(parts.size(), -1);
    for (std::size_t i = 0; i < parts.size(); ++i)
    {
        lb[i] = prune ? cm.BestRoundLowerBound(NodeCliques(parts[i], nodes)) : 0.0;
    }
    std::vector<std::size_t> order(parts.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&lb](std::size_t x, std::size_t y) { return lb[x] < lb[y]; });
    auto time = [&](std::size_t i) {
        if (exact[i] < 0)
        {
            exact[i] = cm.BestRound(NodeCliques(parts[i], nodes)).roundS;
        }
        return exact[i];
    };
    // Start from the all-in-one round twice (a valid period-2 schedule).
    std::size_t aio = 0;
    for (std::size_t i = 0; i < parts.size(); ++i)
    {
        aio = parts[i].size() == 1 ? i : aio;
    }
    double best = 2 * time(aio);
    for (std::size_t a : order)
    {
        for (std::size_t b : order)
        {
            double sum = lb[a] + lb[b];
            if (sum >= best)
            {
                break;
            }
            if (!Connected(parts[a], parts[b], n))
            {
                continue;
            }
            bool onePeriod = parts[a].size() == 1 || ExactInTwo(parts[a], parts[b], n);
            if (2 * sum >= best && !onePeriod)
            {
                continue;
            }
            std::vector<IndexRound> rounds{parts[a], parts[b]};
            std::vector<double> times{time(a), time(b)};
            double period = times[0] + times[1];
            for (std::size_t k = 1; (k + 1) / 2 * period < best; ++k)
            {
                if (metric.Error(rounds, k) <= metric.Target())
                {
                    best = (k + 1) / 2 * period;
                    break;
                }
            }
            if (!prune)
            {
                // Without bounds every pair is scored in full (small instances only).
                best = std::min(best, ScoreOf(metric, rounds, times));
            }
        }
    }
    return best;
}

} // namespace

TEST(ScheduleOptimizer, BellNumbers)
{
    EXPECT_EQ(ScheduleOptimizer::BellNumber(0), 1u);
    EXPECT_EQ(ScheduleOptimizer::BellNumber(5), 52u);
    EXPECT_EQ(ScheduleOptimizer::BellNumber(6), 203u);
    EXPECT_EQ(ScheduleOptimizer::BellNumber(9), 21147u);
    EXPECT_EQ(ScheduleOptimizer::BellNumber(200), UINT64_MAX);
    EXPECT_EQ(testutil::AllPartitions(6).size(), 203u);
}

TEST(ScheduleOptimizer, PeriodOneIsTheAllInOneRoundWithItsBestPattern)
{
    NetworkGraph g = NineCity(10e9);
    CostModel cm(g, Caps("unicast,multicast"), Params(1e8, 0));
    ScheduleOptimizer opt(cm, {"AMS", "FRA", "LON", "NYC", "LAX"});
    OptimizerResult r = opt.Exact(1);
    EXPECT_EQ(r.method, "exact");
    EXPECT_TRUE(r.optimal);
    ASSERT_EQ(r.schedule.Period(), 1u);
    ASSERT_EQ(r.schedule.Rounds()[0].cliques.size(), 1u);
    EXPECT_EQ(r.schedule.Rounds()[0].cliques[0].size(), 5u);
    ASSERT_EQ(r.schedule.Rounds()[0].patterns.size(), 1u);
    std::vector<uint32_t> nodes;
    for (const auto& c : opt.Islands())
    {
        nodes.push_back(g.IslandNode(c));
    }
    RoundCost best = cm.BestRound({nodes});
    EXPECT_EQ(r.schedule.Rounds()[0].patterns[0], best.patterns[0]);
    EXPECT_DOUBLE_EQ(r.score, best.roundS);
    // Every pattern alone is at least as slow.
    for (ExchangePattern p : cm.Capabilities().AllowedPatterns())
    {
        EXPECT_GE(cm.Round({nodes}, {p}).roundS, best.roundS * (1 - 1e-12)) << PatternName(p);
    }
}

TEST(ScheduleOptimizer, ExactEqualsBruteForceOnSmallInstances)
{
    struct Case
    {
        std::vector<std::string> islands;
        std::string caps;
        double rate;
        double modelBytes;
        double computeS;
    };
    const std::vector<Case> cases{
        {{"AMS", "FRA", "LON", "NYC", "LAX"}, "unicast", 10e9, 1e9, 0},
        {{"AMS", "FRA", "NYC", "SEO", "TYO"}, "unicast", 10e9, 1e8, 0.05},
        {{"AMS", "BAR", "LON", "NYC", "LAX"}, "unicast,multicast", 100e9, 1e9, 0},
        {{"FRA", "LON", "NYC", "LAX", "SIN"}, "unicast,multicast,aggregation", 10e9, 1e9, 0.01},
        {{"AMS", "BAR", "FRA", "SEO", "SIN", "TYO"}, "unicast,multicast,aggregation", 100e9, 1e8,
         0.1},
    };
    for (const Case& c : cases)
    {
        NetworkGraph g = NineCity(c.rate);
        CostModel cm(g, Caps(c.caps), Params(c.modelBytes, c.computeS));
        std::vector<uint32_t> nodes;
        for (const auto& city : c.islands)
        {
            nodes.push_back(g.IslandNode(city));
        }
        ScheduleOptimizer opt(cm, c.islands);
        OptimizerResult r = opt.Exact(2);
        double brute = ExhaustivePeriodTwo(cm, nodes, false);
        EXPECT_NEAR(r.score, brute, 1e-9 * brute) << c.caps << " " << r.schedule.Describe();
        EXPECT_EQ(r.schedule.Period(), 2u);
        EXPECT_TRUE(r.optimal);
        // The reported score is what evaluating the returned schedule gives.
        OptimizerResult again = opt.Evaluate(r.schedule);
        EXPECT_NEAR(again.score, r.score, 1e-12 * r.score);
    }
}

TEST(ScheduleOptimizer, NineCityTableConfigurationsMatchTheExhaustiveOptimum)
{
    // The nine-city table: 10/100 Gbps x 100 MB/1 GB/10 GB, every capability set, 0.1 s of
    // compute per round: Optimize() returns the best of periods 1 and 2, proven optimal, and
    // never worse than the exact period-2 search. The independent exhaustive reference
    // (ExhaustivePeriodTwo, minutes for all 18 cells on two cores) checks the cells where the
    // annealer used to miss (aggregation at 10 Gbps, issue 12) and one cell per other set;
    // ExactEqualsBruteForceOnSmallInstances checks the exact search without any pruning.
    std::vector<uint32_t> nodes;
    for (uint32_t i = 0; i < 9; ++i)
    {
        nodes.push_back(i);
    }
    const std::set<std::string> referenced{"10 1e+09 unicast,multicast,aggregation",
                                           "10 1e+10 unicast,multicast,aggregation",
                                           "100 1e+08 unicast",
                                           "10 1e+09 unicast,multicast"};
    int checked = 0;
    for (double rate : {10e9, 100e9})
    {
        NetworkGraph g = NineCity(rate);
        for (double model : {1e8, 1e9, 1e10})
        {
            for (const char* set :
                 {"unicast", "unicast,multicast", "unicast,multicast,aggregation"})
            {
                std::ostringstream cell;
                cell << rate / 1e9 << " " << model << " " << set;
                CostModel cm(g, Caps(set), Params(model, 0.1));
                OptimizerResult best = ScheduleOptimizer(cm, g.IslandCities()).Optimize();
                EXPECT_TRUE(best.optimal) << cell.str();
                EXPECT_DOUBLE_EQ(best.gap, 0.0);
                if (referenced.count(cell.str()))
                {
                    OptimizerResult r = ScheduleOptimizer(cm, g.IslandCities()).Exact(2);
                    EXPECT_TRUE(r.optimal) << cell.str();
                    double reference = ExhaustivePeriodTwo(cm, nodes, true);
                    EXPECT_NEAR(r.score, reference, 1e-9 * reference)
                        << cell.str() << ": " << r.schedule.Describe();
                    EXPECT_LE(best.score, r.score * (1 + 1e-12)) << cell.str();
                    ++checked;
                }
            }
        }
    }
    EXPECT_EQ(checked, static_cast<int>(referenced.size()));
}

TEST(ScheduleOptimizer, MoreCapabilityNeverMakesTheBestScheduleWorse)
{
    // Property test: random synthetic topologies (4-6 cities, FPGAs on a random subset of
    // devices, so that some cliques cannot aggregate), model sizes, link rates and compute
    // times: best score with {unicast} >= with +multicast >= with +aggregation.
    std::mt19937_64 rng(20240611);
    int instances = 0;
    int strictlyBetter = 0;
    for (int i = 0; i < 100; ++i)
    {
        SyntheticTopologyOptions so;
        so.cities = 4 + rng() % 3;
        so.seed = rng();
        so.privateCapacityBps = std::pow(10.0, 9 + static_cast<double>(rng() % 3));
        so.edgeCapacityBps = so.privateCapacityBps;
        Topology t = SyntheticTopology::Generate(so);
        NetworkGraph g = NetworkGraph::FromTopology(t);
        double model = std::pow(10.0, 7 + static_cast<double>(rng() % 300) / 100.0);
        double compute = static_cast<double>(rng() % 5) * 0.05;
        std::vector<std::string> fpgas;
        for (const auto& node : g.Nodes())
        {
            if (node.kind == NodeKind::DEVICE && rng() % 2 == 0)
            {
                fpgas.push_back(node.name);
            }
        }
        double previous = std::numeric_limits<double>::infinity();
        for (const char* set : {"unicast", "unicast,multicast", "unicast,multicast,aggregation"})
        {
            NetworkCapabilities caps = Caps(set);
            if (!fpgas.empty())
            {
                caps.fpgaOnAllDevices = false;
                caps.fpgaDevices = fpgas;
            }
            CostModel cm(g, caps, Params(model, compute));
            OptimizerResult r = ScheduleOptimizer(cm, t.CityCodes()).Optimize();
            ASSERT_TRUE(std::isfinite(r.score)) << set;
            EXPECT_TRUE(r.optimal);
            EXPECT_LE(r.score, previous * (1 + 1e-12))
                << "instance " << i << " (" << so.cities << " cities, seed " << so.seed
                << ", model " << model << ") with " << set;
            strictlyBetter += r.score < previous * (1 - 1e-9) && std::isfinite(previous) ? 1 : 0;
            previous = r.score;
        }
        ++instances;
    }
    EXPECT_EQ(instances, 100);
    // The property is not vacuous: richer sets do win somewhere.
    EXPECT_GT(strictlyBetter, 10);
}

TEST(ScheduleOptimizer, EqualOptimaAreReportedInOnePhase)
{
    // The rotations of a periodic schedule tie in every objective (the same steady state), but
    // a finite training run sees the phase. The training table's case: all nine islands at
    // 10 Gbps, 1 GB, 1 s of local work per round, the training objective, periods up to 3.
    // Multicast does not help the optimum here ({unicast}'s best schedule, a tree all-reduce
    // every third round, is also +multicast's), so both sets must report it in the same phase
    // (before: 1 | 9 | 1 with {unicast}, 9 | 1 | 1 with +multicast, from the heuristic's search
    // order; the training table's times to target then differed, 53.5 s against 62.4 s).
    NetworkGraph g = NineCity(10e9);
    const std::vector<std::string> islands = g.IslandCities();
    OptimizerOptions o;
    o.maxPeriod = 3;
    o.exactPeriod = 1;
    o.objective = std::make_shared<TrainingTimeObjective>(islands.size());
    std::vector<OptimizerResult> results;
    for (const char* set : {"unicast", "unicast,multicast"})
    {
        CostModel cm(g, Caps(set), Params(1e9, 1.0));
        ScheduleOptimizer opt(cm, islands, o);
        OptimizerResult r = opt.Optimize();
        ASSERT_TRUE(std::isfinite(r.score)) << set;
        // No rotation of the reported schedule scores better, and an equal one is not
        // preferred by the tie rule (the reported phase is the same whatever found it).
        const auto& rounds = r.schedule.Rounds();
        for (std::size_t k = 1; k < rounds.size(); ++k)
        {
            std::vector<ScheduleRound> rotated(rounds.begin() + k, rounds.end());
            rotated.insert(rotated.end(), rounds.begin(), rounds.begin() + k);
            OptimizerResult e = opt.Evaluate(Schedule("rotated", rotated));
            EXPECT_GE(e.score, r.score * (1 - 1e-12)) << set << ", rotation " << k;
        }
        results.push_back(r);
    }
    EXPECT_NEAR(results[0].score, results[1].score, 1e-12 * results[0].score);
    EXPECT_EQ(ScheduleOptimizer::CliqueSizes(results[0].schedule),
              ScheduleOptimizer::CliqueSizes(results[1].schedule));
    EXPECT_GT(results[0].schedule.Rounds().size(), 1u); // a real phase to choose
}

TEST(ScheduleOptimizer, EveryRoundOfThePeriodCounts)
{
    NetworkGraph g = NineCity(10e9);
    CostModel cm(g, Caps("unicast"), Params(1e8, 0.1));
    std::vector<std::string> islands{"AMS", "FRA", "LON", "NYC"};
    ScheduleOptimizer opt(cm, islands);
    Schedule aio = BaselineSchedules::AllReduce(islands);
    ScheduleRound alone;
    for (const auto& c : islands)
    {
        alone.cliques.push_back({c});
    }
    Schedule withIdle("aio+idle", {aio.Rounds()[0], alone});
    OptimizerResult a = opt.Evaluate(aio);
    OptimizerResult b = opt.Evaluate(withIdle);
    // The idle round reaches nothing more but still runs every period: it costs its compute.
    EXPECT_NEAR(b.score, a.score + 0.1, 1e-12);
    EXPECT_GT(b.score, a.score);
    ScheduleRound pair{{{"AMS", "FRA"}}, {}};
    OptimizerResult c = opt.Evaluate(Schedule("aio+pair", {aio.Rounds()[0], pair}));
    EXPECT_NEAR(c.score, a.score + c.roundTimes[1], 1e-12);
}

TEST(ScheduleOptimizer, EvaluateKeepsTheGivenPatterns)
{
    NetworkGraph g = NineCity(10e9);
    CostModel cm(g, Caps("unicast,multicast"), Params(1e9, 0));
    std::vector<std::string> islands{"AMS", "FRA", "LON", "NYC", "LAX"};
    ScheduleOptimizer opt(cm, islands);
    std::vector<uint32_t> nodes;
    for (const auto& c : islands)
    {
        nodes.push_back(g.IslandNode(c));
    }
    for (ExchangePattern p : cm.Capabilities().AllowedPatterns())
    {
        OptimizerResult r = opt.Evaluate(BaselineSchedules::Collective(islands, p));
        EXPECT_DOUBLE_EQ(r.score, cm.Round({nodes}, {p}).roundS) << PatternName(p);
        ASSERT_EQ(r.schedule.Rounds()[0].patterns.size(), 1u);
        EXPECT_EQ(r.schedule.Rounds()[0].patterns[0], p);
    }
    // Without patterns the best is chosen, and it beats every fixed one.
    OptimizerResult free = opt.Evaluate(BaselineSchedules::AllReduce(islands));
    EXPECT_DOUBLE_EQ(free.score, cm.BestRound({nodes}).roundS);
    // The search's cache keeps best-pattern costs: the optimum is unaffected.
    EXPECT_DOUBLE_EQ(opt.Exact(1).score, free.score);
}

TEST(ScheduleOptimizer, EvaluateScoresTheScheduleInItsOwnPhase)
{
    // Under the consensus objective (rounds to target counted from the first round) a rotation
    // can score differently: DiLoCo-4 with its all-island round last needs four rounds. The
    // baseline is scored as built (before: as its best rotation, the all-island round first,
    // one round; found by an optimizer audit).
    NetworkGraph g = NineCity(10e9);
    CostModel cm(g, Caps("unicast"), Params(1e9, 0.1));
    std::vector<std::string> islands{"AMS", "FRA", "LON", "NYC"};
    OptimizerOptions o;
    o.objective = std::make_shared<ConsensusTimeObjective>(islands.size());
    ScheduleOptimizer opt(cm, islands, o);
    Schedule diloco = BaselineSchedules::DiLoCo(islands, 4);
    OptimizerResult r = opt.Evaluate(diloco);
    ASSERT_EQ(r.schedule.Period(), 4u);
    for (std::size_t k = 0; k < 4; ++k)
    {
        EXPECT_EQ(r.schedule.Rounds()[k].cliques.size(), diloco.Rounds()[k].cliques.size()) << k;
    }
    EXPECT_EQ(r.consensus.roundsToTarget, 4u);
}

TEST(ScheduleOptimizer, ThirtyTwoIslandsWithAggregationComplete)
{
    // Islands joined only by public paths (no device, no FPGA) cannot aggregate: such cliques
    // are skipped, the search completes.
    Topology t = SyntheticTopology::Generate({32, 1});
    NetworkGraph g = NetworkGraph::FromTopology(t);
    CostModel cm(g, Caps("unicast,multicast,aggregation"), Params(1e9, 0.1));
    bool someInfeasible = false;
    for (uint32_t a = 0; a < 32 && !someInfeasible; ++a)
    {
        for (uint32_t b = a + 1; b < 32 && !someInfeasible; ++b)
        {
            someInfeasible = !cm.Feasible({a, b}, ExchangePattern::AGGREGATION);
        }
    }
    EXPECT_TRUE(someInfeasible) << "the case the issue saw abort";
    OptimizerOptions o;
    o.iterations = 150;
    o.starts = 2;
    OptimizerResult r = ScheduleOptimizer(cm, t.CityCodes(), o).Optimize();
    EXPECT_TRUE(std::isfinite(r.score));
    r.schedule.Validate(t.CityCodes());
    EXPECT_FALSE(r.optimal);
    EXPECT_GT(r.bound, 0);
    EXPECT_LE(r.bound, r.score);
    EXPECT_NEAR(r.gap, r.score / r.bound - 1, 1e-12);
}

TEST(ScheduleOptimizer, HeuristicBoundIsBelowTheOptimumAndDeterministic)
{
    NetworkGraph g = NineCity(10e9);
    for (const char* set : {"unicast", "unicast,multicast,aggregation"})
    {
        CostModel cm(g, Caps(set), Params(1e9, 0.1));
        OptimizerResult exact = ScheduleOptimizer(cm, g.IslandCities()).Optimize();
        ASSERT_TRUE(exact.optimal);
        OptimizerOptions o;
        o.exactIslands = 0; // force the heuristic for period 2
        o.iterations = 400;
        OptimizerResult h1 = ScheduleOptimizer(cm, g.IslandCities(), o).Optimize();
        OptimizerResult h2 = ScheduleOptimizer(cm, g.IslandCities(), o).Optimize();
        EXPECT_FALSE(h1.optimal);
        EXPECT_EQ(h1.schedule.ToJson(), h2.schedule.ToJson());
        EXPECT_EQ(h1.score, h2.score);
        // Nothing beats the optimum, and the bound is a true lower bound of it.
        EXPECT_GE(h1.score, exact.score * (1 - 1e-12)) << set;
        EXPECT_LE(h1.bound, exact.score * (1 + 1e-12)) << set;
        EXPECT_GE(h1.gap, 0);
        // The bound of a heuristic period is at most the score of every baseline of it.
        ScheduleOptimizer probe(cm, g.IslandCities(), o);
        double bound2 = probe.PeriodLowerBound(2);
        auto geo = BaselineSchedules::NearestNeighbourOrder(cm.Routes(), g.IslandCities());
        EXPECT_LE(bound2, probe.Evaluate(BaselineSchedules::Grid(geo)).score);
    }
}

TEST(ScheduleOptimizer, CandidateBudgetReturnsTheBestSoFarWithAValidGap)
{
    // A budget of candidates stops the heuristic early: the result is the best schedule seen
    // so far, reproducible for a seed, never better than the optimum, with a bound at most the
    // optimum (periods not searched still count by their bound) and gap = score / bound - 1.
    NetworkGraph g = NineCity(10e9);
    for (const char* set : {"unicast", "unicast,multicast,aggregation"})
    {
        CostModel cm(g, Caps(set), Params(1e9, 0.1));
        OptimizerResult exact = ScheduleOptimizer(cm, g.IslandCities()).Optimize();
        ASSERT_TRUE(exact.optimal);
        OptimizerOptions full;
        full.exactIslands = 0; // the heuristic for every period above 1
        full.maxPeriod = 3;
        full.iterations = 300;
        OptimizerResult unlimited = ScheduleOptimizer(cm, g.IslandCities(), full).Optimize();
        EXPECT_FALSE(unlimited.budgetExhausted) << set;
        OptimizerOptions o = full;
        o.budgetCandidates = 60;
        OptimizerResult a = ScheduleOptimizer(cm, g.IslandCities(), o).Optimize();
        OptimizerResult b = ScheduleOptimizer(cm, g.IslandCities(), o).Optimize();
        EXPECT_TRUE(a.budgetExhausted) << set;
        EXPECT_LT(a.evaluated, unlimited.evaluated) << set;
        EXPECT_EQ(a.schedule.ToJson(), b.schedule.ToJson()) << set;
        EXPECT_EQ(a.score, b.score) << set;
        EXPECT_EQ(a.bound, b.bound) << set;
        EXPECT_FALSE(a.optimal) << set;
        EXPECT_TRUE(std::isfinite(a.score)) << set;
        EXPECT_GE(a.score, exact.score * (1 - 1e-12)) << set;
        EXPECT_GT(a.bound, 0) << set;
        EXPECT_LE(a.bound, exact.score * (1 + 1e-12)) << set;
        EXPECT_LE(a.bound, a.score) << set;
        EXPECT_GE(a.gap, 0) << set;
        EXPECT_NEAR(a.gap, a.score / a.bound - 1, 1e-12) << set;
        // The schedule is scored as reported.
        ScheduleOptimizer probe(cm, g.IslandCities());
        EXPECT_NEAR(probe.Evaluate(a.schedule).score, a.score, 1e-9 * a.score) << set;
        // Spent by the period-1 optimum: periods 2 and 3 are not searched, but their bounds
        // still count (the optimum lies there when it beats the all-in-one round).
        OptimizerOptions one = full;
        one.budgetCandidates = 1;
        OptimizerResult d = ScheduleOptimizer(cm, g.IslandCities(), one).Optimize();
        EXPECT_TRUE(d.budgetExhausted) << set;
        EXPECT_EQ(d.schedule.Period(), 1u) << set;
        EXPECT_LE(d.bound, exact.score * (1 + 1e-12)) << set;
        EXPECT_LT(d.bound, d.score) << set;
        // A wall-clock budget that is already spent after the first candidate: still a
        // finite schedule and a valid bound, never an abort.
        OptimizerOptions t = full;
        t.budgetS = 1e-9;
        OptimizerResult c = ScheduleOptimizer(cm, g.IslandCities(), t).Optimize();
        EXPECT_TRUE(c.budgetExhausted) << set;
        EXPECT_TRUE(std::isfinite(c.score)) << set;
        EXPECT_LE(c.bound, exact.score * (1 + 1e-12)) << set;
        EXPECT_GE(c.gap, 0) << set;
        // The exact search does not stop for a budget: a result proven optimal never reports
        // the budget spent, however small (it did when a seed had spent it; optimizer audit).
        OptimizerOptions tiny;
        tiny.budgetCandidates = 1;
        OptimizerResult e = ScheduleOptimizer(cm, g.IslandCities(), tiny).Optimize();
        EXPECT_TRUE(e.optimal) << set;
        EXPECT_FALSE(e.budgetExhausted) << set;
        EXPECT_EQ(e.score, exact.score) << set;
    }
    OptimizerOptions bad;
    bad.budgetS = -1;
    CostModel cm(g, NetworkCapabilities{}, Params(1e8, 0));
    EXPECT_THROW(ScheduleOptimizer(cm, g.IslandCities(), bad), std::invalid_argument);
}

TEST(ScheduleOptimizer, PeriodBoundCountsTheThinnestCutBetweenIslands)
{
    // Two pairs of islands (A, B behind X; C, D behind Y, 100 Gbps access) joined by one
    // 1 Gbps link X - Y: any connected period has a round whose clique crosses it both ways
    // with at least one model, so every period costs at least M/1 Gbps (the islands' own links
    // alone would give M/100 Gbps). The bound stays below the exact optimum.
    NetworkGraph g;
    for (const char* i : {"A", "B", "C", "D"})
    {
        g.AddNode(GraphNode{i, NodeKind::ISLAND, i});
    }
    g.AddNode(GraphNode{"X", NodeKind::DEVICE, "X"});
    g.AddNode(GraphNode{"Y", NodeKind::DEVICE, "Y"});
    auto link = [&g](const char* a, const char* b, double rate) {
        g.AddEdge(GraphEdge{g.NodeByName(a), g.NodeByName(b), 0.001, rate, EdgeKind::PRIVATE});
    };
    link("A", "X", 100e9);
    link("B", "X", 100e9);
    link("C", "Y", 100e9);
    link("D", "Y", 100e9);
    link("X", "Y", 1e9);
    for (const char* set : {"unicast", "unicast,multicast,aggregation"})
    {
        CostModel cm(g, Caps(set), Params(1e8, 0));
        const double cut = cm.Parameters().ModelWireBits() / 1e9;
        OptimizerResult exact = ScheduleOptimizer(cm, {"A", "B", "C", "D"}).Optimize();
        ASSERT_TRUE(exact.optimal);
        OptimizerOptions o;
        o.exactIslands = 0;
        o.iterations = 100;
        ScheduleOptimizer heuristic(cm, {"A", "B", "C", "D"}, o);
        for (std::size_t p = 1; p <= 2; ++p)
        {
            EXPECT_GE(heuristic.PeriodLowerBound(p), cut) << set << " period " << p;
        }
        OptimizerResult h = heuristic.Optimize();
        EXPECT_GE(h.bound, cut) << set;
        EXPECT_LE(h.bound, exact.score * (1 + 1e-12)) << set;
        EXPECT_GE(h.gap, 0) << set;
    }
}

TEST(ScheduleOptimizer, LimitedMixingAgreesWithTheFullMetric)
{
    // The objective may stop early under a limit; what it returns must agree with the full
    // computation on random pairs of partitions.
    const uint32_t n = 7;
    auto parts = testutil::AllPartitions(n);
    ConsensusTimeObjective objective(n);
    std::mt19937_64 rng(7);
    for (int i = 0; i < 2000; ++i)
    {
        std::vector<IndexRound> rounds{parts[rng() % parts.size()], parts[rng() % parts.size()]};
        std::vector<double> bounds{0.5 + 0.01 * (rng() % 100), 0.5 + 0.01 * (rng() % 100)};
        double limit = 0.5 + 0.05 * (rng() % 100);
        MixingSummary full = objective.Mixing(rounds, {}, std::numeric_limits<double>::infinity());
        MixingSummary lim = objective.Mixing(rounds, bounds, limit);
        double fullScore = objective.Score(full, bounds);
        if (lim.limited)
        {
            EXPECT_GE(fullScore, limit * (1 - 1e-12));
        }
        else
        {
            ASSERT_TRUE(lim.reaches);
            EXPECT_EQ(lim.consensus.roundsToTarget, full.consensus.roundsToTarget);
        }
    }
}

TEST(ScheduleOptimizer, BadInputIsRejected)
{
    NetworkGraph g = NineCity(10e9);
    CostModel cm(g, NetworkCapabilities{}, Params(1e8, 0));
    EXPECT_THROW(ScheduleOptimizer(cm, {}), std::invalid_argument);
    EXPECT_THROW(ScheduleOptimizer(cm, {"AMS", "AMS"}), std::invalid_argument);
    EXPECT_THROW(ScheduleOptimizer(cm, {"AMS", "XYZ"}), InputError);
    OptimizerOptions o;
    o.maxPeriod = 0;
    EXPECT_THROW(ScheduleOptimizer(cm, {"AMS", "FRA"}, o), std::invalid_argument);
    ScheduleOptimizer opt(cm, g.IslandCities());
    EXPECT_THROW(opt.Exact(4), std::invalid_argument); // 21147^4 schedules
    EXPECT_THROW(opt.Heuristic(0), std::invalid_argument);
    EXPECT_THROW(opt.Evaluate(Schedule("s", {ScheduleRound{{{"AMS", "ZZZ"}}, {}}})), InputError);
    // A pattern the capability set does not allow.
    EXPECT_THROW(opt.Evaluate(BaselineSchedules::Collective({"AMS", "FRA"},
                                                            ExchangePattern::MULTICAST)),
                 std::invalid_argument);
}
