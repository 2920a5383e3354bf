/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TOPOLOGY_LATENCY_CHECK_H
#define INTELLIGENT_NETWORK_TOPOLOGY_LATENCY_CHECK_H

#include "topology.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ns3
{

/// What to do with a link latency below the speed of light in fibre (see TopologyLatencyCheck).
enum class LatencyCheckMode
{
    OFF,  ///< Do not check.
    WARN, ///< Keep the latency, print a warning naming file, line, link, latency and bound.
    FIX   ///< Raise the latency to the bound (and say so).
};

/// One link whose latency is below the physical bound.
struct LatencyFinding
{
    std::size_t link;   ///< Index into Topology::Links().
    std::string file;   ///< File the link was read from (the topology's source if unknown).
    std::size_t line;   ///< 1-based line (0 if unknown).
    std::string name;   ///< "SEO1-TYO2" (devices) or "AMS-FRA" (public path).
    double latencyS;    ///< One-way latency given.
    double boundS;      ///< Great-circle distance x fibre delay per km.
    double km;          ///< Great-circle distance between the endpoints' cities.

    /// "file:line: link SEO1-TYO2 (private): latency 4.5 ms is below ... 5.68 ms ..."
    std::string Describe() const;
};

/**
 * \ingroup intelligent-network
 * \brief Checks every link latency against the speed of light in optical fibre. Pure C++.
 *
 * Light in standard single-mode fibre travels at c / n with a group index n of about 1.468
 * (ITU-T G.652 fibre at 1550 nm, e.g. Corning SMF-28: 1.4677), i.e. about 204,000 km/s or
 * 4.9 us per km. No path between two points can be faster than the great-circle distance
 * (spherical Earth, radius 6371 km) at that speed, so a link latency below
 * distance x 4.9 us/km is not physical: the data were estimated or rounded. A device stands at
 * its city's coordinates, so links inside one city (distance 0) are never flagged; links whose
 * cities have no coordinates cannot be checked (Unchecked()).
 */
class TopologyLatencyCheck
{
  public:
    /// Fibre propagation delay, microseconds per km (group index 1.468).
    static constexpr double kFibreMicrosPerKm = 4.9;

    /// Great-circle distance in km between two points given in degrees (Earth radius 6371 km).
    static double GreatCircleKm(double lat1, double lon1, double lat2, double lon2);

    /// Lower bound (s) of the latency of \p link of \p topology; NaN if a city has no
    /// coordinates.
    static double BoundS(const Topology& topology,
                         const TopologyLink& link,
                         double microsPerKm = kFibreMicrosPerKm);

    /// Every link of \p topology whose latency is below its bound, in link order.
    static std::vector<LatencyFinding> Find(const Topology& topology,
                                            double microsPerKm = kFibreMicrosPerKm);
    /// Number of links that cannot be checked (a city without coordinates).
    static std::size_t Unchecked(const Topology& topology);

    /// "off" | "warn" | "fix"; throws std::invalid_argument naming the option otherwise.
    static LatencyCheckMode ParseMode(const std::string& text);
    static std::string ModeName(LatencyCheckMode mode);
};

} // namespace ns3

#endif
