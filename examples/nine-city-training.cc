/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The main experiment: training islands (one per city; by default the nine cities of the
// DoubleZero-like WAN: AMS, BAR, FRA, LAX, LON, NYC, SEO, SIN, TYO) exchange their models
// round after round following a schedule; the program prints a per-round summary and the
// busiest links, and appends the run to an SQLite results database.
//
//   ./nine-city-training --schedule=3x3-rotating --rounds=4 --modelBytes=100e6 --db=results.db
//   ./nine-city-training --topology=test/data/zoo-test.graphml --mode=multicast  # optimized
//   (any Internet Topology Zoo GraphML file, e.g. Abilene.graphml from topology-zoo.org)
//
// Every option (ExperimentOptions, doc/options-table.rst) has a default; --PrintHelp lists
// them. Without --schedule the optimizer's best schedule for the topology is run. Exit
// status: 0 complete, 1 incomplete run, 2 bad input (options, attributes, files), reported
// before anything is simulated with the flag, file, line and field named.

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"

#include <iostream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("NineCityTraining");

int
main(int argc, char* argv[])
{
    ExperimentOptions options("nine-city-training",
                              {"topology", "network", "exchange", "schedule", "optimizer",
                               "island", "fpga", "run", "packet", "output", "trace"});
    options.Parse(argc, argv);
    const bool quiet = options.GetFlag("quiet");
    const std::string db = options.GetText("db");

    ScenarioHelper scenario;
    ExperimentTraces traces;
    RunRecord run;
    std::unique_ptr<ResultsDatabase> database; // opened and checked before the simulation
    try
    {
        Topology topology = options.LoadTopology();
        Schedule sched = options.LoadSchedule(topology);
        options.Configure(scenario, topology, sched);
        scenario.Build();
        options.CheckAttributesApplied();
        traces.Install(options, scenario, topology);
        run = options.MakeRunRecord(topology.GetName(), sched.GetName());
        database = ResultsDatabase::OpenForRun(db, run.runKey);
        if (!quiet)
        {
            std::cout << "Training on " << topology.GetName() << ": "
                      << scenario.GetIslandCities().size() << " islands, schedule '"
                      << sched.GetName() << "' (period " << sched.Period() << "), mode "
                      << options.GetText("mode") << ", "
                      << static_cast<double>(options.GetInteger("modelBytes")) / 1e6
                      << " MB model, " << options.GetInteger("rounds") << " rounds\n"
                      << sched.Describe();
        }
    }
    catch (const std::exception& e)
    {
        return options.Fail(e);
    }

    ScenarioResult result = scenario.Run();
    if (!quiet)
    {
        std::cout << "\nPer-round summary (simulated time):\n";
        result.PrintRoundTable(std::cout);
        std::cout << "\nBusiest link directions:\n";
        result.PrintLinkTable(std::cout, 8);
    }
    std::cout << "\n"
              << (result.complete ? "complete" : "INCOMPLETE") << ": " << result.rounds.size()
              << " clique-rounds, simulated " << result.simTimeS << " s in " << result.wallTimeS
              << " s wall time, " << result.events << " events; transport " << result.transport
              << ", queue drops " << result.queueDrops << ", ECN marks " << result.ecnMarks
              << ", retransmitted " << static_cast<double>(result.retransmittedBytes) / 1e6
              << " MB, ECN echoes " << result.ecnEchoes << ", ECN reductions "
              << result.ecnReductions << "; simulation CPU " << result.cpuTimeS << " s\n";
    for (const std::string& file : traces.Finish())
    {
        std::cout << "trace: " << file << "\n";
    }
    int status = result.complete ? ExperimentOptions::EXIT_COMPLETE
                                 : ExperimentOptions::EXIT_INCOMPLETE;
    if (!result.complete)
    {
        std::cerr << "nine-city-training: error: " << result.error << std::endl;
    }
    if (database)
    {
        try
        {
            int64_t id = result.Write(*database, run);
            std::cout << "results: run " << id << " appended to " << db << "\n";
        }
        catch (const std::exception& e)
        {
            status = options.Fail(e);
        }
    }
    Simulator::Destroy();
    return status;
}
