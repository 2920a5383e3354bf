/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "topology-latency-check.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

const double kPi = 3.14159265358979323846;

/// The city an endpoint of \p link stands in (device -> its city), or nullptr.
const City*
EndpointCity(const Topology& t, const TopologyLink& link, const std::string& end)
{
    if (link.kind == LinkKind::PUBLIC)
    {
        return t.FindCity(end);
    }
    const Device* d = t.FindDevice(end);
    return d ? t.FindCity(d->city) : nullptr;
}

} // namespace

double
TopologyLatencyCheck::GreatCircleKm(double lat1, double lon1, double lat2, double lon2)
{
    const double r = kPi / 180;
    double dlat = (lat2 - lat1) * r;
    double dlon = (lon2 - lon1) * r;
    double a = std::sin(dlat / 2) * std::sin(dlat / 2) +
               std::cos(lat1 * r) * std::cos(lat2 * r) * std::sin(dlon / 2) * std::sin(dlon / 2);
    return 2 * 6371.0 * std::asin(std::min(1.0, std::sqrt(a)));
}

double
TopologyLatencyCheck::BoundS(const Topology& topology,
                             const TopologyLink& link,
                             double microsPerKm)
{
    const City* a = EndpointCity(topology, link, link.a);
    const City* b = EndpointCity(topology, link, link.b);
    if (!a || !b || std::isnan(a->latitude) || std::isnan(a->longitude) ||
        std::isnan(b->latitude) || std::isnan(b->longitude))
    {
        return std::nan("");
    }
    return GreatCircleKm(a->latitude, a->longitude, b->latitude, b->longitude) * microsPerKm *
           1e-6;
}

std::vector<LatencyFinding>
TopologyLatencyCheck::Find(const Topology& topology, double microsPerKm)
{
    if (!(microsPerKm > 0) || !std::isfinite(microsPerKm))
    {
        throw std::invalid_argument("latency check: fibre delay per km must be positive");
    }
    std::vector<LatencyFinding> out;
    const auto& links = topology.Links();
    for (std::size_t i = 0; i < links.size(); ++i)
    {
        const TopologyLink& l = links[i];
        double bound = BoundS(topology, l, microsPerKm);
        if (std::isnan(bound) || !(l.latencyS < bound))
        {
            continue;
        }
        out.push_back(LatencyFinding{i,
                                     l.file.empty() ? topology.GetSource() : l.file,
                                     l.line,
                                     l.a + "-" + l.b + " (" + Topology::KindName(l.kind) + ")",
                                     l.latencyS,
                                     bound,
                                     bound / (microsPerKm * 1e-6)});
    }
    return out;
}

std::size_t
TopologyLatencyCheck::Unchecked(const Topology& topology)
{
    std::size_t n = 0;
    for (const auto& l : topology.Links())
    {
        n += std::isnan(BoundS(topology, l)) ? 1 : 0;
    }
    return n;
}

std::string
LatencyFinding::Describe() const
{
    std::ostringstream os;
    os << file;
    if (line > 0)
    {
        os << ":" << line;
    }
    os << std::setprecision(4) << ": link " << name << ": latency " << latencyS * 1e3
       << " ms is below the speed of light in fibre over the " << std::setprecision(5) << km
       << " km between its cities (bound " << std::setprecision(4) << boundS * 1e3 << " ms, "
       << std::setprecision(3) << latencyS / boundS << "x)";
    return os.str();
}

LatencyCheckMode
TopologyLatencyCheck::ParseMode(const std::string& text)
{
    if (text == "off")
    {
        return LatencyCheckMode::OFF;
    }
    if (text == "warn")
    {
        return LatencyCheckMode::WARN;
    }
    if (text == "fix")
    {
        return LatencyCheckMode::FIX;
    }
    throw std::invalid_argument("latencyCheck: '" + text + "' is not one of warn, fix, off");
}

std::string
TopologyLatencyCheck::ModeName(LatencyCheckMode mode)
{
    switch (mode)
    {
    case LatencyCheckMode::OFF:
        return "off";
    case LatencyCheckMode::WARN:
        return "warn";
    case LatencyCheckMode::FIX:
        return "fix";
    }
    return "?";
}

} // namespace ns3
