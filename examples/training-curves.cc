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
    std::string topologyPath = std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology";
    double modelBytes = 1e9;
    double linkRate = 10e9;
    uint32_t segmentSize = 8192;
    double computeTime = 0.05;
    uint32_t localSteps = 20;
    uint32_t dimension = 2048;
    double heterogeneity = 1.0;
    double learningRate = 0.01;
    double horizon = 300;
    double targetFraction = 0.2;
    uint32_t period = 3;
    uint64_t seed = 1;
    std::string csvPath = "training-curves.csv";
    std::string jsonPath = "training-summary.json";

    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "Topology file", topologyPath);
    cmd.AddValue("modelBytes", "Modelled payload per island per round, bytes", modelBytes);
    cmd.AddValue("linkRate", "Rate of every private link, bit/s", linkRate);
    cmd.AddValue("segmentSize", "Payload bytes per segment", segmentSize);
    cmd.AddValue("computeTime", "Simulated seconds per local step", computeTime);
    cmd.AddValue("localSteps", "Local steps per round", localSteps);
    cmd.AddValue("dimension", "Parameters of the proxy model", dimension);
    cmd.AddValue("heterogeneity", "Non-iid shards: 0 = iid", heterogeneity);
    cmd.AddValue("lr", "SGD learning rate", learningRate);
    cmd.AddValue("horizon", "Simulated seconds of training per curve", horizon);
    cmd.AddValue("targetFraction",
                 "Target loss: colocated final + fraction x (initial - final)", targetFraction);
    cmd.AddValue("period", "Longest schedule period the optimizer searches", period);
    cmd.AddValue("seed", "Seed of the task, minibatches and optimizer", seed);
    cmd.AddValue("csv", "Output: every curve (series,time_s,loss)", csvPath);
    cmd.AddValue("json", "Output: summary", jsonPath);
    cmd.Parse(argc, argv);

    try
    {
        if (!(modelBytes > 0) || !(linkRate > 0) || !(computeTime > 0) || !(horizon > 0))
        {
            throw std::invalid_argument(
                "--modelBytes, --linkRate, --computeTime and --horizon must be positive");
        }
        Topology topology = TopologyReader::Read(topologyPath);
        std::vector<std::string> cities = topology.CityCodes();
        NetworkGraphOptions graphOptions;
        graphOptions.privateRateBps = linkRate;
        NetworkGraph graph = NetworkGraph::FromTopology(topology, graphOptions);
        CostParameters params;
        params.modelBytes = modelBytes;
        params.segmentPayloadBytes = segmentSize;
        params.computeTimeS = computeTime;
        params.localSteps = localSteps;

        ProxyTaskConfig tc;
        tc.dimension = dimension;
        tc.islands = cities.size();
        tc.heterogeneity = heterogeneity;
        tc.seed = seed;
        auto task = std::make_shared<const ProxyTask>(tc);
        LocalOptimizerConfig inner;
        inner.learningRate = learningRate;

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
            NetworkCapabilities caps = NetworkCapabilities::ForPattern(s.mode);
            caps.slotBytes = segmentSize;
            CostModel cost(graph, caps, params);
            Schedule schedule = BaselineSchedules::AllReduce(cities);
            if (s.optimize)
            {
                OptimizerOptions options;
                options.maxPeriod = period;
                options.seed = seed;
                schedule = ScheduleOptimizer(cost, cities, options).Optimize().schedule;
            }
            std::vector<double> times = cost.PeriodRoundTimes(schedule);
            double mean = 0;
            for (double t : times)
            {
                mean += t / times.size();
            }
            TrainingRun run(task, schedule, cities, inner, OuterOptimizerConfig(), seed);
            TrainingRunConfig config;
            config.rounds = static_cast<uint32_t>(std::max(1.0, std::ceil(horizon / mean)));
            config.localSteps = localSteps;
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
        std::cerr << "error: " << e.what() << std::endl;
        return 2;
    }
    return 0;
}
