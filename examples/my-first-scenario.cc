/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// My first scenario (doc/tutorial.rst): four islands of the nine-city WAN average their models
// in two pairs, then all four together, round after round.
#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    // 0. The options every program shares (--modelBytes, --rounds, --linkRate, --mode, ...,
    //    and the ns-3 attributes they map to), one set of defaults; --PrintHelp lists them.
    ExperimentOptions options("my-first-scenario",
                              {"topology", "network", "exchange", "fpga", "island", "run",
                               "packet"});
    options.Parse(argc, argv); // bad input: a message naming the flag, exit status 2
    ScenarioHelper scenario;
    try
    {
        // 1. The WAN: cities, devices and links, read from a topology file (--topology).
        Topology topology = options.LoadTopology();
        // 2. Who averages with whom: a period of two rounds (cities not listed sit out).
        Schedule schedule("my-schedule", {ScheduleRound{{{"AMS", "LON"}, {"NYC", "LAX"}}},
                                          ScheduleRound{{{"AMS", "LON", "NYC", "LAX"}}}});
        // 3. The experiment: network, islands, routes and rates, built from the two and the
        //    options (link rates, capabilities, rounds, MTU, loss, island attributes).
        options.Configure(scenario, topology, schedule);
        scenario.Build();
        options.CheckAttributesApplied(); // every attribute given on the command line holds
    }
    catch (const std::exception& e)
    {
        return options.Fail(e); // exit status 2, nothing simulated
    }
    ScenarioResult result = scenario.Run();
    // 4. What happened, round by round.
    result.PrintRoundTable(std::cout);
    std::cout << (result.complete ? "complete" : "INCOMPLETE: " + result.error) << "\n";
    Simulator::Destroy();
    return result.complete ? ExperimentOptions::EXIT_COMPLETE : ExperimentOptions::EXIT_INCOMPLETE;
}
