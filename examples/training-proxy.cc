/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Training proxy at packet level: every island trains a real parameter vector — by default an
// MLP classifying label-skewed (Dirichlet) shards of a Gaussian mixture (ClassificationTask),
// or least squares / logistic regression (--task) — with SGD (momentum) or AdamW; rounds of
// the schedule really average the vectors through the simulated network — the received values
// (unicast, multicast) or the FPGA's int32 fixed-point sums (aggregation). Prints the held-out
// loss and accuracy of the average model and of the islands' own models, and the consensus
// distance, per round; appends per-island rows to the results database (table `training`).
//
//   ./training-proxy --mode=aggregation --schedule=3x3-rotating --rounds=6 --modelBytes=1e8
//
// Options: ExperimentOptions (doc/options-table.rst), the same flags and defaults as every
// program; without --schedule the optimizer's best schedule for the topology runs. Exit
// status: 0 complete, 1 incomplete run, 2 bad input (before anything is simulated).
// The modelled payload (--modelBytes) is what crosses the network; the first segments carry
// the real vector (the network's parameters). For long curves and time to target use the fluid
// path (examples/training-curves.cc), which the TestSuites check against this one.

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>

using namespace ns3;

int
main(int argc, char* argv[])
{
    ExperimentOptions options("training-proxy",
                              {"topology", "network", "exchange", "schedule", "optimizer",
                               "island", "fpga", "run", "packet", "output", "training"});
    options.Parse(argc, argv);
    const std::string db = options.GetText("db");

    ScenarioHelper scenario;
    std::shared_ptr<const ProxyTask> task;
    std::vector<std::shared_ptr<ProxyLearner>> learners;
    std::vector<std::string> cities;
    RunRecord run;
    std::unique_ptr<ResultsDatabase> database; // opened and checked before the simulation
    try
    {
        Topology topology = options.LoadTopology();
        Schedule schedule = options.LoadSchedule(topology);
        cities = schedule.Cities();
        task = ProxyTask::Create(TrainingOptions::TaskConfig(options, cities.size()));
        TrainingOptions::CheckModelFits(options, task->Dimension());
        learners = ProxyLearner::ForAllIslands(task,
                                               TrainingOptions::Inner(options),
                                               TrainingOptions::Outer(options),
                                               options.GetInteger("seed"));
        options.Configure(scenario, topology, schedule);
        for (std::size_t i = 0; i < cities.size(); ++i)
        {
            scenario.SetLearner(cities[i], learners[i]); // island i trains shard i
        }
        scenario.Build();
        options.CheckAttributesApplied();
        run = options.MakeRunRecord(topology.GetName(), schedule.GetName());
        // What the options imply and the table does not hold: the task's size.
        nlohmann::json parameters = nlohmann::json::parse(run.parametersJson);
        parameters["parameters"] = task->Dimension();
        parameters["samplesPerIslandResolved"] = task->ShardRows(0);
        run.parametersJson = parameters.dump();
        database = ResultsDatabase::OpenForRun(db, run.runKey);
        std::cout << "Training proxy on " << topology.GetName() << ": " << cities.size()
                  << " islands, schedule '" << schedule.GetName() << "', mode "
                  << options.GetText("mode") << ", " << task->Dimension() << " parameters\n";
    }
    catch (const std::exception& e)
    {
        return options.Fail(e);
    }

    std::vector<TrainingRecord> rows;
    Evaluation initial = TrainingMetrics::AverageModel(*task, TrainingMetrics::Vectors(learners));
    std::printf("%5s %10s %11s %9s %11s %9s %10s\n", "round", "time(s)", "avg loss", "avg acc",
                "own loss", "own acc", "consensus");
    std::printf("%5s %10.4f %11.6f %9.4f %11.6f %9.4f %10.6f\n", "init", 0.0, initial.loss,
                initial.accuracy, initial.loss, initial.accuracy, 0.0);
    // Each island's model and local loss as it finished round r (without barriers, faster
    // islands are rounds ahead when the last one finishes r).
    struct Held
    {
        decltype(TrainingMetrics::Vectors(learners)) vectors;
        std::vector<double> losses;
    };
    std::map<uint32_t, Held> held;
    scenario.SetIslandRoundObserver([&](const std::string& city, uint32_t round) {
        auto at = std::find(cities.begin(), cities.end(), city) - cities.begin();
        Held& h = held[round];
        h.vectors.resize(learners.size());
        h.losses.resize(learners.size());
        h.vectors[at] = learners[at]->Vector();
        h.losses[at] = learners[at]->LastLocalLoss();
    });
    scenario.SetRoundObserver([&](uint32_t round, double time) {
        auto node = held.extract(round);
        const auto& vectors = node.mapped().vectors;
        const auto& losses = node.mapped().losses;
        Evaluation average = TrainingMetrics::AverageModel(*task, vectors);
        double consensus = TrainingMetrics::ConsensusDistance(vectors);
        auto islands = TrainingMetrics::IslandEvaluations(*task, vectors);
        for (std::size_t i = 0; i < learners.size(); ++i)
        {
            TrainingRecord row{round,           cities[i],    time,     losses[i],
                               islands[i].loss, average.loss, consensus};
            row.globalAccuracy = islands[i].accuracy;
            row.meanGlobalAccuracy = average.accuracy;
            rows.push_back(row);
        }
        Evaluation own = TrainingMetrics::Score(islands, average, TargetMetric::ISLAND_MEAN);
        std::printf("%5u %10.4f %11.6f %9.4f %11.6f %9.4f %10.6f\n", round, time, average.loss,
                    average.accuracy, own.loss, own.accuracy, consensus);
    });
    ScenarioResult result = scenario.Run();
    result.training = rows;
    std::cout << (result.complete ? "complete" : "INCOMPLETE") << ": simulated " << result.simTimeS
              << " s in " << result.wallTimeS << " s wall time\n";
    int status = result.complete ? 0 : 1;
    if (!result.complete)
    {
        std::cerr << "training-proxy: error: " << result.error << std::endl;
    }
    if (database)
    {
        try
        {
            std::cout << "results: run " << result.Write(*database, run) << " appended to " << db
                      << "\n";
        }
        catch (const std::exception& e)
        {
            status = options.Fail(e);
        }
    }
    Simulator::Destroy();
    return status;
}
