/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Issue 15's loss envelope of every clique-round of an experiment, without simulating it:
// takes nine-city-training's options (the same topology, schedule, mode and --lossRate), builds
// the scenario and prints, per round and clique, the clique's longest end-to-end path (links),
// its round-trip propagation time and its end-to-end loss (LossEnvelope::ForClique), as CSV:
//
//   round,clique,members,hops,rtt_s,path_loss
//
// A clique-round that takes T without loss should take at most T / (1 - path_loss) + 4 rtt_s
// with loss. scripts/loss-envelope.py joins these rows with the rounds table of the results
// database (by round and clique) to compute the bound and the ratio.
//
//   ./loss-envelope-bound --schedule=3x3-rotating --mode=multicast --rounds=2 --lossRate=0.05
//
// Exit status: 0, or 2 on bad input (as every program).

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"

#include <iostream>
#include <sstream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    ExperimentOptions options("loss-envelope-bound",
                              {"topology", "network", "exchange", "schedule", "optimizer", "island",
                               "fpga", "run", "packet"});
    options.Parse(argc, argv);
    std::ostringstream out;
    try
    {
        Topology topology = options.LoadTopology();
        Schedule sched = options.LoadSchedule(topology);
        ScenarioHelper scenario;
        options.Configure(scenario, topology, sched);
        scenario.Build();
        const double loss = options.GetDouble("lossRate");
        out << "round,clique,members,hops,rtt_s,path_loss\n";
        out.precision(9);
        for (uint64_t r = 0; r < options.GetInteger("rounds"); ++r)
        {
            const auto& cliques = sched.RoundAt(static_cast<std::size_t>(r)).cliques;
            for (std::size_t c = 0; c < cliques.size(); ++c)
            {
                std::vector<uint32_t> nodes;
                std::string members;
                for (const auto& city : cliques[c])
                {
                    nodes.push_back(scenario.GetGraph().IslandNode(city));
                    members += (members.empty() ? "" : "+") + city;
                }
                if (nodes.size() < 2)
                {
                    continue; // nothing to exchange
                }
                LossEnvelope e = LossEnvelope::ForClique(scenario.GetRoutes(),
                                                         scenario.GetTraffic(), nodes, loss);
                out << r << "," << c << "," << members << "," << e.hops << "," << e.rttS << ","
                    << e.pathLoss << "\n";
            }
        }
    }
    catch (const std::exception& e)
    {
        return options.Fail(e);
    }
    Simulator::Destroy();
    std::cout << out.str();
    return 0;
}
