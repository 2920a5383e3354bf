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

  private:
    static City KnownCity(const std::string& code);
};

} // namespace ns3

#endif
