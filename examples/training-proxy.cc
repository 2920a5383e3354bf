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
// The modelled payload (--modelBytes) is what crosses the network; the first segments carry
// the real vector (the network's parameters). For long curves and time to target use the fluid
// path (examples/training-curves.cc), which the TestSuites check against this one.

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"

#include <nlohmann/json.hpp>

#include <cmath>
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
    std::string taskKind = "classification";
    std::string dataset = ProxyTaskConfig().dataset;
    std::string datasetDir = ProxyTaskConfig().datasetDir;
    std::string hidden = ProxyTaskConfig::HiddenText(ProxyTaskConfig().hidden);
    double alpha = ProxyTaskConfig().alpha;
    uint32_t classes = ProxyTaskConfig().classes;
    uint32_t samplesPerIsland = 0;
    uint32_t dimension = 2048;
    uint32_t localSteps = 5;
    double computeTime = 0.01;
    std::string optimizer = "sgd";
    double learningRate = 0.05;
    double sgdMomentum = 0.9;
    uint32_t batch = 32;
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
    cmd.AddValue("task", "classification | least-squares | logistic", taskKind);
    cmd.AddValue("dataset",
                 "Classification: synthetic | fashion-mnist (Debian's dataset-fashion-mnist)",
                 dataset);
    cmd.AddValue("datasetDir", "Classification: folder of the Fashion-MNIST files", datasetDir);
    cmd.AddValue("hidden", "Classification: hidden layer widths, e.g. 128,64 (none: linear)",
                 hidden);
    cmd.AddValue("alpha",
                 "Classification: Dirichlet label skew (small = few classes per island, "
                 "inf = iid)",
                 alpha);
    cmd.AddValue("classes", "Classification: number of classes", classes);
    cmd.AddValue("samplesPerIsland",
                 "Rows per island's shard (0: 4096 synthetic, 1024 "
                 "fashion-mnist and linear)",
                 samplesPerIsland);
    cmd.AddValue("dimension", "Linear tasks: parameters of the model", dimension);
    cmd.AddValue("localSteps", "Local steps per round", localSteps);
    cmd.AddValue("computeTime", "Simulated seconds per local step", computeTime);
    cmd.AddValue("optimizer", "Inner optimizer: sgd | adamw", optimizer);
    cmd.AddValue("lr", "Inner learning rate", learningRate);
    cmd.AddValue("sgdMomentum", "Inner SGD momentum (0 = plain SGD)", sgdMomentum);
    cmd.AddValue("batch", "Rows per minibatch (0 = full shard)", batch);
    cmd.AddValue("outerLr", "DiLoCo outer learning rate (1 = plain averaging)", outerLr);
    cmd.AddValue("momentum", "DiLoCo outer Nesterov momentum (0 = plain averaging)", momentum);
    cmd.AddValue("heterogeneity", "Linear tasks: non-iid shards, 0 = iid", heterogeneity);
    cmd.AddValue("fixedPointBits", "Fraction bits of the aggregated fixed point", fixedPointBits);
    cmd.AddValue("seed", "Seed of the task and the minibatches", seed);
    std::string transport = "ideal";
    cmd.AddValue("transport", "How islands move messages: ideal | cc | tcp (ScenarioHelper)",
                 transport);
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
        tc.kind = ProxyTaskConfig::ParseKind(taskKind);
        tc.hidden = ProxyTaskConfig::ParseHidden(hidden);
        tc.alpha = alpha;
        tc.classes = classes;
        tc.dataset = dataset;
        tc.datasetDir = datasetDir;
        tc.samplesPerIsland = samplesPerIsland > 0
                                  ? samplesPerIsland
                                  : ProxyTaskConfig::DefaultSamplesPerIsland(tc.kind, dataset);
        tc.dimension = dimension;
        tc.islands = cities.size();
        tc.heterogeneity = heterogeneity;
        tc.seed = seed;
        task = ProxyTask::Create(tc);
        LocalOptimizerConfig inner;
        inner.kind = LocalOptimizerConfig::ParseKind(optimizer);
        inner.learningRate = learningRate;
        inner.momentum = inner.kind == LocalOptimizerKind::SGD ? sgdMomentum : 0.0;
        inner.batchSize = batch;
        OuterOptimizerConfig outer;
        outer.learningRate = outerLr;
        outer.momentum = momentum;
        learners = ProxyLearner::ForAllIslands(task, inner, outer, seed);

        scenario.SetTopology(topology);
        scenario.SetSchedule(schedule);
        scenario.SetCapabilities(NetworkCapabilities::ForPattern(ParsePattern(mode)));
        scenario.SetRounds(rounds);
        scenario.SetTransport(transport);
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
        run.parametersJson = nlohmann::json{
            {"task", taskKind},
            {"dataset", dataset},
            {"hidden", ProxyTaskConfig::HiddenText(tc.hidden)},
            {"alpha", std::isinf(alpha) ? nlohmann::json("inf") : nlohmann::json(alpha)},
            {"classes", classes},
            {"samplesPerIsland", tc.samplesPerIsland},
            {"parameters", task->Dimension()},
            {"optimizer", optimizer},
            {"sgdMomentum", inner.momentum},
            {"batch", batch},
            {"dimension", dimension},
            {"localSteps", localSteps},
            {"computeTime", computeTime},
            {"lr", learningRate},
            {"outerLr", outerLr},
            {"momentum", momentum},
            {"heterogeneity", heterogeneity},
            {"fixedPointBits", fixedPointBits},
            {"modelBytes", modelBytes},
            {"transport", transport},
            {"segmentSize",
             segmentSize}}.dump();
        database = ResultsDatabase::OpenForRun(db, runKey);
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 2;
    }

    std::vector<TrainingRecord> rows;
    Evaluation initial = TrainingMetrics::AverageModel(*task, TrainingMetrics::Vectors(learners));
    std::printf("%5s %10s %11s %9s %11s %9s %10s\n", "round", "time(s)", "avg loss", "avg acc",
                "own loss", "own acc", "consensus");
    std::printf("%5s %10.4f %11.6f %9.4f %11.6f %9.4f %10.6f\n", "init", 0.0, initial.loss,
                initial.accuracy, initial.loss, initial.accuracy, 0.0);
    scenario.SetRoundObserver([&](uint32_t round, double time) {
        auto vectors = TrainingMetrics::Vectors(learners);
        Evaluation average = TrainingMetrics::AverageModel(*task, vectors);
        double consensus = TrainingMetrics::ConsensusDistance(vectors);
        auto islands = TrainingMetrics::IslandEvaluations(*task, vectors);
        for (std::size_t i = 0; i < learners.size(); ++i)
        {
            TrainingRecord row{
                round,           cities[i],    time,     learners[i]->LastLocalLoss(),
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
