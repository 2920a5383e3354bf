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
// Options: those of every program (ExperimentOptions; --PrintHelp). Exit status 2 on bad
// input, 1 if a simulation did not complete.

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/ipv4-address-generator.h"

#include <algorithm>
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
    ExperimentOptions options("schedule-comparison", {"topology", "network", "exchange", "fpga",
                                                       "island", "run", "packet", "comparison"});
    options.Parse(argc, argv);
    const std::string mode = options.GetText("mode");
    const auto rounds = static_cast<uint32_t>(options.GetInteger("rounds"));
    const double modelBytes = static_cast<double>(options.GetInteger("modelBytes"));

    Topology topology("none");
    std::vector<Schedule> schedules;
    std::unique_ptr<CostModel> cost;
    try
    {
        topology = options.LoadTopology();
        NetworkGraph graph = NetworkGraph::FromTopology(topology, options.ToGraphOptions());
        cost = std::make_unique<CostModel>(graph, options.ToCapabilities(topology),
                                           options.ToCostParameters());

        std::vector<std::string> islands = topology.CityCodes();
        auto geo = BaselineSchedules::NearestNeighbourOrder(cost->Routes(), islands);
        auto baselines = BaselineSchedules::All(geo, 4);
        baselines.push_back(Baseline{BaselineSchedules::Ring(geo), {}});
        for (const std::string& name : options.GetList("schedules"))
        {
            schedules.push_back(FindSchedule(name, islands, baselines));
        }
        if (schedules.empty())
        {
            throw std::invalid_argument("--schedules is empty");
        }
    }
    catch (const std::exception& e)
    {
        return options.Fail(e);
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
            try
            {
                options.Configure(scenario, topology, schedule);
                scenario.Build();
                options.CheckAttributesApplied();
            }
            catch (const std::exception& e)
            {
                return options.Fail(e);
            }
            result = scenario.Run();
            Simulator::Destroy();
        }
        // Addresses are global state of the IPv4 stack: the next network starts afresh.
        Ipv4AddressGenerator::Reset();
        if (!result.complete)
        {
            std::cerr << "schedule " << schedule.GetName() << ": " << result.error << "\n";
            status = ExperimentOptions::EXIT_INCOMPLETE;
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
    // Columns wide enough for every name (at least 14) and times to the microsecond (the
    // round times compare with optimize-schedule's and the results database's).
    int w = 14;
    for (const Schedule& s : schedules)
    {
        w = std::max(w, static_cast<int>(s.GetName().size()) + 2);
    }
    std::cout << std::left << std::setw(12) << "round" << std::right;
    for (const Schedule& s : schedules)
    {
        std::cout << std::setw(w) << s.GetName();
    }
    std::cout << "\n" << std::fixed << std::setprecision(6);
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
