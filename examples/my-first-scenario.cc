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
    double modelBytes = 10e6; // bytes every island sends per round
    uint32_t rounds = 2;
    CommandLine cmd(__FILE__);
    cmd.AddValue("modelBytes", "Model bytes per island per round", modelBytes);
    cmd.AddValue("rounds", "Rounds to simulate", rounds);
    cmd.Parse(argc, argv);

    // 1. The WAN: cities, devices and links, read from a topology file.
    Topology topology =
        TopologyReader::Read(std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology");
    // 2. Who averages with whom: a period of two rounds (cities not listed sit out).
    Schedule schedule("my-schedule", {ScheduleRound{{{"AMS", "LON"}, {"NYC", "LAX"}}},
                                      ScheduleRound{{{"AMS", "LON", "NYC", "LAX"}}}});
    // 3. The experiment: network, islands, routes and rates, built from the two.
    ScenarioHelper scenario;
    scenario.SetTopology(topology);
    scenario.SetSchedule(schedule);
    scenario.SetCapabilities(NetworkCapabilities::ForPattern(ExchangePattern::ALL_TO_ALL));
    scenario.SetRounds(rounds);
    scenario.SetIslandAttribute("ModelBytes", UintegerValue(static_cast<uint64_t>(modelBytes)));
    ScenarioResult result = scenario.Run();
    // 4. What happened, round by round.
    result.PrintRoundTable(std::cout);
    std::cout << (result.complete ? "complete" : "INCOMPLETE: " + result.error) << "\n";
    Simulator::Destroy();
    return result.complete ? 0 : 1;
}
