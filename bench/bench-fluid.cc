/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Benchmark companion (not a test): the fluid CostModel's per-round times for the options
// nine-city-training takes, and the CPU time of one evaluation.
//
// One evaluation is what the fluid model needs to answer the question the packet run answers:
// build the NetworkGraph from the (already read) topology, construct the CostModel (routes,
// traffic planner) and compute Run(schedule, rounds). It is repeated with a fresh CostModel
// each time (its cache starts empty) until --minCpu seconds of CPU have been used; the mean
// is printed, and the mean of a warm re-evaluation on one CostModel (cache hits) for
// reference.
//
//   ./bench-fluid --mode=multicast --schedule=all-in-one --rounds=1 --modelBytes=100e6
//
// Prints key=value lines: fluid.round_s.<r>, fluid.comm_s.<r>, fluid.cpu_per_eval_s, ...

#include "bench-util.h"

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    bench::Inputs in("bench-fluid");
    in.options.Use("island");
    in.options.Add("minCpu");
    in.options.SetSimulates(false);
    in.options.Parse(argc, argv);
    const double minCpu = in.options.GetDouble("minCpu");

    CostParameters params; // no overlap: ScenarioHelper's barrier rounds
    try
    {
        in.Load();
        params = in.options.ToCostParameters();
    }
    catch (const std::exception& e)
    {
        return in.options.Fail(e);
    }

    auto evaluate = [&]() {
        NetworkGraph graph = NetworkGraph::FromTopology(in.topology, in.graphOptions);
        CostModel model(graph, in.caps, params);
        return model.Run(in.sched, in.rounds);
    };

    std::vector<RoundCost> costs;
    uint64_t evals = 0;
    double t0 = bench::CpuSeconds();
    double t1 = t0;
    do
    {
        costs = evaluate();
        ++evals;
        t1 = bench::CpuSeconds();
    } while (t1 - t0 < minCpu);

    // Warm: one CostModel, its cache filled by the first evaluation.
    NetworkGraph graph = NetworkGraph::FromTopology(in.topology, in.graphOptions);
    CostModel warm(graph, in.caps, params);
    warm.Run(in.sched, in.rounds);
    uint64_t warmEvals = 0;
    double w0 = bench::CpuSeconds();
    double w1 = w0;
    do
    {
        warm.Run(in.sched, in.rounds);
        ++warmEvals;
        w1 = bench::CpuSeconds();
    } while (w1 - w0 < minCpu / 5);

    std::cout << std::setprecision(9);
    std::cout << "fluid.mode=" << in.mode << "\n" << "fluid.rounds=" << costs.size() << "\n";
    for (std::size_t r = 0; r < costs.size(); ++r)
    {
        std::cout << "fluid.round_s." << r << "=" << costs[r].roundS << "\n"
                  << "fluid.comm_s." << r << "=" << costs[r].commS << "\n";
    }
    std::cout << "fluid.evals=" << evals << "\n"
              << "fluid.cpu_per_eval_s=" << (t1 - t0) / static_cast<double>(evals) << "\n"
              << "fluid.cpu_per_warm_eval_s=" << (w1 - w0) / static_cast<double>(warmEvals)
              << "\n";
    return 0;
}
