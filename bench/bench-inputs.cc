/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Benchmark input generator (not a test): writes the topology and schedule files the scaling
// runs of bench/run-benchmarks.sh use, so that nine-city-training, bench-raw-udp and
// bench-fluid all read the same files.
//
//   ./bench-inputs --synthetic=32 --topologySeed=1 --writeTopology=syn32.topology --gridOut=grid32.json
//   ./bench-inputs --topology=data/nine-city.topology --gridOut=grid9.json
//
// Options: those of every program that apply (ExperimentOptions; --PrintHelp).
// With --synthetic=N: SyntheticTopology::Generate (N cities, seed, other options default),
// written with TopologyReader::WriteFile. The grid schedule is BaselineSchedules::Grid over
// the islands in NearestNeighbourOrder (rows are regional), as the optimizer's baselines.

#include "bench-util.h"

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    ns3::ExperimentOptions options("bench-inputs", {"topology", "synthetic"});
    options.Add("gridOut");
    options.SetSimulates(false);
    options.Parse(argc, argv);
    const std::string gridOut = options.GetText("gridOut");

    try
    {
        Topology topology = options.LoadTopology();
        if (!options.GetText("writeTopology").empty())
        {
            TopologyReader::WriteFile(topology, options.GetText("writeTopology"));
        }
        if (!gridOut.empty())
        {
            NetworkGraph graph = NetworkGraph::FromTopology(topology);
            RoutePlanner routes(graph);
            Schedule grid = BaselineSchedules::Grid(
                BaselineSchedules::NearestNeighbourOrder(routes, graph.IslandCities()));
            grid.Save(gridOut);
        }
        std::cout << "inputs: " << topology.Cities().size() << " cities, "
                  << topology.Devices().size() << " devices, " << topology.Links().size()
                  << " links\n";
    }
    catch (const std::exception& e)
    {
        return options.Fail(e);
    }
    return 0;
}
