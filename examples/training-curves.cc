/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Loss against simulated wall-clock time, and the gap to colocated training, for the proxy
// learning task on the nine-city network: colocated training (all data, same compute, free
// synchronisation), unicast all-reduce, and the best schedules the optimizer finds for
// unicast, multicast and multicast + in-network aggregation. Round times come from the fluid
// CostModel (checked against the packet level by the intelligent-network-fluid TestSuite);
// the training is real (TrainingRun: SGD on every island's shard, exact averaging or the
// FPGA's fixed-point sums). Writes every curve to --csv and a summary to --json; prints a table.
//
//   ./training-curves --modelBytes=1e9 --linkRate=10e9 --csv=curves.csv --json=summary.json
//
// Options: those of every program (ExperimentOptions; --PrintHelp).
//
// scripts/training-table.py turns the output into doc/training-gap.rst and a PNG plot.

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    // The fluid model of the options' network; the exchange modes are the series below, the
    // islands every city of the topology.
    ExperimentOptions options("training-curves",
                              {"topology", "network", "island", "fpga", "optimizer", "proxy",
                               "curves"});
    options.Drop("islands");
    options.SetSimulates(false);
    options.Parse(argc, argv);
    const double modelBytes = static_cast<double>(options.GetInteger("modelBytes"));
    const double linkRate = options.GetDouble("linkRate");
    const double computeTime = options.GetDouble("computeTime");
    const auto localSteps = static_cast<uint32_t>(options.GetInteger("localSteps"));
    const auto dimension = static_cast<uint32_t>(options.GetInteger("dimension"));
    const double heterogeneity = options.GetDouble("heterogeneity");
    const double horizon = options.GetDouble("horizon");
    const double targetFraction = options.GetDouble("targetFraction");
    const uint64_t seed = options.GetInteger("seed");
    const std::string csvPath = options.GetText("csv");
    const std::string jsonPath = options.GetText("json");

    try
    {
        if (!(computeTime > 0))
        {
            throw std::invalid_argument("--computeTime=0: colocated training needs a positive "
                                        "compute time per step");
        }
        Topology topology = options.LoadTopology();
        std::vector<std::string> cities = topology.CityCodes();
        NetworkGraph graph = NetworkGraph::FromTopology(topology, options.ToGraphOptions());
        CostParameters params = options.ToCostParameters();

        ProxyTaskConfig tc;
        tc.dimension = dimension;
        tc.islands = cities.size();
        tc.heterogeneity = heterogeneity;
        tc.seed = seed;
        auto task = std::make_shared<const ProxyTask>(tc);
        LocalOptimizerConfig inner;
        inner.learningRate = options.GetDouble("lr");
        OuterOptimizerConfig outer;
        outer.learningRate = options.GetDouble("outerLr");
        outer.momentum = options.GetDouble("momentum");

        std::ofstream csv(csvPath);
        csv << "series,time_s,loss\n";
        auto writeCurve = [&](const std::string& name, const LossCurve& curve) {
            for (const auto& p : curve)
            {
                csv << name << "," << p.timeS << "," << p.loss << "\n";
            }
        };

        ColocatedTrainer colocated(task, inner, computeTime, seed);
        LossCurve colocatedCurve = colocated.RunUntil(horizon, localSteps);
        writeCurve("colocated", colocatedCurve);
        double target = TrainingMetrics::TargetLoss(colocatedCurve, targetFraction);

        struct Series
        {
            std::string name;
            ExchangePattern mode;
            bool optimize;
        };

        std::vector<Series> series = {{"unicast all-reduce", ExchangePattern::ALL_TO_ALL, false},
                                      {"best unicast", ExchangePattern::ALL_TO_ALL, true},
                                      {"best multicast", ExchangePattern::MULTICAST, true},
                                      {"best multicast+aggregation", ExchangePattern::AGGREGATION,
                                       true}};
        nlohmann::json summary = {
            {"modelBytes", modelBytes}, {"linkRate", linkRate},
            {"computeTime", computeTime}, {"localSteps", localSteps},
            {"dimension", dimension}, {"heterogeneity", heterogeneity},
            {"horizon", horizon}, {"targetFraction", targetFraction}, {"targetLoss", target},
            {"colocated", {{"timeToTarget", TrainingMetrics::TimeToTarget(colocatedCurve,
                                                                          target)}}}};
        std::printf("%-28s %-24s %10s %12s %10s\n", "series", "schedule (clique sizes)",
                    "round (s)", "to target (s)", "gap");
        std::printf("%-28s %-24s %10.3f %12.2f %10.2f\n", "colocated", "-",
                    computeTime * localSteps,
                    TrainingMetrics::TimeToTarget(colocatedCurve, target), 1.0);
        for (const Series& s : series)
        {
            NetworkCapabilities caps = options.ToCapabilities(topology); // FPGA options
            caps.multicast = s.mode != ExchangePattern::ALL_TO_ALL;
            caps.aggregation = s.mode == ExchangePattern::AGGREGATION;
            CostModel cost(graph, caps, params);
            Schedule schedule = BaselineSchedules::AllReduce(cities);
            if (s.optimize)
            {
                schedule =
                    ScheduleOptimizer(cost, cities, options.ToOptimizerOptions()).Optimize().schedule;
            }
            std::vector<double> times = cost.PeriodRoundTimes(schedule);
            double mean = 0;
            for (double t : times)
            {
                mean += t / times.size();
            }
            TrainingRun run(task, schedule, cities, inner, outer, seed);
            TrainingRunConfig config;
            config.rounds = static_cast<uint32_t>(std::max(1.0, std::ceil(horizon / mean)));
            config.localSteps = localSteps;
            config.fractionBits = static_cast<int>(options.GetInteger("fixedPointBits"));
            config.sync = s.mode == ExchangePattern::AGGREGATION ? SyncMode::FIXED_POINT
                                                              : SyncMode::EXACT;
            TrainingRunResult result = run.Run(config, TrainingRun::Periodic(times));
            LossCurve curve = result.Curve();
            writeCurve(s.name, curve);
            double toTarget = TrainingMetrics::TimeToTarget(curve, target);
            double gap = TrainingMetrics::GapRatio(curve, colocatedCurve, target);
            std::string sizes = ScheduleOptimizer::CliqueSizes(schedule);
            std::printf("%-28s %-24s %10.3f %12.2f %10.2f\n", s.name.c_str(), sizes.c_str(),
                        mean, toTarget, gap);
            summary["series"].push_back({{"name", s.name},
                                         {"mode", PatternName(s.mode)},
                                         {"schedule", schedule.GetName()},
                                         {"cliques", sizes},
                                         {"describe", schedule.Describe()},
                                         {"meanRoundS", mean},
                                         {"rounds", config.rounds},
                                         {"finalLoss", curve.back().loss},
                                         {"timeToTarget", std::isfinite(toTarget) ? toTarget : -1},
                                         {"gap", std::isfinite(gap) ? gap : -1},
                                         {"overflows", result.overflows}});
        }
        std::ofstream(jsonPath) << summary.dump(2) << "\n";
        std::printf("target loss %.6f (colocated closes %.0f%% of its progress); curves in %s\n",
                    target, 100 * (1 - targetFraction), csvPath.c_str());
    }
    catch (const std::exception& e)
    {
        return options.Fail(e);
    }
    return ExperimentOptions::EXIT_COMPLETE;
}
