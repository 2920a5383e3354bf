/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TOPOLOGY_H
#define INTELLIGENT_NETWORK_TOPOLOGY_H

#include <cstddef>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief A city (metro) that hosts one training island and zero or more network devices.
 */
struct City
{
    std::string code;  ///< Short code, e.g. "AMS" (unique, upper case).
    std::string name;  ///< Human-readable name, e.g. "Amsterdam".
    double latitude;   ///< Degrees north (NaN when unknown).
    double longitude;  ///< Degrees east (NaN when unknown).
};

/**
 * \ingroup intelligent-network
 * \brief A router/switch of the WAN, located in a city.
 */
struct Device
{
    std::string name;       ///< Unique device name, e.g. "FRA2".
    std::string city;       ///< Code of the city it stands in.
    double edgeCapacityBps; ///< Edge (direct internet access) capacity towards the city, bit/s.
    std::string owner;      ///< Contributor / operator (informational).
};

/// The two kinds of WAN links of the model.
enum class LinkKind
{
    PRIVATE, ///< A dedicated link between two devices.
    PUBLIC   ///< A public-internet path between two cities.
};

/**
 * \ingroup intelligent-network
 * \brief A bidirectional WAN link (full duplex, the capacity applies to each direction).
 */
struct TopologyLink
{
    LinkKind kind;      ///< Private (device pair) or public (city pair).
    std::string a;      ///< First endpoint: device name (private) or city code (public).
    std::string b;      ///< Second endpoint.
    double latencyS;    ///< One-way propagation latency, seconds.
    double capacityBps; ///< Capacity per direction, bit/s.
    std::string file{}; ///< File the link was read from (empty when built in code).
    std::size_t line{}; ///< 1-based line in \c file (0 when unknown).
};

/**
 * \ingroup intelligent-network
 * \brief The WAN as data: cities, devices, private and public links. Pure C++, no simulator state.
 *
 * Every Add method validates its argument and throws InputError (file = the topology's source
 * name, line 0, field = the logical column name such as `latency_ms`) on bad data, so that the
 * readers only add the file and line. See TopologyReader for the file formats.
 */
class Topology
{
  public:
    explicit Topology(std::string source = "topology");

    const std::string& GetSource() const;
    void SetName(const std::string& name);
    const std::string& GetName() const;

    void AddCity(const City& city);
    void AddDevice(const Device& device);
    void AddLink(const TopologyLink& link);

    const std::vector<City>& Cities() const;
    const std::vector<Device>& Devices() const;
    const std::vector<TopologyLink>& Links() const;

    /// The city with this code, or nullptr.
    const City* FindCity(const std::string& code) const;
    /// The device with this name, or nullptr.
    const Device* FindDevice(const std::string& name) const;
    /// Index into Cities() of \p code; throws InputError (field `city`) for an unknown code.
    std::size_t CityIndex(const std::string& code) const;
    /// Codes of all cities, in insertion order.
    std::vector<std::string> CityCodes() const;
    /// Devices standing in city \p code, in insertion order.
    std::vector<const Device*> DevicesIn(const std::string& code) const;
    /// Number of links of the given kind.
    std::size_t CountLinks(LinkKind kind) const;

    /// Name of a link kind as used in files and results ("private" / "public").
    static std::string KindName(LinkKind kind);

  private:
    [[noreturn]] void Fail(const std::string& field, const std::string& message) const;

    std::string m_source;
    std::string m_name;
    std::vector<City> m_cities;
    std::vector<Device> m_devices;
    std::vector<TopologyLink> m_links;
    // Indexes, so that building a topology of n elements is O(n log n), not O(n^2).
    std::unordered_map<std::string, std::size_t> m_cityIndex;   ///< code -> index in m_cities
    std::unordered_map<std::string, std::size_t> m_deviceIndex; ///< name -> index in m_devices
    std::set<std::tuple<int, std::string, std::string>> m_linkKeys; ///< kind, lower, upper end
};

} // namespace ns3

#endif
