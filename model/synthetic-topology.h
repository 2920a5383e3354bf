/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_SYNTHETIC_TOPOLOGY_H
#define INTELLIGENT_NETWORK_SYNTHETIC_TOPOLOGY_H

#include "topology.h"

#include <cstddef>
#include <cstdint>

namespace ns3
{

/// Knobs of SyntheticTopology::Generate.
struct SyntheticTopologyOptions
{
    std::size_t cities = 32;           ///< Number of cities (1 .. 676).
    uint64_t seed = 1;                 ///< Seeds city positions and device counts.
    std::size_t maxDevicesPerCity = 2; ///< Each city gets 1 .. this many devices.
    std::size_t neighbours = 3;        ///< Private links from each city to its nearest cities.
    double microsPerKm = 4.9;          ///< Propagation in fibre, microseconds per km.
    double routeFactor = 1.4;          ///< Private fibre route length / great-circle distance.
    double publicRouteFactor = 2.0;    ///< Public-internet path length / great-circle distance.
    double privateCapacityBps = 10e9;  ///< Capacity of private links.
    double publicCapacityBps = 1e9;    ///< Capacity of public paths.
    double edgeCapacityBps = 10e9;     ///< Devices' edge capacity (island access).
    double intraCityLatencyS = 0.2e-3; ///< Private link between two devices of one city.
    double minLatencyS = 0.1e-3;       ///< Floor of any inter-city latency.
};

/**
 * \ingroup intelligent-network
 * \brief Deterministic, seeded N-city WAN for scaling experiments. Pure C++.
 *
 * Cities are placed uniformly at random on the sphere (codes "CAA", "CAB", ...). Each city
 * gets 1 .. maxDevicesPerCity devices ("CAA1", "CAA2", ...), chained by intra-city private
 * links (like FRA1-FRA2 of the nine-city sample: NetworkGraph's metro node joins a city's
 * devices to its island and public paths but does not forward between them). Every
 * city links privately to its `neighbours` nearest cities (great-circle distance); if that
 * leaves the private network disconnected, the shortest links between components are added
 * (Kruskal) until it is connected. A private link joins devices of the two cities chosen round
 * robin; its latency is distance x routeFactor x microsPerKm. Every pair of cities also gets a
 * public path with latency distance x publicRouteFactor x microsPerKm. The same options and
 * seed always give the same topology (no platform-dependent distributions are used).
 */
class SyntheticTopology
{
  public:
    /// Throws std::invalid_argument on bad options.
    static Topology Generate(const SyntheticTopologyOptions& options = {});
    /// Great-circle distance in km between two points given in degrees (Earth radius 6371 km).
    static double GreatCircleKm(double lat1, double lon1, double lat2, double lon2);
};

} // namespace ns3

#endif
