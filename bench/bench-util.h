/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Shared bits of the benchmark programs in bench/ (not part of the module): CPU time, and the
// inputs (topology, schedule, graph options) read by the same options object as
// examples/nine-city-training.cc, so that a benchmark given the same options builds the same
// network.
#ifndef INTELLIGENT_NETWORK_BENCH_UTIL_H
#define INTELLIGENT_NETWORK_BENCH_UTIL_H

#include "ns3/experiment-options.h"
#include "ns3/network-capabilities.h"
#include "ns3/network-graph.h"
#include "ns3/schedule.h"
#include "ns3/topology.h"

#include <sys/resource.h>

#include <string>

namespace bench
{

/// CPU seconds (user + system) used by this process so far.
inline double
CpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/// Peak resident set size of this process, MiB.
inline double
PeakRssMiB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

/// The experiment inputs shared by the benchmark programs, read by the options object of every
/// program (ExperimentOptions: same names, defaults and checks as nine-city-training's).
struct Inputs
{
    /// The options of \p program: topology, network, mode, schedule (or the optimizer's),
    /// FPGA, rounds, model and segment size; add more with options.Use / Add.
    explicit Inputs(const std::string& program)
        : options(program, {"topology", "network", "exchange", "schedule", "optimizer", "fpga",
                            "run"})
    {
        options.Add("modelBytes");
        options.Add("segmentSize");
    }

    ns3::ExperimentOptions options;
    ns3::Topology topology;
    ns3::Schedule sched;
    ns3::NetworkGraphOptions graphOptions;
    ns3::NetworkCapabilities caps;
    std::string mode;
    uint32_t rounds = 0;
    double modelBytes = 0;
    uint32_t segmentSize = 0;

    /// Reads the files as nine-city-training does; throws on bad input.
    void Load()
    {
        topology = options.LoadTopology();
        sched = options.LoadSchedule(topology);
        graphOptions = options.ToGraphOptions();
        caps = options.ToCapabilities(topology);
        mode = options.GetText("mode");
        rounds = static_cast<uint32_t>(options.GetInteger("rounds"));
        modelBytes = static_cast<double>(options.GetInteger("modelBytes"));
        segmentSize = static_cast<uint32_t>(options.GetInteger("segmentSize"));
    }
};

} // namespace bench

#endif
