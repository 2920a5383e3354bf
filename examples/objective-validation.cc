/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Does the optimizer's objective predict training time? For every capability set ({unicast},
// +multicast, +aggregation) this scores a fixed family of schedules -- the baselines,
// DiLoCo-h, exact pairs (period-2 rotating cliques that average exactly, relabelled at
// random), random connected schedules, and the optimizer's outputs under both objectives --
// with both objectives (ConsensusTimeObjective, TrainingTimeObjective) from the fluid
// CostModel's round times, then trains the proxy task under each schedule (GapEvaluator: the
// classification MLP on label-skewed shards, real inner steps, exact averaging or the FPGAs'
// fixed-point sums) and records the time to each target fraction of colocated's best held-out
// accuracy. One CSV row per (capability set, schedule) goes to --validationOut:
//
//   capabilities,schedule,kind,period,mean_round_s,disagreement,disagreement_best,
//   consensus_score,training_score,time_<fraction>...   (time empty where never reached)
//
// scripts/objective-validation.py computes Spearman's rank correlation per capability set and
// target from it (the training score for any weights k, m is mean_round_s x (1 + k x
// disagreement + m x disagreement_best), so one run serves calibration and validation). The
// optimizer's outputs of periods >= 2 come from its heuristic (the exact search of period 2 on
// nine islands is too slow for a validation sweep); the same (schedule, round times) is
// trained once and reused across capability sets.
//
//   ./objective-validation --seed=2 --modelBytes=1e9 --linkRate=10e9 --validationOut=v.csv

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <numeric>
#include <random>
#include <sstream>

using namespace ns3;

