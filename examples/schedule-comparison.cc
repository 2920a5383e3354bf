/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Schedule comparison: the same topology, capabilities and model, several schedules; every
// schedule is simulated in turn (packet level, ns-3) and costed by the fluid CostModel, and the
// round times are printed side by side.
//
//   ./schedule-comparison --schedules=all-in-one,3x3-rotating,ring,grid --modelBytes=10e6
//
// A schedule is a shipped name (data/schedules/<name>.json), a JSON file path, or one of the
// baselines built for the topology's islands: ring-allreduce, tree-allreduce, parameter-server,
// all-to-all, grid, exp-graph, diloco (DiLoCo, 4 local rounds), and ring (ring gossip); islands
// in nearest-neighbour order. (A baseline's fixed pattern is costed by the fluid model; the
// packet level runs the capability set's richest pattern until it reads schedule patterns.)
// Exit status 2 on bad input, 1 if a simulation did not complete.

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/ipv4-address-generator.h"

#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// A shipped schedule, a file, or a baseline of BaselineSchedules by name.
Schedule
FindSchedule(const std::string& name, const std::vector<std::string>& cities,
             const std::vector<Baseline>& baselines)
{
    if (name.find('/') != std::string::npos || name.find(".json") != std::string::npos)
    {
        return Schedule::Load(name, cities);
    }
    std::string shipped =
        std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/schedules/" + name + ".json";
    if (std::ifstream(shipped).good())
    {
        return Schedule::Load(shipped, cities);
    }
    std::string known;
    for (const Baseline& entry : baselines)
    {
        if (entry.schedule.GetName() == name)
        {
            return entry.schedule;
        }
        known += " " + entry.schedule.GetName();
    }
    for (const Baseline& entry : baselines)
    {
        // "diloco" names "diloco-4".
        if (entry.schedule.GetName().rfind(name + "-", 0) == 0)
        {
            return entry.schedule;
        }
    }
    throw std::invalid_argument("unknown schedule '" + name +
                                "': not a file, not in data/schedules, not a baseline (" +
                                known.substr(1) + ")");
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string topologyPath = std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology";
    std::string scheduleList = "all-in-one,3x3-rotating,ring,grid";
    std::string mode = "unicast";
    uint32_t rounds = 2;
    double modelBytes = 10e6;
    double computeTime = 0.05;
    double linkRate = 0;

    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "Topology file", topologyPath);
    cmd.AddValue("schedules", "Comma-separated schedules to compare", scheduleList);
    cmd.AddValue("mode", "unicast | multicast | aggregation", mode);
    cmd.AddValue("rounds", "Rounds to simulate per schedule", rounds);
    cmd.AddValue("modelBytes", "Model bytes exchanged per island per round", modelBytes);
    cmd.AddValue("computeTime", "Seconds of compute per round", computeTime);
    cmd.AddValue("linkRate", "Override private link rate, bit/s (0: topology's)", linkRate);
    cmd.Parse(argc, argv);

    Topology topology("none");
    std::vector<Schedule> schedules;
    NetworkCapabilities caps;
    NetworkGraphOptions graphOptions;
    graphOptions.privateRateBps = linkRate;
    std::unique_ptr<CostModel> cost;
    try
    {
        if (rounds == 0 || modelBytes < 1 || linkRate < 0 || computeTime < 0)
        {
            throw std::invalid_argument("rounds and modelBytes must be at least 1; linkRate and "
                                        "computeTime must not be negative");
        }
        topology = TopologyReader::Read(topologyPath, 1e9);
        caps = NetworkCapabilities::ForPattern(ParsePattern(mode));
        NetworkGraph graph = NetworkGraph::FromTopology(topology, graphOptions);
        CostParameters params;
        params.modelBytes = modelBytes;
        params.computeTimeS = computeTime;
        cost = std::make_unique<CostModel>(graph, caps, params);

        std::vector<std::string> islands = topology.CityCodes();
        auto geo = BaselineSchedules::NearestNeighbourOrder(cost->Routes(), islands);
        auto baselines = BaselineSchedules::All(geo, 4);
        baselines.push_back(Baseline{BaselineSchedules::Ring(geo), {}});
        for (const std::string& name : CsvTable::SplitLine("--schedules", 0, scheduleList))
        {
            if (!name.empty())
            {
                schedules.push_back(FindSchedule(name, islands, baselines));
            }
        }
        if (schedules.empty())
        {
            throw std::invalid_argument("--schedules is empty");
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 2;
    }

    // One simulation per schedule; the simulator is destroyed in between.
    std::vector<std::vector<double>> simulated; // [schedule][round]
    std::vector<std::vector<double>> predicted;
    int status = 0;
    for (const Schedule& schedule : schedules)
    {
        ScenarioResult result;
        {
            ScenarioHelper scenario;
            scenario.SetTopology(topology);
            scenario.SetGraphOptions(graphOptions);
            scenario.SetSchedule(schedule);
            scenario.SetCapabilities(caps);
            scenario.SetRounds(rounds);
            scenario.SetIslandAttribute("ModelBytes",
                                        UintegerValue(static_cast<uint64_t>(modelBytes)));
            scenario.SetIslandAttribute("ComputeTime", TimeValue(Seconds(computeTime)));
            result = scenario.Run();
            Simulator::Destroy();
        }
        // Addresses are global state of the IPv4 stack: the next network starts afresh.
        Ipv4AddressGenerator::Reset();
        if (!result.complete)
        {
            std::cerr << "schedule " << schedule.GetName() << ": " << result.error << "\n";
            status = 1;
        }
        std::vector<double> sim;
        std::vector<double> model;
        for (uint32_t r = 0; r < rounds; ++r)
        {
            sim.push_back(result.RoundDuration(r));
        }
        for (const RoundCost& c : cost->Run(schedule, rounds))
        {
            model.push_back(c.roundS);
        }
        simulated.push_back(sim);
        predicted.push_back(model);
    }

    std::cout << "Schedule comparison: " << topology.GetName() << ", mode " << mode << ", "
              << modelBytes / 1e6 << " MB model, " << rounds << " rounds\n\n";
    const int w = 16;
    std::cout << std::left << std::setw(12) << "round" << std::right;
    for (const Schedule& s : schedules)
    {
        std::cout << std::setw(w) << s.GetName();
    }
    std::cout << "\n" << std::fixed << std::setprecision(3);
    auto row = [&](const std::string& label, auto value) {
        std::cout << std::left << std::setw(12) << label << std::right;
        for (std::size_t i = 0; i < schedules.size(); ++i)
        {
            std::cout << std::setw(w) << value(i);
        }
        std::cout << "\n";
    };
    for (uint32_t r = 0; r < rounds; ++r)
    {
        row(std::to_string(r) + " (s)", [&](std::size_t i) { return simulated[i][r]; });
    }
    auto mean = [](const std::vector<double>& v) {
        double s = 0;
        for (double x : v)
        {
            s += x;
        }
        return v.empty() ? 0.0 : s / v.size();
    };
    row("mean (s)", [&](std::size_t i) { return mean(simulated[i]); });
    row("model (s)", [&](std::size_t i) { return mean(predicted[i]); });
    std::cout << std::left << std::setw(12) << "period" << std::right;
    for (const Schedule& s : schedules)
    {
        std::cout << std::setw(w) << s.Period();
    }
    std::cout << "\n\n'model' is the fluid CostModel's mean round time; the optimizer ranks "
                 "schedules by it.\n";
    return status;
}
