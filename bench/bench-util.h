/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Shared bits of the benchmark programs in bench/ (not part of the module): CPU time, and the
// inputs (topology, schedule, graph options) read exactly as examples/nine-city-training.cc
// reads them, so that a benchmark given the same options builds the same network.
#ifndef INTELLIGENT_NETWORK_BENCH_UTIL_H
#define INTELLIGENT_NETWORK_BENCH_UTIL_H

#include "ns3/command-line.h"
#include "ns3/network-capabilities.h"
#include "ns3/network-graph.h"
#include "ns3/schedule.h"
#include "ns3/topology-reader.h"
#include "ns3/topology.h"
#include "ns3/wire-format.h"

#include <sys/resource.h>

#include <stdexcept>
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

/// A schedule given by name ("3x3-rotating") is looked up among the shipped ones (as
/// nine-city-training does).
inline std::string
SchedulePath(const std::string& s)
{
    if (s.find('/') != std::string::npos || s.find(".json") != std::string::npos)
    {
        return s;
    }
    return std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/schedules/" + s + ".json";
}

inline std::string
DefaultTopology()
{
    return std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology";
}

/// The experiment inputs shared by the benchmark programs (nine-city-training's options).
struct Inputs
{
    std::string topologyPath = DefaultTopology();
    std::string schedule = "3x3-rotating";
    std::string mode = "unicast";
    uint32_t rounds = 1;
    double modelBytes = 100e6;
    uint32_t segmentSize = 8192;
    uint32_t slotBytes = 0;
    uint32_t mtu = 9000;
    double linkRate = 0;
    double accessRate = 0;
    double publicRate = 0;

    ns3::Topology topology;
    ns3::Schedule sched;
    ns3::NetworkGraphOptions graphOptions;
    ns3::NetworkCapabilities caps;

    /// Registers the shared options (same names as nine-city-training's).
    void AddOptions(ns3::CommandLine& cmd)
    {
        cmd.AddValue("topology", "Topology file", topologyPath);
        cmd.AddValue("schedule", "Schedule file, or a shipped schedule name", schedule);
        cmd.AddValue("mode", "unicast | multicast | aggregation", mode);
        cmd.AddValue("rounds", "Rounds (the schedule's period repeats)", rounds);
        cmd.AddValue("modelBytes", "Model bytes per island per round", modelBytes);
        cmd.AddValue("segmentSize", "Model bytes per segment (datagram)", segmentSize);
        cmd.AddValue("slotBytes", "Aggregation slot size, bytes (0: the segment size)", slotBytes);
        cmd.AddValue("mtu", "MTU of every link, bytes", mtu);
        cmd.AddValue("linkRate", "Override private link rate, bit/s (0: topology's)", linkRate);
        cmd.AddValue("accessRate",
                     "Rate of each device's metro and exchange link, bit/s (0: edge capacity)",
                     accessRate);
        cmd.AddValue("publicRate", "Override public path rate, bit/s (0: topology's)", publicRate);
    }

    /// Reads the files and checks the options as nine-city-training does; throws on bad input.
    void Load()
    {
        topology = ns3::TopologyReader::Read(topologyPath, publicRate > 0 ? publicRate : 1e9);
        sched = ns3::Schedule::Load(SchedulePath(schedule), topology.CityCodes());
        graphOptions.privateRateBps = linkRate;
        graphOptions.metroRateBps = accessRate; // as nine-city-training's --accessRate
        graphOptions.exchangeRateBps = accessRate;
        graphOptions.publicRateBps = publicRate;
        caps = ns3::NetworkCapabilities::ForPattern(ns3::ParsePattern(mode));
        // nine-city-training's default is the segment size; rounded down to whole int32
        // values here, which NetworkCapabilities::Validate requires.
        caps.slotBytes = slotBytes > 0 ? slotBytes : segmentSize / 4 * 4;
        if (ns3::WireFormat::IpBytes(segmentSize) > mtu || mtu > 65535)
        {
            throw std::invalid_argument("the segment does not fit the MTU (at most 65535)");
        }
        if (rounds == 0 || modelBytes < 1)
        {
            throw std::invalid_argument("rounds and modelBytes must be positive");
        }
    }
};

} // namespace bench

#endif
