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
    bench::Inputs in;
    std::string mode = "unicast";
    uint32_t rounds = 1;
    double modelBytes = 100e6;
    uint32_t segmentSize = 8192;
    uint32_t slotBytes = 0;
    double computeTime = 0.05;
    uint32_t localSteps = 1;
    uint32_t mtu = 9000;
    double minCpu = 0.5;

    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "Topology file", in.topologyPath);
    cmd.AddValue("schedule", "Schedule file, or a shipped schedule name", in.schedule);
    cmd.AddValue("mode", "unicast | multicast | aggregation", mode);
    cmd.AddValue("rounds", "Rounds (the schedule's period repeats)", rounds);
    cmd.AddValue("modelBytes", "Model bytes per island per round", modelBytes);
    cmd.AddValue("slotBytes", "Aggregation slot size, bytes (0: the segment size)", slotBytes);
    cmd.AddValue("segmentSize", "Model bytes per segment", segmentSize);
    cmd.AddValue("mtu", "MTU of every link (checked only: the segment must fit)", mtu);
    cmd.AddValue("computeTime", "Seconds of compute per local step", computeTime);
    cmd.AddValue("localSteps", "Local steps per round", localSteps);
    cmd.AddValue("linkRate", "Override private link rate, bit/s (0: topology's)", in.linkRate);
    cmd.AddValue("accessRate", "Island access rate, bit/s (0: edge capacity)", in.accessRate);
    cmd.AddValue("publicRate", "Override public path rate, bit/s (0: topology's)", in.publicRate);
    cmd.AddValue("minCpu", "Repeat evaluations for at least this many CPU seconds", minCpu);
    cmd.Parse(argc, argv);

    NetworkCapabilities caps;
    CostParameters params;
    try
    {
        in.Load();
        caps = NetworkCapabilities::ForMode(NetworkCapabilities::ParseMode(mode));
        // nine-city-training's default is the segment size; rounded down to whole int32
        // values here, which NetworkCapabilities::Validate requires.
        caps.slotBytes = slotBytes > 0 ? slotBytes : segmentSize / 4 * 4;
        params.modelBytes = modelBytes;
        params.segmentPayloadBytes = segmentSize;
        params.computeTimeS = computeTime;
        params.localSteps = localSteps;
        params.overlap = false; // ScenarioHelper's barrier rounds
        params.Validate();
        if (WireFormat::IpBytes(segmentSize) > mtu || mtu > 65535)
        {
            throw std::invalid_argument("the segment does not fit the MTU");
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 2;
    }

    auto evaluate = [&]() {
        NetworkGraph graph = NetworkGraph::FromTopology(in.topology, in.graphOptions);
        CostModel model(graph, caps, params);
        return model.Run(in.sched, rounds);
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
    CostModel warm(graph, caps, params);
    warm.Run(in.sched, rounds);
    uint64_t warmEvals = 0;
    double w0 = bench::CpuSeconds();
    double w1 = w0;
    do
    {
        warm.Run(in.sched, rounds);
        ++warmEvals;
        w1 = bench::CpuSeconds();
    } while (w1 - w0 < minCpu / 5);

    std::cout << std::setprecision(9);
    std::cout << "fluid.mode=" << mode << "\n" << "fluid.rounds=" << costs.size() << "\n";
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
