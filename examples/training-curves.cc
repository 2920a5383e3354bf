/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Accuracy and loss against simulated wall-clock time, time to target and the gap to colocated
// training, for the proxy task (by default an MLP on label-skewed shards) on the nine-city
// network: colocated training (all data, same compute, free synchronisation), islands that
// never communicate, ring all-reduce, and the best schedules the optimizer finds (--objective)
// for the capability sets {unicast}, +multicast and +aggregation. Round times come from the fluid
// CostModel (checked against the packet level by the intelligent-network-fluid TestSuite);
// the training is real (GapEvaluator / TrainingRun: inner steps on every island's shard, exact
// averaging or the FPGA's fixed-point sums). The target is --targetFraction of the colocated
// run's best held-out accuracy; runs are scored on --metric. Writes every curve to --csv and a
// summary to --json; prints a table.
//
//   ./training-curves --modelBytes=1e9 --linkRate=10e9 --csv=curves.csv --json=summary.json
//
// Options: ExperimentOptions (doc/options-table.rst), the same flags and defaults as every
// program (a 100 MB model, 10 ms steps, one local step, period 2 unless given). Exit status
// 0, or 2 on bad input (before anything is trained).
// scripts/training-table.py turns the output into doc/training-gap.rst and a PNG plot.

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    ExperimentOptions options("training-curves",
                              {"topology", "network", "optimizer", "island", "fpga", "training",
                               "curves"});
    options.SetSimulates(false); // fluid round times: ns-3 attributes would have no effect
    options.Parse(argc, argv);
    const double computeTime = options.GetDouble("computeTime");
    const uint32_t localSteps = static_cast<uint32_t>(options.GetInteger("localSteps"));
    const uint32_t fixedPointBits = static_cast<uint32_t>(options.GetInteger("fixedPointBits"));
    const double horizon = options.GetDouble("horizon");
    const double targetFraction = options.GetDouble("targetFraction");
    const std::string metric = options.GetText("metric");
    const std::string csvPath = options.GetText("csv");
    const std::string jsonPath = options.GetText("json");

    try
    {
        if (!(computeTime > 0))
        {
            throw std::invalid_argument("--computeTime=0: training-curves needs a positive "
                                        "compute time (colocated training advances one step "
                                        "per --computeTime)");
        }
        Topology topology = options.LoadTopology();
        NetworkGraph graph = NetworkGraph::FromTopology(topology, options.ToGraphOptions());
        std::vector<std::string> cities = options.OptimizerIslands(topology, graph);
        CostParameters params = options.ToCostParameters();
        const NetworkCapabilities optionCaps = options.ToCapabilities(topology);

        GapSetup setup;
        setup.task = TrainingOptions::TaskConfig(options, cities.size());
        setup.inner = TrainingOptions::Inner(options);
        setup.outer = TrainingOptions::Outer(options);
        setup.localSteps = localSteps;
        setup.computeTimeS = computeTime;
        setup.targetFraction = targetFraction;
        setup.referenceHorizonS = options.GetDouble("referenceHorizon");
        setup.metric = TrainingMetrics::ParseMetric(metric);
        setup.seed = options.GetInteger("seed");
        setup.Validate();
        // Outputs are opened before anything is trained.
        ExperimentOptions::CheckOutputFiles({{"csv", csvPath}, {"json", jsonPath}}, {});
        const std::string scheduleDir = options.GetText("scheduleDir");
        if (!scheduleDir.empty())
        {
            ExperimentOptions::CheckWritableDirectory("--scheduleDir", scheduleDir);
        }
        std::ofstream csv(csvPath);
        if (!csv)
        {
            throw std::invalid_argument("--csv=" + csvPath + ": cannot write this file");
        }
        std::ofstream jsonOut(jsonPath);
        if (!jsonOut)
        {
            throw std::invalid_argument("--json=" + jsonPath + ": cannot write this file");
        }
        GapEvaluator evaluator(setup); // trains the colocated reference

        csv << "series,time_s,loss,accuracy\n";
        auto writeCurve = [&](const std::string& name, const LossCurve& curve) {
            for (const auto& p : curve)
            {
                csv << name << "," << p.timeS << "," << p.loss << "," << p.accuracy << "\n";
            }
        };
        auto finiteOr = [](double v) { return std::isfinite(v) ? v : -1.0; };
        writeCurve("colocated", evaluator.ColocatedCurve());
        const double colocatedTime = evaluator.ColocatedTimeToTarget();

        // Every effective setting (the table's options, the module's attributes) under
        // "parameters"; the figures the report script reads beside them.
        nlohmann::json summary = {
            {"parameters", nlohmann::json::parse(options.ParametersJson())},
            {"modelBytes", params.modelBytes},
            {"linkRate", options.GetDouble("linkRate")}, // 0: the topology's rates
            {"computeTime", computeTime},
            {"localSteps", localSteps},
            {"task", options.GetText("task")},
            {"dataset", setup.task.dataset},
            {"hidden", ProxyTaskConfig::HiddenText(setup.task.hidden)},
            {"alpha", options.GetText("alpha")},
            {"classes", setup.task.classes},
            {"samplesPerIsland", setup.task.samplesPerIsland},
            {"parameterCount", evaluator.Task()->Dimension()},
            {"optimizer", options.GetText("optimizer")},
            {"lr", setup.inner.learningRate},
            {"sgdMomentum", setup.inner.momentum},
            {"batch", setup.inner.batchSize},
            {"outerLr", setup.outer.learningRate},
            {"outerMomentum", setup.outer.momentum},
            {"horizon", horizon},
            {"referenceHorizon", setup.referenceHorizonS},
            {"targetFraction", targetFraction},
            {"metric", metric},
            {"bestAccuracy", evaluator.BestAccuracy()},
            {"targetAccuracy", evaluator.TargetAccuracy()},
            {"colocated", {{"timeToTarget", finiteOr(colocatedTime)}}}};
        std::printf("%-28s %-24s %10s %14s %10s %10s\n", "series", "schedule (clique sizes)",
                    "round (s)", "to target (s)", "gap", "final acc");
        std::printf("%-28s %-24s %10.3f %14.2f %10.2f %10.4f\n", "colocated", "-",
                    computeTime * localSteps, colocatedTime, 1.0,
                    evaluator.ColocatedCurve().back().accuracy);

        struct Series
        {
            std::string name;
            std::string capabilities;
            bool optimize;
            bool communicate;
        };

        std::vector<Series> series = {
            {"no communication", "unicast", false, false},
            {"ring all-reduce", "unicast", false, true},
            {"best unicast", "unicast", true, true},
            {"best multicast", "unicast,multicast", true, true},
            {"best aggregation", "unicast,multicast,aggregation", true, true}};
        // ToOptimizerOptions: the training objective searches periods >= 2 by the heuristic.
        const OptimizerOptions searchOptions = options.ToOptimizerOptions(cities.size());
        summary["objective"] = searchOptions.objective->Name();
        summary["seed"] = options.GetInteger("seed");
        for (const Series& s : series)
        {
            // The options' FPGA and slot settings, with this series' capability set.
            NetworkCapabilities caps = optionCaps;
            caps.multicast = s.capabilities != "unicast";
            caps.aggregation = s.capabilities == "unicast,multicast,aggregation";
            CostModel cost(graph, caps, params);
            Schedule schedule = BaselineSchedules::Collective(cities, ExchangePattern::RING);
            std::vector<double> times;
            if (!s.communicate)
            {
                std::vector<Clique> alone;
                for (const auto& c : cities)
                {
                    alone.push_back({c});
                }
                schedule = Schedule("no-communication", {ScheduleRound{alone, {}}});
                times = {computeTime * localSteps};
            }
            else
            {
                if (s.optimize)
                {
                    schedule = ScheduleOptimizer(cost, cities, searchOptions).Optimize().schedule;
                }
                times = cost.PeriodRoundTimes(schedule);
            }
            double mean = 0;
            for (double t : times)
            {
                mean += t / times.size();
            }
            SyncMode sync = caps.aggregation ? SyncMode::FIXED_POINT : SyncMode::EXACT;
            std::string schedulePath;
            if (!scheduleDir.empty() && s.communicate)
            {
                // For packet-level reruns (scripts/training-table.py): the same cliques and
                // patterns.
                schedulePath = scheduleDir + "/" + s.name + ".json";
                std::replace(schedulePath.begin() + scheduleDir.size(), schedulePath.end(), ' ',
                             '-');
                schedule.Save(schedulePath);
            }
            GapResult result =
                evaluator.Evaluate(schedule, cities, times, horizon, sync, fixedPointBits, false);
            writeCurve(s.name, result.curve);
            std::string sizes = s.communicate ? ScheduleOptimizer::CliqueSizes(schedule) : "-";
            std::printf("%-28s %-24s %10.3f %14.2f %10.2f %10.4f\n", s.name.c_str(), sizes.c_str(),
                        mean, result.timeToTargetS, result.gap, result.curve.back().accuracy);
            summary["series"].push_back({{"name", s.name},
                                         {"capabilities", s.capabilities},
                                         {"scheduleFile", schedulePath},
                                         {"roundTimes", times},
                                         {"schedule", schedule.GetName()},
                                         {"cliques", sizes},
                                         {"describe", schedule.Describe()},
                                         {"meanRoundS", mean},
                                         {"rounds", result.run.rounds.size()},
                                         {"finalLoss", result.curve.back().loss},
                                         {"finalAccuracy", result.curve.back().accuracy},
                                         {"timeToTarget", finiteOr(result.timeToTargetS)},
                                         {"gap", finiteOr(result.gap)},
                                         {"overflows", result.run.overflows}});
        }
        jsonOut << summary.dump(2) << "\n";
        csv.close();
        jsonOut.close();
        if (csv.fail())
        {
            throw std::invalid_argument("--csv=" + csvPath + ": write failed");
        }
        if (jsonOut.fail())
        {
            throw std::invalid_argument("--json=" + jsonPath + ": write failed");
        }
        std::printf("target accuracy %.4f (%.0f%% of colocated's best %.4f, scored on %s); "
                    "curves in %s\n",
                    evaluator.TargetAccuracy(), 100 * targetFraction, evaluator.BestAccuracy(),
                    metric.c_str(), csvPath.c_str());
    }
    catch (const std::exception& e)
    {
        return options.Fail(e);
    }
    return ExperimentOptions::EXIT_COMPLETE;
}
