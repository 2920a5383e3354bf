/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Training proxy at packet level: every island trains a real parameter vector (least squares
// on synthetic, non-iid data, ProxyTask) with SGD; rounds of the schedule really average the
// vectors through the simulated network — the received values (unicast, multicast) or the
// FPGA's int32 fixed-point sums (aggregation). Prints the held-out loss and the consensus
// distance per round and appends per-island rows to the results database (table `training`).
//
//   ./training-proxy --mode=aggregation --schedule=3x3-rotating --rounds=6 --modelBytes=1e8
//
// The modelled payload (--modelBytes) is what crosses the network; the first segments carry
// the real vector (--dimension values). For long loss-versus-time curves use the fluid path
// (examples/training-curves.cc), which the TestSuites check against this one. Options: those
// of every program (ExperimentOptions; --PrintHelp); without --schedule the optimizer's.

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"

#include <cstdio>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    ExperimentOptions options("training-proxy",
                              {"topology", "network", "exchange", "schedule", "optimizer",
                               "island", "fpga", "run", "packet", "output", "proxy"});
    options.Parse(argc, argv);
    const std::string db = options.GetText("db");
    const uint64_t seed = options.GetInteger("seed");

    ScenarioHelper scenario;
    std::shared_ptr<const ProxyTask> task;
    std::vector<std::shared_ptr<ProxyLearner>> learners;
    std::vector<std::string> cities;
    RunRecord run;
    try
    {
        Topology topology = options.LoadTopology();
        Schedule schedule = options.LoadSchedule(topology);
        cities = schedule.Cities();

        ProxyTaskConfig tc;
        tc.dimension = static_cast<uint32_t>(options.GetInteger("dimension"));
        tc.islands = cities.size();
        tc.heterogeneity = options.GetDouble("heterogeneity");
        tc.seed = seed;
        task = std::make_shared<const ProxyTask>(tc);
        LocalOptimizerConfig inner;
        inner.learningRate = options.GetDouble("lr");
        OuterOptimizerConfig outer;
        outer.learningRate = options.GetDouble("outerLr");
        outer.momentum = options.GetDouble("momentum");
        learners = ProxyLearner::ForAllIslands(task, inner, outer, seed);

        options.Configure(scenario, topology, schedule);
        for (std::size_t i = 0; i < cities.size(); ++i)
        {
            scenario.SetLearner(cities[i], learners[i]); // island i trains shard i
        }
        scenario.Build();
        options.CheckAttributesApplied();
        run = options.MakeRunRecord(topology.GetName(), schedule.GetName());
    }
    catch (const std::exception& e)
    {
        return options.Fail(e);
    }

    std::vector<TrainingRecord> rows;
    std::printf("%5s %10s %12s %12s\n", "round", "time(s)", "global loss", "consensus");
    std::printf("%5s %10.4f %12.6f %12.6f\n", "init", 0.0,
                TrainingMetrics::GlobalLoss(*task, TrainingMetrics::Vectors(learners)), 0.0);
    scenario.SetRoundObserver([&](uint32_t round, double time) {
        auto vectors = TrainingMetrics::Vectors(learners);
        double global = TrainingMetrics::GlobalLoss(*task, vectors);
        double consensus = TrainingMetrics::ConsensusDistance(vectors);
        auto islandLosses = TrainingMetrics::IslandGlobalLosses(*task, vectors);
        for (std::size_t i = 0; i < learners.size(); ++i)
        {
            rows.push_back(TrainingRecord{round, cities[i], time, learners[i]->LastLocalLoss(),
                                          islandLosses[i], global, consensus});
        }
        std::printf("%5u %10.4f %12.6f %12.6f\n", round, time, global, consensus);
    });
    ScenarioResult result = scenario.Run();
    result.training = rows;
    std::cout << (result.complete ? "complete" : "INCOMPLETE") << ": simulated "
              << result.simTimeS << " s in " << result.wallTimeS << " s wall time\n";
    int status = result.complete ? ExperimentOptions::EXIT_COMPLETE
                                 : ExperimentOptions::EXIT_INCOMPLETE;
    if (!result.complete)
    {
        std::cerr << "training-proxy: error: " << result.error << std::endl;
    }
    if (!db.empty() && db != "none")
    {
        try
        {
            ResultsDatabase database(db);
            std::cout << "results: run " << result.Write(database, run) << " appended to " << db
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