namespace
{

/// A schedule to score and train, with where it comes from.
struct Candidate
{
    Schedule schedule;
    std::string kind;
};

Schedule
FromRounds(const std::string& name, const std::vector<IndexRound>& rounds,
           const std::vector<std::string>& islands)
{
    std::vector<ScheduleRound> out;
    for (const IndexRound& r : rounds)
    {
        ScheduleRound sr;
        for (const auto& c : r)
        {
            if (c.size() >= 2)
            {
                Clique clique;
                for (uint32_t i : c)
                {
                    clique.push_back(islands[i]);
                }
                sr.cliques.push_back(clique);
            }
        }
        out.push_back(sr);
    }
    return Schedule(name, out);
}

/// The schedule family (independent of the capability set), seeded.
std::vector<Candidate>
Family(const std::vector<std::string>& islands, std::size_t randomCount, uint64_t seed,
       const TrainingTimeObjective& objective)
{
    const uint32_t n = islands.size();
    std::vector<Candidate> out;
    for (const Baseline& b : BaselineSchedules::All(islands, 4))
    {
        out.push_back({b.schedule, "baseline"});
    }
    for (std::size_t h : {2, 3, 6, 8})
    {
        out.push_back({BaselineSchedules::DiLoCo(islands, h), "diloco"});
    }
    std::mt19937_64 rng(seed);
    // Exact pairs: a g x (n/g) grid of islands, rows then columns, under random relabellings.
    for (uint32_t g = 2; g * 2 <= n; ++g)
    {
        if (n % g != 0)
        {
            continue;
        }
        for (int copy = 0; copy < 3; ++copy)
        {
            std::vector<uint32_t> perm(n);
            std::iota(perm.begin(), perm.end(), 0);
            std::shuffle(perm.begin(), perm.end(), rng);
            IndexRound rows(g);
            IndexRound cols(n / g);
            for (uint32_t i = 0; i < n; ++i)
            {
                rows[i / (n / g)].push_back(perm[i]);
                cols[i % (n / g)].push_back(perm[i]);
            }
            out.push_back({FromRounds("exact-pair-" + std::to_string(g) + "x" +
                                          std::to_string(n / g) + "-" + std::to_string(copy),
                                      {rows, cols}, islands),
                           "exact-pair"});
        }
    }
    // Random connected schedules: period 1..4, each round a random partition into 1..n/2+1
    // groups (rejection of disconnected periods).
    std::size_t made = 0;
    while (made < randomCount)
    {
        std::size_t period = 1 + rng() % 4;
        std::vector<IndexRound> rounds;
        for (std::size_t r = 0; r < period; ++r)
        {
            uint32_t groups = 1 + rng() % (n / 2 + 1);
            IndexRound round(groups);
            for (uint32_t i = 0; i < n; ++i)
            {
                round[rng() % groups].push_back(i);
            }
            round.erase(std::remove_if(round.begin(), round.end(),
                                       [](const auto& c) { return c.empty(); }),
                        round.end());
            rounds.push_back(round);
        }
        if (!std::isfinite(objective.Disagreement(rounds)))
        {
            continue;
        }
        out.push_back({FromRounds("random-" + std::to_string(made), rounds, islands), "random"});
        ++made;
    }
    return out;
}

std::string
Number(double v)
{
    if (!std::isfinite(v))
    {
        return "";
    }
    std::ostringstream o;
    o.precision(10);
    o << v;
    return o.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    ExperimentOptions options("objective-validation",
                              {"topology", "network", "optimizer", "island", "fpga", "fluid",
                               "validation"});
    options.Add("capabilities");
    options.Add("referenceHorizon");
    options.Add("horizon");
    options.SetSimulates(false);
    options.Parse(argc, argv);
    try
    {
        const std::vector<double> targets = [&] {
            std::vector<double> t;
            for (const auto& s : options.GetList("targets"))
            {
                t.push_back(OptionValidator::ParseNumber("--targets", s));
                if (!(t.back() > 0 && t.back() <= 1))
                {
                    throw std::invalid_argument("--targets: every fraction must be in (0, 1]");
                }
            }
            if (t.empty())
            {
                throw std::invalid_argument("--targets: at least one fraction");
            }
            std::sort(t.begin(), t.end());
            return t;
        }();
        const double horizon = options.GetDouble("horizon");
        const uint64_t seed = options.GetInteger("seed");
        Topology topology = options.LoadTopology();
        NetworkGraph graph = NetworkGraph::FromTopology(topology, options.ToGraphOptions());
        const std::vector<std::string> islands = options.OptimizerIslands(topology, graph);
        const CostParameters params = options.ToCostParameters();
        auto training = std::make_shared<TrainingTimeObjective>(
            islands.size(), options.GetDouble("disagreementWeight"),
            options.GetDouble("bestRoundWeight"));
        auto consensus = std::make_shared<ConsensusTimeObjective>(islands.size());

        // Bad input is refused before any training: the capabilities (e.g. --fpgaDevices) and
        // the output file.
        (void)options.ToCapabilities(topology);
        std::ofstream csv(options.GetText("validationOut"));
        if (!csv)
        {
            throw std::invalid_argument("--validationOut: cannot write '" +
                                        options.GetText("validationOut") + "'");
        }

        GapSetup setup;
        setup.task.islands = islands.size();
        setup.task.seed = seed;
        setup.task.samplesPerIsland =
            ProxyTaskConfig::DefaultSamplesPerIsland(setup.task.kind, setup.task.dataset);
        setup.inner.learningRate = 0.05;
        setup.inner.momentum = 0.9;
        setup.inner.batchSize = 32;
        setup.localSteps = params.localSteps;
        setup.computeTimeS = params.computeTimeS;
        setup.targetFraction = targets.back();
        setup.referenceHorizonS = options.GetDouble("referenceHorizon");
        setup.seed = seed;
        GapEvaluator evaluator(setup);
        std::cerr << "colocated best accuracy " << evaluator.BestAccuracy() << ", reaches "
                  << evaluator.TargetAccuracy() << " at " << evaluator.ColocatedTimeToTarget()
                  << " s\n";

        std::vector<Candidate> family =
            Family(islands, options.GetInteger("randomSchedules"), seed, *training);
        csv << "capabilities,schedule,kind,period,mean_round_s,disagreement,disagreement_best,"
               "consensus_score,training_score";
        for (double t : targets)
        {
            csv << ",time_" << t;
        }
        csv << "\n";
        csv << "colocated,colocated,colocated,1," << params.computeTimeS * params.localSteps
            << ",0,0,,";
        for (double t : targets)
        {
            csv << ","
                << Number(TrainingMetrics::TimeToAccuracy(evaluator.ColocatedCurve(),
                                                          t * evaluator.BestAccuracy()));
        }
        csv << "\n";

        std::map<std::string, LossCurve> trained; // (schedule, sync, times) -> curve
        std::vector<std::string> sets{"unicast", "unicast,multicast",
                                      "unicast,multicast,aggregation"};
        if (!options.GetText("capabilities").empty())
        {
            sets = {options.GetText("capabilities")}; // one set (parallel runs)
        }
        for (const std::string& set : sets)
        {
            NetworkCapabilities caps = options.ToCapabilities(topology);
            caps.SetSwitches(set);
            CostModel cost(graph, caps, params);
            std::vector<Candidate> candidates = family;
            for (const auto& objective :
                 std::vector<std::shared_ptr<const ScheduleObjective>>{consensus, training})
            {
                OptimizerOptions oo = options.ToOptimizerOptions(islands.size());
                oo.objective = objective;
                oo.exactPeriod = 1;
                for (std::size_t p = 1; p <= oo.maxPeriod; ++p)
                {
                    OptimizerOptions one = oo;
                    one.maxPeriod = p;
                    Schedule best = ScheduleOptimizer(cost, islands, one).Optimize().schedule;
                    best.SetName("optimized-" + objective->Name() + "-p" + std::to_string(p));
                    candidates.push_back({best, "optimizer"});
                }
            }
            ScheduleOptimizer scorer(cost, islands, [&] {
                OptimizerOptions oo;
                oo.objective = training;
                return oo;
            }());
            const SyncMode sync = caps.aggregation ? SyncMode::FIXED_POINT : SyncMode::EXACT;
            for (const Candidate& c : candidates)
            {
                OptimizerResult r = scorer.Evaluate(c.schedule);
                std::vector<IndexRound> rounds = ConsensusMetric::ToIndices(c.schedule, islands);
                double mean = 0;
                for (double t : r.roundTimes)
                {
                    mean += t / r.roundTimes.size();
                }
                double consensusScore =
                    consensus->Score(consensus->Mixing(rounds, {}, INFINITY), r.roundTimes);
                std::ostringstream key;
                key << c.schedule.Describe() << "|" << (sync == SyncMode::FIXED_POINT);
                for (double t : r.roundTimes)
                {
                    key << "|" << Number(t);
                }
                auto hit = trained.find(key.str());
                if (hit == trained.end())
                {
                    hit = trained
                              .emplace(key.str(), evaluator.Evaluate(c.schedule, islands,
                                                                     r.roundTimes, horizon, sync,
                                                                     16, true)
                                                      .curve)
                              .first;
                }
                const LossCurve& curve = hit->second;
                SteadyDisagreement d = training->Steady(rounds);
                csv << "\"" << set << "\"," << c.schedule.GetName() << "," << c.kind << ","
                    << c.schedule.Period() << "," << Number(mean) << ","
                    << Number(d.mean) << "," << Number(d.best) << "," << Number(consensusScore)
                    << "," << Number(r.score);
                for (double t : targets)
                {
                    csv << ","
                        << Number(TrainingMetrics::TimeToAccuracy(curve,
                                                                  t * evaluator.BestAccuracy()));
                }
                csv << "\n";
                csv.flush();
                std::cerr << set << " " << c.schedule.GetName() << " score " << r.score << "\n";
            }
        }
        csv.close();
        if (csv.fail())
        {
            throw std::invalid_argument("--validationOut: write to '" +
                                        options.GetText("validationOut") + "' failed");
        }
    }
    catch (const std::exception& e)
    {
        return options.Fail(e);
    }
    return ExperimentOptions::EXIT_COMPLETE;
}
