/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A user's scenario outside the module's tree: the shipped nine-city topology (read from the
// installed data folder), two pairs of islands, the programs' shared options.
#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    ExperimentOptions options("external-scenario",
                              {"network", "exchange", "island", "run", "packet"});
    options.Parse(argc, argv);
    ScenarioHelper scenario;
    try
    {
        Topology topology =
            TopologyReader::Read(std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology");
        Schedule schedule("pairs", {ScheduleRound{{{"AMS", "LON"}, {"NYC", "LAX"}}}});
        options.Configure(scenario, topology, schedule);
        scenario.Build();
        options.CheckAttributesApplied();
    }
    catch (const std::exception& e)
    {
        return options.Fail(e);
    }
    ScenarioResult result = scenario.Run();
    result.PrintRoundTable(std::cout);
    std::cout << (result.complete ? "complete" : "INCOMPLETE") << " (module "
              << IntelligentNetworkVersion() << ")\n";
    Simulator::Destroy();
    return result.complete ? ExperimentOptions::EXIT_COMPLETE : ExperimentOptions::EXIT_INCOMPLETE;
}
