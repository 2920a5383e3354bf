/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "topology.h"

#include "input-error.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

Topology::Topology(std::string source)
    : m_source(std::move(source)),
      m_name(m_source)
{
}

const std::string&
Topology::GetSource() const
{
    return m_source;
}

void
Topology::SetName(const std::string& name)
{
    m_name = name;
}

const std::string&
Topology::GetName() const
{
    return m_name;
}

void
Topology::Fail(const std::string& field, const std::string& message) const
{
    throw InputError(m_source, 0, field, message);
}

void
Topology::AddCity(const City& city)
{
    if (city.code.empty())
    {
        Fail("code", "empty city code");
    }
    if (FindCity(city.code))
    {
        Fail("code", "duplicate city '" + city.code + "'");
    }
    if (FindDevice(city.code))
    {
        Fail("code", "city '" + city.code + "' has the name of a device");
    }
    if (!std::isnan(city.latitude) && (city.latitude < -90 || city.latitude > 90))
    {
        Fail("latitude", "must be between -90 and 90");
    }
    if (!std::isnan(city.longitude) && (city.longitude < -180 || city.longitude > 180))
    {
        Fail("longitude", "must be between -180 and 180");
    }
    m_cityIndex.emplace(city.code, m_cities.size());
    m_cities.push_back(city);
}

void
Topology::AddDevice(const Device& device)
{
    if (device.name.empty())
    {
        Fail("device", "empty device name");
    }
    if (FindDevice(device.name))
    {
        Fail("device", "duplicate device '" + device.name + "'");
    }
    if (FindCity(device.name))
    {
        // Cities and devices are nodes of one graph, named by one namespace.
        Fail("device", "device '" + device.name + "' has the name of a city");
    }
    if (!FindCity(device.city))
    {
        Fail("city", "unknown city '" + device.city + "' for device '" + device.name + "'");
    }
    if (!(device.edgeCapacityBps > 0) || !std::isfinite(device.edgeCapacityBps))
    {
        Fail("edge_gbps", "edge capacity of '" + device.name + "' must be greater than zero");
    }
    m_deviceIndex.emplace(device.name, m_devices.size());
    m_devices.push_back(device);
}

void
Topology::AddLink(const TopologyLink& link)
{
    bool priv = link.kind == LinkKind::PRIVATE;
    const std::string fa = priv ? "device_a" : "city_a";
    const std::string fb = priv ? "device_b" : "city_b";
    const std::string what = priv ? "device" : "city";
    auto known = [&](const std::string& n) { return priv ? FindDevice(n) != nullptr : FindCity(n) != nullptr; };
    if (!known(link.a))
    {
        Fail(fa, "unknown " + what + " '" + link.a + "'");
    }
    if (!known(link.b))
    {
        Fail(fb, "unknown " + what + " '" + link.b + "'");
    }
    if (link.a == link.b)
    {
        Fail(fb, "link from '" + link.a + "' to itself");
    }
    auto key = std::make_tuple(static_cast<int>(link.kind), std::min(link.a, link.b),
                               std::max(link.a, link.b));
    if (m_linkKeys.count(key))
    {
        Fail(fb, "duplicate " + KindName(link.kind) + " link " + link.a + "-" + link.b);
    }
    if (!(link.latencyS > 0) || !std::isfinite(link.latencyS))
    {
        Fail("latency_ms", "latency of " + link.a + "-" + link.b + " must be greater than zero");
    }
    if (!(link.capacityBps > 0) || !std::isfinite(link.capacityBps))
    {
        Fail("capacity_gbps",
             "capacity of " + link.a + "-" + link.b + " must be greater than zero");
    }
    m_linkKeys.insert(key);
    m_links.push_back(link);
}

const std::vector<City>&
Topology::Cities() const
{
    return m_cities;
}

const std::vector<Device>&
Topology::Devices() const
{
    return m_devices;
}

const std::vector<TopologyLink>&
Topology::Links() const
{
    return m_links;
}

const City*
Topology::FindCity(const std::string& code) const
{
    auto it = m_cityIndex.find(code);
    return it == m_cityIndex.end() ? nullptr : &m_cities[it->second];
}

const Device*
Topology::FindDevice(const std::string& name) const
{
    auto it = m_deviceIndex.find(name);
    return it == m_deviceIndex.end() ? nullptr : &m_devices[it->second];
}

std::size_t
Topology::CityIndex(const std::string& code) const
{
    auto it = m_cityIndex.find(code);
    if (it == m_cityIndex.end())
    {
        Fail("city", "unknown city '" + code + "'");
    }
    return it->second;
}

std::vector<std::string>
Topology::CityCodes() const
{
    std::vector<std::string> codes;
    for (const auto& c : m_cities)
    {
        codes.push_back(c.code);
    }
    return codes;
}

std::vector<const Device*>
Topology::DevicesIn(const std::string& code) const
{
    std::vector<const Device*> out;
    for (const auto& d : m_devices)
    {
        if (d.city == code)
        {
            out.push_back(&d);
        }
    }
    return out;
}

std::size_t
Topology::CountLinks(LinkKind kind) const
{
    std::size_t n = 0;
    for (const auto& l : m_links)
    {
        n += l.kind == kind ? 1 : 0;
    }
    return n;
}

std::string
Topology::KindName(LinkKind kind)
{
    return kind == LinkKind::PRIVATE ? "private" : "public";
}

} // namespace ns3
