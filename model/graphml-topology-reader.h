/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_GRAPHML_TOPOLOGY_READER_H
#define INTELLIGENT_NETWORK_GRAPHML_TOPOLOGY_READER_H

#include "synthetic-topology.h"
#include "topology.h"

#include <ostream>
#include <string>

namespace ns3
{

/// How a GraphML file is turned into a Topology (GraphmlTopologyReader).
struct GraphmlTopologyOptions
{
    /// One-way latency = great-circle distance x kFibreSecondsPerKm x fibreFactor; the default
    /// is the route factor of the synthetic topologies (SyntheticTopologyOptions::routeFactor).
    double fibreFactor = SyntheticTopologyOptions().routeFactor;
    /// Rate of an edge without LinkSpeedRaw or LinkSpeed (+ LinkSpeedUnits), bit/s.
    double defaultLinkRateBps = 10e9;
    /// Where warnings go (nodes placed without coordinates, parallel edges merged); may be null.
    std::ostream* warnings = nullptr;
};

/**
 * \ingroup intelligent-network
 * \brief Reads GraphML as the Internet Topology Zoo writes it (Boost.Graph's read_graphml).
 *
 * - Every node becomes a city with one device: the city code is made from the node's `label`
 *   (its first three ASCII letters or digits, upper case: "Amsterdam" -> AMS; nodes without a
 *   usable label use "N" and their position in the file), made unique in file order by a
 *   suffix 2, 3, ... ("Paris", "Paris" -> PAR, PAR2); the device is the code plus "1"
 *   (AMS1). Codes are what schedules and --islands name; `name` keeps the label.
 * - Node `Latitude`/`Longitude` (degrees) place the city. A node without them is placed at the
 *   mean position of its neighbours that have one (repeatedly, so chains resolve) and a warning
 *   names it; its City keeps NaN coordinates (unknown). A connected group of nodes none of
 *   which has coordinates is refused (InputError naming the file and the node).
 * - Every edge becomes a private link between the two devices. Rate: `LinkSpeedRaw` (bit/s)
 *   if present and positive, else `LinkSpeed` x `LinkSpeedUnits` (k, M, G, T; bit/s without
 *   units), else defaultLinkRateBps. Latency: great-circle distance
 *   (SyntheticTopology::GreatCircleKm: haversine, Earth radius 6371 km) x 4.9 us/km (light in
 *   fibre, refractive index ~1.47) x fibreFactor (default 1.4), at least 10 us. Parallel edges are
 * merged into one link whose rate is their sum; self-loops are skipped (both with a warning).
 * - A device's edge capacity (its island's access rate unless --accessRate is given) is the
 *   largest rate of its links. No public-internet paths (the Zoo has none).
 *
 * Bad input (not GraphML, directed graph, non-finite or out-of-range numbers, coordinates out
 * of range) throws InputError naming the file, the node or edge and the field.
 */
class GraphmlTopologyReader
{
  public:
    /// Light in fibre: 4.9 microseconds per kilometre (as the synthetic topologies).
    static constexpr double kFibreSecondsPerKm = 4.9e-6;
    /// Shortest link latency (two nodes at the same place), seconds.
    static constexpr double kMinLatencyS = 10e-6;

    /// True if \p path names a GraphML file (extension .graphml, any case).
    static bool Handles(const std::string& path);
    /// Read \p path.
    static Topology Read(const std::string& path, const GraphmlTopologyOptions& options = {});
    /// The city code made from \p label (before making it unique); empty if none.
    static std::string CodeFromLabel(const std::string& label);
};

} // namespace ns3

#endif
