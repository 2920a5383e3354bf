/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "synthetic-topology.h"

#include "topology-latency-check.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

namespace
{

const double kPi = 3.14159265358979323846;

double
Unit(std::mt19937_64& rng)
{
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

std::string
Code(std::size_t i)
{
    return std::string("C") + static_cast<char>('A' + i / 26) + static_cast<char>('A' + i % 26);
}

} // namespace

double
SyntheticTopology::GreatCircleKm(double lat1, double lon1, double lat2, double lon2)
{
    return TopologyLatencyCheck::GreatCircleKm(lat1, lon1, lat2, lon2);
}

Topology
SyntheticTopology::Generate(const SyntheticTopologyOptions& o)
{
    if (o.cities == 0 || o.cities > 26 * 26)
    {
        throw std::invalid_argument("synthetic topology: cities must be 1 .. 676");
    }
    if (o.maxDevicesPerCity == 0)
    {
        throw std::invalid_argument("synthetic topology: each city needs at least one device");
    }
    for (double v : {o.microsPerKm, o.routeFactor, o.publicRouteFactor, o.privateCapacityBps,
                     o.publicCapacityBps, o.edgeCapacityBps, o.intraCityLatencyS, o.minLatencyS})
    {
        if (!(v > 0) || !std::isfinite(v))
        {
            throw std::invalid_argument("synthetic topology: rates, factors and latencies must "
                                        "be positive");
        }
    }
    const std::size_t n = o.cities;
    std::mt19937_64 rng(o.seed);
    Topology t("synthetic-" + std::to_string(n) + "-seed" + std::to_string(o.seed));
    t.SetName(t.GetSource());
    std::vector<std::vector<std::string>> devices(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        double lat = std::asin(2 * Unit(rng) - 1) * 180 / kPi;
        double lon = 360 * Unit(rng) - 180;
        t.AddCity(City{Code(i), "Synthetic " + Code(i), lat, lon});
        auto count = 1 + static_cast<std::size_t>(Unit(rng) * o.maxDevicesPerCity);
        count = std::min(count, o.maxDevicesPerCity);
        for (std::size_t d = 0; d < count; ++d)
        {
            devices[i].push_back(Code(i) + std::to_string(d + 1));
            t.AddDevice(Device{devices[i].back(), Code(i), o.edgeCapacityBps, "synthetic"});
            if (d > 0)
            {
                t.AddLink(TopologyLink{LinkKind::PRIVATE, devices[i][d - 1], devices[i][d],
                                       o.intraCityLatencyS, o.privateCapacityBps});
            }
        }
    }
    const auto& cities = t.Cities();
    auto dist = [&cities](std::size_t a, std::size_t b) {
        return GreatCircleKm(cities[a].latitude, cities[a].longitude, cities[b].latitude,
                             cities[b].longitude);
    };
    // Candidate private links: k nearest neighbours of every city.
    std::set<std::pair<std::size_t, std::size_t>> chosen;
    for (std::size_t i = 0; i < n; ++i)
    {
        std::vector<std::size_t> others;
        for (std::size_t j = 0; j < n; ++j)
        {
            if (j != i)
            {
                others.push_back(j);
            }
        }
        std::stable_sort(others.begin(), others.end(),
                         [&](std::size_t a, std::size_t b) { return dist(i, a) < dist(i, b); });
        for (std::size_t k = 0; k < std::min(o.neighbours, others.size()); ++k)
        {
            chosen.insert(std::minmax(i, others[k]));
        }
    }
    // Connect the components with the shortest remaining links (Kruskal).
    std::vector<std::size_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&parent](std::size_t x) {
        while (parent[x] != x)
        {
            x = parent[x] = parent[parent[x]];
        }
        return x;
    };
    for (const auto& [a, b] : chosen)
    {
        parent[find(a)] = find(b);
    }
    std::vector<std::tuple<double, std::size_t, std::size_t>> pairs;
    for (std::size_t a = 0; a < n; ++a)
    {
        for (std::size_t b = a + 1; b < n; ++b)
        {
            pairs.emplace_back(dist(a, b), a, b);
        }
    }
    std::sort(pairs.begin(), pairs.end());
    for (const auto& [d, a, b] : pairs)
    {
        if (find(a) != find(b))
        {
            parent[find(a)] = find(b);
            chosen.insert({a, b});
        }
    }
    std::vector<std::size_t> used(n, 0);
    for (const auto& [a, b] : chosen)
    {
        const std::string& da = devices[a][used[a]++ % devices[a].size()];
        const std::string& db = devices[b][used[b]++ % devices[b].size()];
        double lat = std::max(o.minLatencyS, dist(a, b) * o.routeFactor * o.microsPerKm * 1e-6);
        t.AddLink(TopologyLink{LinkKind::PRIVATE, da, db, lat, o.privateCapacityBps});
    }
    for (const auto& [d, a, b] : pairs)
    {
        double lat = std::max(o.minLatencyS, d * o.publicRouteFactor * o.microsPerKm * 1e-6);
        t.AddLink(TopologyLink{LinkKind::PUBLIC, Code(a), Code(b), lat, o.publicCapacityBps});
    }
    return t;
}

} // namespace ns3
