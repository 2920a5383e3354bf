/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Benchmark input generator (not a test): writes the topology and schedule files the scaling
// runs of bench/run-benchmarks.sh use, so that nine-city-training, bench-raw-udp and
// bench-fluid all read the same files.
//
//   ./bench-inputs --synthetic=32 --seed=1 --topologyOut=syn32.topology --gridOut=grid32.json
//   ./bench-inputs --topology=data/nine-city.topology --gridOut=grid9.json
//
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
    std::string topologyPath;
    uint32_t synthetic = 0;
    uint64_t seed = 1;
    std::string topologyOut;
    std::string gridOut;

    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "Read this topology (instead of --synthetic)", topologyPath);
    cmd.AddValue("synthetic", "Generate a synthetic topology of this many cities", synthetic);
    cmd.AddValue("seed", "Seed of the synthetic topology", seed);
    cmd.AddValue("topologyOut", "Write the topology here", topologyOut);
    cmd.AddValue("gridOut", "Write the grid baseline schedule here", gridOut);
    cmd.Parse(argc, argv);

    try
    {
        Topology topology;
        if (synthetic > 0)
        {
            SyntheticTopologyOptions options;
            options.cities = synthetic;
            options.seed = seed;
            topology = SyntheticTopology::Generate(options);
        }
        else
        {
            topology = TopologyReader::Read(topologyPath.empty() ? bench::DefaultTopology()
                                                                 : topologyPath,
                                            1e9);
        }
        if (!topologyOut.empty())
        {
            TopologyReader::WriteFile(topology, topologyOut);
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
        std::cerr << "error: " << e.what() << std::endl;
        return 2;
    }
    return 0;
}
