/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TEST_UTIL_H
#define INTELLIGENT_NETWORK_TEST_UTIL_H

// Helpers shared by the module's ns-3 TestSuites.

#include "ns3/network-graph.h"
#include "ns3/topology.h"
#include "ns3/wire-format.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{
namespace intelligent_network_test
{

/// The message of the std::invalid_argument \p f throws, or "" if it throws none.
template <typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/// A chain of cities C0 - C1 - ... with one device each; link i joins devices i and i+1.
inline Topology
ChainTopology(const std::vector<double>& ratesBps,
              const std::vector<double>& latenciesS,
              double edgeBps = 1e12)
{
    Topology t("chain");
    for (std::size_t i = 0; i <= ratesBps.size(); ++i)
    {
        std::string c = "C" + std::to_string(i);
        t.AddCity(City{c, c, 0.0, 0.0});
        t.AddDevice(Device{c + "D", c, edgeBps, ""});
    }
    for (std::size_t i = 0; i < ratesBps.size(); ++i)
    {
        t.AddLink(TopologyLink{LinkKind::PRIVATE,
                               "C" + std::to_string(i) + "D",
                               "C" + std::to_string(i + 1) + "D",
                               latenciesS[i],
                               ratesBps[i]});
    }
    return t;
}

/// Three cities A, B, C; A-B direct (5 ms) is shorter than A-C-B (3 + 3 ms); 10 Gbps links,
/// no public paths.
inline Topology
TriangleTopology()
{
    Topology t("triangle");
    for (const char* c : {"A", "B", "C"})
    {
        t.AddCity(City{c, c, 0.0, 0.0});
        t.AddDevice(Device{std::string(c) + "D", c, 1e12, ""});
    }
    t.AddLink(TopologyLink{LinkKind::PRIVATE, "AD", "BD", 5e-3, 10e9});
    t.AddLink(TopologyLink{LinkKind::PRIVATE, "AD", "CD", 3e-3, 10e9});
    t.AddLink(TopologyLink{LinkKind::PRIVATE, "CD", "BD", 3e-3, 10e9});
    return t;
}

/// A star: hub city HUB (device HUBD) and \p leaves cities L0.. (devices L<i>D), each leaf
/// device linked to the hub device at \p rateBps with one-way \p latencyS.
inline Topology
StarTopology(const std::vector<double>& latenciesS, double rateBps, double edgeBps = 1e12)
{
    Topology t("star");
    t.AddCity(City{"HUB", "HUB", 0.0, 0.0});
    t.AddDevice(Device{"HUBD", "HUB", edgeBps, ""});
    for (std::size_t i = 0; i < latenciesS.size(); ++i)
    {
        std::string c = "L" + std::to_string(i);
        t.AddCity(City{c, c, 0.0, 0.0});
        t.AddDevice(Device{c + "D", c, edgeBps, ""});
        t.AddLink(TopologyLink{LinkKind::PRIVATE, c + "D", "HUBD", latenciesS[i], rateBps});
    }
    return t;
}

/// A star whose \p leaves links all have latency \p latencyS.
inline Topology
StarTopology(uint32_t leaves, double rateBps, double latencyS, double edgeBps = 1e12)
{
    return StarTopology(std::vector<double>(leaves, latencyS), rateBps, edgeBps);
}

/// Hops (rates and one-way latencies) of a path between two islands.
struct Hops
{
    std::vector<double> rates;
    std::vector<double> latencies;
    /// Sum of the latencies.
    double Latency() const
    {
        double s = 0;
        for (double l : latencies)
        {
            s += l;
        }
        return s;
    }
};

/**
 * The path between two islands whose devices are joined by the WAN hops \p wanRates /
 * \p wanLatencies: at each end the island's access link (island - metro node) and its
 * device's metro link (metro node - device), at NetworkGraphOptions' default latencies. Both
 * run at \p legRateBps: in the test topologies (one device per city, no public paths) the
 * metro link takes the device's edge capacity and the access link the sum of its city's
 * links, the same figure.
 */
inline Hops
IslandPath(const std::vector<double>& wanRates,
           const std::vector<double>& wanLatencies,
           double legRateBps)
{
    const NetworkGraphOptions o;
    Hops h;
    h.rates = {legRateBps, legRateBps};
    h.latencies = {o.accessLatencyS, o.metroLatencyS};
    h.rates.insert(h.rates.end(), wanRates.begin(), wanRates.end());
    h.latencies.insert(h.latencies.end(), wanLatencies.begin(), wanLatencies.end());
    h.rates.insert(h.rates.end(), {legRateBps, legRateBps});
    h.latencies.insert(h.latencies.end(), {o.metroLatencyS, o.accessLatencyS});
    return h;
}

/// Latency of one island's leg to its device (access link plus metro link).
inline double
IslandLegLatency()
{
    const NetworkGraphOptions o;
    return o.accessLatencyS + o.metroLatencyS;
}

/// Analytic time for \p modelBytes in segments of \p segment payload bytes to cross a path of
/// hops (rate, latency), paced at the bottleneck: all but the last segment leave back to back
/// at the bottleneck rate; the last one is stored and forwarded on every hop.
inline double
PacedTransferTime(uint64_t modelBytes,
                  uint32_t segment,
                  const std::vector<double>& hopRates,
                  const std::vector<double>& hopLatencies)
{
    double bottleneck = hopRates[0];
    for (double r : hopRates)
    {
        bottleneck = std::min(bottleneck, r);
    }
    uint64_t n = (modelBytes + segment - 1) / segment;
    uint64_t lastPayload = modelBytes - (n - 1) * segment;
    double wireBefore = static_cast<double>((n - 1) * WireFormat::WireBytes(segment));
    double t = wireBefore * 8 / bottleneck;
    for (std::size_t h = 0; h < hopRates.size(); ++h)
    {
        t += WireFormat::WireBytes(lastPayload) * 8.0 / hopRates[h] + hopLatencies[h];
    }
    return t;
}

/// PacedTransferTime over \p hops.
inline double
PacedTransferTime(uint64_t modelBytes, uint32_t segment, const Hops& hops)
{
    return PacedTransferTime(modelBytes, segment, hops.rates, hops.latencies);
}

} // namespace intelligent_network_test
} // namespace ns3

#endif
