/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TOPOLOGY_READER_H
#define INTELLIGENT_NETWORK_TOPOLOGY_READER_H

#include "topology.h"

#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Reads (and writes) Topology files. Bad input throws InputError naming file, line, field.
 *
 * Two formats:
 * - the project's own topology file: one text file with sections `[cities]`, `[devices]`,
 *   `[private_links]`, `[public_links]`, each a CSV table with a header row:
 *   `code,name,latitude,longitude` / `device,city,edge_gbps[,operator]` /
 *   `device_a,device_b,latency_ms,capacity_gbps` / `city_a,city_b,latency_ms,capacity_gbps`.
 *   `#` starts a comment line.
 * - the DoubleZero network-shapley sample format: a directory holding `devices.csv`
 *   (Device,Edge,Operator), `private_links.csv` (Device1,Device2,Latency,Bandwidth,...) and
 *   `public_links.csv` (City1,City2,Latency). Latencies in ms, capacities in Gbps. A device's
 *   city is its name without trailing digits. Public links get \p publicCapacityBps. An optional
 *   `cities.csv` (code,name,latitude,longitude) names the cities; otherwise a built-in table of
 *   the nine sample cities is used (unknown codes get no coordinates).
 *
 * Every number is range-checked where it is read (file, line, column in the error):
 * capacities (`edge_gbps`, `capacity_gbps`, `Edge`, `Bandwidth`) between MinGbps() and
 * MaxGbps(), latencies (`latency_ms`, `Latency`) between MinLatencyMs() and MaxLatencyMs(),
 * latitudes in [-90, 90] and longitudes in [-180, 180] (or empty: unknown). City codes and
 * device names are 1 to 32 letters, digits, `_`, `-` or `.`. Our own format rejects unknown
 * columns; the DoubleZero files may carry extra ones (the sample has Uptime and Shared).
 * Files are UTF-8; a byte-order mark is accepted.
 *
 * A city without any device is accepted (e.g. listed for its coordinates): it has no link,
 * so no island can be placed there; a program that places one there fails when it plans
 * routes ("no route"), before any simulation.
 */
class TopologyReader
{
  public:
    /// Read \p path: a directory is read as the DoubleZero sample format, a file as our own format.
    static Topology Read(const std::string& path, double publicCapacityBps = 10e9);
    /// Read the project's own topology file.
    static Topology ReadFile(const std::string& path);
    /// Read a DoubleZero sample directory.
    static Topology ReadDoubleZero(const std::string& dir, double publicCapacityBps);
    /// Write \p topology in the project's own format (ReadFile reads it back identically).
    static void WriteFile(const Topology& topology, const std::string& path);

    /// Smallest capacity accepted in a file: 1e-6 Gbps (1 kbit/s).
    static constexpr double MinGbps()
    {
        return 1e-6;
    }
    /// Largest capacity accepted in a file: 1e6 Gbps (1 Pbit/s, beyond any single link).
    static constexpr double MaxGbps()
    {
        return 1e6;
    }
    /// Smallest one-way latency accepted: 1e-6 ms (1 ns, ns-3's time resolution).
    static constexpr double MinLatencyMs()
    {
        return 1e-6;
    }
    /// Largest one-way latency accepted: 1000 ms (a geostationary satellite hop is ~270 ms;
    /// half the Earth's circumference in fibre is ~100 ms).
    static constexpr double MaxLatencyMs()
    {
        return 1000;
    }

  private:
    static City KnownCity(const std::string& code);
};

} // namespace ns3

#endif
