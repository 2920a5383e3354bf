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
// (examples/training-curves.cc), which the TestSuites check against this one.

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string topologyPath = std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology";
    std::string schedulePath = "3x3-rotating";
    std::string mode = "unicast";
    std::string db = "results.db";
    std::string runKey;
    uint32_t rounds = 6;
    double modelBytes = 20e6;
    uint32_t segmentSize = 8192;
    uint32_t dimension = 2048;
    uint32_t localSteps = 5;
    double computeTime = 0.01;
    double learningRate = 0.01;
    double outerLr = 1.0;
    double momentum = 0.0;
    double heterogeneity = 1.0;
    uint32_t fixedPointBits = 16;
    uint64_t seed = 1;

    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "Topology file", topologyPath);
    cmd.AddValue("schedule", "Schedule file or shipped schedule name", schedulePath);
    cmd.AddValue("mode", "unicast | multicast | aggregation", mode);
    cmd.AddValue("rounds", "Rounds", rounds);
    cmd.AddValue("modelBytes", "Modelled payload per island per round, bytes", modelBytes);
    cmd.AddValue("segmentSize", "Payload bytes per simulated segment", segmentSize);
    cmd.AddValue("dimension", "Parameters of the proxy model", dimension);
    cmd.AddValue("localSteps", "SGD steps per round", localSteps);
    cmd.AddValue("computeTime", "Simulated seconds per local step", computeTime);
    cmd.AddValue("lr", "SGD learning rate", learningRate);
    cmd.AddValue("outerLr", "DiLoCo outer learning rate (1 = plain averaging)", outerLr);
    cmd.AddValue("momentum", "DiLoCo outer Nesterov momentum (0 = plain averaging)", momentum);
    cmd.AddValue("heterogeneity", "Non-iid shards: 0 = iid", heterogeneity);
    cmd.AddValue("fixedPointBits", "Fraction bits of the aggregated fixed point", fixedPointBits);
    cmd.AddValue("seed", "Seed of the task and the minibatches", seed);
    cmd.AddValue("db", "Results database (none: do not record)", db);
    cmd.AddValue("runKey", "Identity of this run in the database", runKey);
    cmd.Parse(argc, argv);

    ScenarioHelper scenario;
    std::shared_ptr<const ProxyTask> task;
    std::vector<std::shared_ptr<ProxyLearner>> learners;
    std::vector<std::string> cities;
    RunRecord run;
    std::unique_ptr<ResultsDatabase> database; // opened and checked before the simulation
    try
    {
        Topology topology = TopologyReader::Read(topologyPath);
        std::string file = schedulePath.find(".json") != std::string::npos
                               ? schedulePath
                               : std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/schedules/" +
                                     schedulePath + ".json";
        Schedule schedule = Schedule::Load(file, topology.CityCodes());
        cities = schedule.Cities();

        ProxyTaskConfig tc;
        tc.dimension = dimension;
        tc.islands = cities.size();
        tc.heterogeneity = heterogeneity;
        tc.seed = seed;
        task = std::make_shared<const ProxyTask>(tc);
        LocalOptimizerConfig inner;
        inner.learningRate = learningRate;
        OuterOptimizerConfig outer;
        outer.learningRate = outerLr;
        outer.momentum = momentum;
        learners = ProxyLearner::ForAllIslands(task, inner, outer, seed);

        scenario.SetTopology(topology);
        scenario.SetSchedule(schedule);
        scenario.SetCapabilities(
            NetworkCapabilities::ForPattern(ParsePattern(mode)));
        scenario.SetRounds(rounds);
        scenario.SetIslandAttribute("ModelBytes", UintegerValue(static_cast<uint64_t>(modelBytes)));
        scenario.SetIslandAttribute("SegmentSize", UintegerValue(segmentSize));
        scenario.SetIslandAttribute("ComputeTime", TimeValue(Seconds(computeTime)));
        scenario.SetIslandAttribute("LocalSteps", UintegerValue(localSteps));
        scenario.SetIslandAttribute("FixedPointBits", UintegerValue(fixedPointBits));
        for (std::size_t i = 0; i < cities.size(); ++i)
        {
            scenario.SetLearner(cities[i], learners[i]); // island i trains shard i
        }
        scenario.Build();

        run.runKey = runKey;
        run.program = "training-proxy";
        run.topology = topology.GetName();
        run.schedule = schedule.GetName();
        run.mode = mode;
        run.seed = seed;
        run.modelBytes = static_cast<uint64_t>(modelBytes);
        run.segmentSize = segmentSize;
        run.rounds = rounds;
        run.parametersJson =
            nlohmann::json{{"dimension", dimension}, {"localSteps", localSteps},
                           {"computeTime", computeTime}, {"lr", learningRate},
                           {"outerLr", outerLr}, {"momentum", momentum},
                           {"heterogeneity", heterogeneity}, {"fixedPointBits", fixedPointBits},
                           {"modelBytes", modelBytes}, {"segmentSize", segmentSize}}
                .dump();
        database = ResultsDatabase::OpenForRun(db, runKey);
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 2;
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
    int status = result.complete ? 0 : 1;
    if (!result.complete)
    {
        std::cerr << "error: " << result.error << std::endl;
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
            std::cerr << "error: " << e.what() << std::endl;
            status = 2;
        }
    }
    Simulator::Destroy();
    return status;
}
