/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "graphml-topology-reader.h"

#include "input-error.h"
#include "option-validator.h"
#include "text-util.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphml.hpp>
#include <boost/property_map/dynamic_property_map.hpp>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

struct NodeData
{
    std::string label;
    std::string latitude;
    std::string longitude;
};

struct EdgeData
{
    std::string speed;
    std::string units;
    std::string raw;
};

using Graph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, NodeData, EdgeData>;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A finite number, NaN when \p text is empty; throws InputError otherwise.
double
Number(const std::string& file, const std::string& where, const std::string& text)
{
    std::string t = text;
    t.erase(0, t.find_first_not_of(" \t\r\n"));
    t.erase(t.find_last_not_of(" \t\r\n") + 1);
    if (t.empty())
    {
        return kNaN;
    }
    static const std::regex number(R"(^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$)");
    errno = 0;
    double v = std::regex_match(t, number) ? std::strtod(t.c_str(), nullptr) : kNaN;
    if (!std::isfinite(v) || errno == ERANGE)
    {
        throw InputError(file, 0, where, "'" + text + "' is not a finite number");
    }
    return v;
}

std::string
NodeName(std::size_t v, const NodeData& d)
{
    return "node " + std::to_string(v) + (d.label.empty() ? "" : " ('" + d.label + "')");
}

/// Boost's read_graphml makes a node of any id an edge names and merges nodes that share an id:
/// refuse both (an edge to an unknown node, a node id twice, a second top-level graph), naming
/// the id and the line. The same XML parser as read_graphml (property_tree), on the same text.
void
CheckNodeIds(const std::string& path, const std::string& text)
{
    namespace pt = boost::property_tree;
    pt::ptree tree;
    try
    {
        std::istringstream in(text);
        pt::read_xml(in, tree);
    }
    catch (const pt::xml_parser_error& e)
    {
        throw InputError(path, e.line(), "", "not readable GraphML: " + e.message());
    }
    // The line of the n-th occurrence of an element's opening tag (property_tree keeps none).
    auto lineOf = [&text](const std::string& tag, std::size_t nth) -> std::size_t {
        std::size_t at = 0;
        for (std::size_t k = 0;; ++k)
        {
            at = text.find("<" + tag, at);
            while (at != std::string::npos && at + tag.size() + 1 < text.size() &&
                   (std::isalnum(static_cast<unsigned char>(text[at + tag.size() + 1])) ||
                    text[at + tag.size() + 1] == '_' || text[at + tag.size() + 1] == ':'))
            {
                at = text.find("<" + tag, at + 1); // e.g. <nodes> or <node_x> is not <node>
            }
            if (at == std::string::npos)
            {
                return 0;
            }
            if (k == nth)
            {
                return TextUtil::LineOfOffset(text, at);
            }
            ++at;
        }
    };
    auto root = tree.get_child_optional("graphml");
    if (!root)
    {
        throw InputError(path, 0, "graphml", "no <graphml> element");
    }
    std::size_t graphs = 0;
    std::size_t nodeIndex = 0;
    std::size_t edgeIndex = 0;
    std::set<std::string> ids;
    // Keys: a <data> element naming a key no <key> declares (Boost: 'unrecognized type ""').
    std::set<std::string> keys;
    for (const auto& [name, key] : *root)
    {
        if (name == "key")
        {
            keys.insert(key.get<std::string>("<xmlattr>.id", ""));
        }
    }
    auto checkData = [&](const pt::ptree& element, const std::string& what) {
        for (const auto& [child, data] : element)
        {
            if (child == "data")
            {
                std::string key = data.get<std::string>("<xmlattr>.key", "");
                if (!keys.count(key))
                {
                    throw InputError(path, 0, what + " data key",
                                     "<data key=\"" + key + "\"> names no declared <key>");
                }
            }
        }
    };
    for (const auto& [name, graph] : *root)
    {
        if (name != "graph")
        {
            continue;
        }
        if (++graphs > 1)
        {
            throw InputError(path, lineOf("graph", graphs - 1), "graph",
                             "more than one top-level <graph>: one topology per file");
        }
        for (const auto& [child, element] : graph)
        {
            if (child == "node")
            {
                std::string id = element.get<std::string>("<xmlattr>.id", "");
                checkData(element, "node '" + id + "'");
                if (!ids.insert(id).second)
                {
                    throw InputError(path, lineOf("node", nodeIndex), "node id",
                                     "node id '" + id + "' given twice");
                }
                ++nodeIndex;
            }
        }
        for (const auto& [child, element] : graph)
        {
            if (child == "edge")
            {
                checkData(element, "edge " + std::to_string(edgeIndex));
                for (const char* end : {"source", "target"})
                {
                    std::string id = element.get<std::string>(std::string("<xmlattr>.") + end, "");
                    if (!ids.count(id))
                    {
                        throw InputError(
                            path, lineOf("edge", edgeIndex), std::string("edge ") + end,
                            "edge " + std::string(end) + " '" + id + "' is not the id of a node");
                    }
                }
                ++edgeIndex;
            }
        }
    }
}

} // namespace

bool
GraphmlTopologyReader::Handles(const std::string& path)
{
    std::string ext = ".graphml";
    if (path.size() < ext.size())
    {
        return false;
    }
    std::string tail = path.substr(path.size() - ext.size());
    std::transform(tail.begin(), tail.end(), tail.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return tail == ext;
}

std::string
GraphmlTopologyReader::CodeFromLabel(const std::string& label)
{
    std::string code;
    for (unsigned char c : label)
    {
        if (c < 128 && std::isalnum(c) && code.size() < 3)
        {
            code += static_cast<char>(std::toupper(c));
        }
    }
    return code;
}

Topology
GraphmlTopologyReader::Read(const std::string& path, const GraphmlTopologyOptions& options)
{
    // As every loader: a regular file of at most TextUtil::MaxFileBytes() (a pipe or a device
    // would block or never end).
    const std::string text = TextUtil::ReadFile(path);
    CheckNodeIds(path, text);
    // Every key is read as a string (the Zoo declares some as double, others as string, and
    // files differ); the numbers are then checked here, with the node or edge named.
    static const std::regex typed(R"re(attr\.type\s*=\s*"(boolean|int|long|float|double)")re");
    std::istringstream xml(std::regex_replace(text, typed, "attr.type=\"string\""));

    Graph g;
    boost::dynamic_properties dp(boost::ignore_other_properties);
    dp.property("label", boost::get(&NodeData::label, g));
    dp.property("Latitude", boost::get(&NodeData::latitude, g));
    dp.property("Longitude", boost::get(&NodeData::longitude, g));
    dp.property("LinkSpeed", boost::get(&EdgeData::speed, g));
    dp.property("LinkSpeedUnits", boost::get(&EdgeData::units, g));
    dp.property("LinkSpeedRaw", boost::get(&EdgeData::raw, g));
    try
    {
        boost::read_graphml(xml, g, dp);
    }
    catch (const boost::directed_graph_error&)
    {
        throw InputError(path, 0, "edgedefault",
                         "directed graphs are not supported (links are full duplex)");
    }
    catch (const std::exception& e)
    {
        throw InputError(path, 0, "", std::string("not readable GraphML: ") + e.what());
    }
    const std::size_t n = boost::num_vertices(g);
    if (n < 2)
    {
        throw InputError(path, 0, "node", "a topology needs at least two nodes");
    }

    // Codes: unique among codes and device names (device = code + "1").
    std::vector<std::string> codes(n);
    std::set<std::string> taken;
    for (std::size_t v = 0; v < n; ++v)
    {
        std::string base = CodeFromLabel(g[v].label);
        if (base.empty())
        {
            base = "N" + std::to_string(v);
        }
        std::string code = base;
        for (int k = 2; taken.count(code) || taken.count(code + "1"); ++k)
        {
            code = base + std::to_string(k);
        }
        taken.insert(code);
        taken.insert(code + "1");
        codes[v] = code;
    }

    // Coordinates, and positions for the nodes without them.
    std::vector<double> lat(n, kNaN);
    std::vector<double> lon(n, kNaN);
    for (std::size_t v = 0; v < n; ++v)
    {
        std::string where = NodeName(v, g[v]);
        lat[v] = Number(path, where + " Latitude", g[v].latitude);
        lon[v] = Number(path, where + " Longitude", g[v].longitude);
        if (std::isnan(lat[v]) != std::isnan(lon[v]))
        {
            throw InputError(path, 0, where + " Latitude/Longitude",
                             "has only one of Latitude and Longitude");
        }
        if (!std::isnan(lat[v]) && (std::fabs(lat[v]) > 90 || std::fabs(lon[v]) > 180))
        {
            throw InputError(path, 0, where + " Latitude/Longitude",
                             "out of range (latitude -90..90, longitude -180..180)");
        }
    }
    std::vector<double> plat = lat;
    std::vector<double> plon = lon;
    for (bool progress = true; progress;)
    {
        progress = false;
        std::vector<double> nlat = plat;
        std::vector<double> nlon = plon;
        for (std::size_t v = 0; v < n; ++v)
        {
            if (!std::isnan(plat[v]))
            {
                continue;
            }
            double sl = 0;
            double so = 0;
            int k = 0;
            for (auto [a, end] = boost::adjacent_vertices(v, g); a != end; ++a)
            {
                if (!std::isnan(plat[*a]))
                {
                    sl += plat[*a];
                    so += plon[*a];
                    ++k;
                }
            }
            if (k > 0)
            {
                nlat[v] = sl / k;
                nlon[v] = so / k;
                progress = true;
                if (options.warnings)
                {
                    *options.warnings
                        << path << ": warning: " << NodeName(v, g[v]) << " (" << codes[v]
                        << ") has no Latitude/Longitude; placed at the mean of its " << k
                        << " placed neighbour(s): " << nlat[v] << ", " << nlon[v] << "\n";
                }
            }
        }
        plat = nlat;
        plon = nlon;
    }
    for (std::size_t v = 0; v < n; ++v)
    {
        if (std::isnan(plat[v]))
        {
            throw InputError(path, 0, NodeName(v, g[v]) + " Latitude/Longitude",
                             "no coordinates, and no neighbour (however far) has any: link "
                             "latencies cannot be derived");
        }
    }

    // Links: rate from the edge, latency from the distance; parallel edges merged.
    std::map<std::pair<std::size_t, std::size_t>, double> rate;
    std::map<std::pair<std::size_t, std::size_t>, int> count;
    for (auto [e, end] = boost::edges(g); e != end; ++e)
    {
        std::size_t a = boost::source(*e, g);
        std::size_t b = boost::target(*e, g);
        std::string where = "edge " + codes[a] + "-" + codes[b];
        if (a == b)
        {
            if (options.warnings)
            {
                *options.warnings << path << ": warning: " << where << " is a self-loop; skipped\n";
            }
            continue;
        }
        const EdgeData& d = g[*e];
        double bps = Number(path, where + " LinkSpeedRaw", d.raw);
        if (std::isnan(bps) || bps <= 0)
        {
            double speed = Number(path, where + " LinkSpeed", d.speed);
            if (!std::isnan(speed))
            {
                static const std::map<char, double> mult{{'k', 1e3},  {'K', 1e3}, {'m', 1e6},
                                                         {'M', 1e6},  {'g', 1e9}, {'G', 1e9},
                                                         {'t', 1e12}, {'T', 1e12}};
                std::string u = d.units;
                u.erase(0, u.find_first_not_of(" \t"));
                auto m = u.empty() ? mult.end() : mult.find(u[0]);
                if (m == mult.end())
                {
                    throw InputError(path, 0, where + " LinkSpeedUnits",
                                     "LinkSpeed '" + d.speed +
                                         "' needs LinkSpeedUnits k, M, G or T "
                                         "(got '" +
                                         d.units + "')");
                }
                bps = speed * m->second;
            }
            else
            {
                bps = options.defaultLinkRateBps;
            }
        }
        if (!(bps >= 1 && bps < OptionValidator::kMaxRateBps))
        {
            throw InputError(path, 0, where + " LinkSpeed",
                             "rate out of range (1 .. <1.8e19 bit/s)");
        }
        auto key = std::make_pair(std::min(a, b), std::max(a, b));
        rate[key] += bps;
        count[key] += 1;
        if (!(rate[key] < OptionValidator::kMaxRateBps))
        {
            throw InputError(path, 0, where + " LinkSpeed",
                             std::to_string(count[key]) + " parallel edges " + codes[key.first] +
                                 "-" + codes[key.second] +
                                 " merge into one link of at least 1.8e19 bit/s, beyond the "
                                 "largest rate (1 .. <1.8e19 bit/s)");
        }
    }

    std::string stem = path.substr(path.find_last_of('/') + 1);
    Topology topo(path);
    topo.SetName(stem.substr(0, stem.size() - 8)); // drop ".graphml"
    std::vector<double> edge(n, 0);
    for (const auto& [key, bps] : rate)
    {
        edge[key.first] = std::max(edge[key.first], bps);
        edge[key.second] = std::max(edge[key.second], bps);
    }
    for (std::size_t v = 0; v < n; ++v)
    {
        topo.AddCity(City{codes[v], g[v].label.empty() ? codes[v] : g[v].label, lat[v], lon[v]});
        topo.AddDevice(Device{codes[v] + "1", codes[v],
                              edge[v] > 0 ? edge[v] : options.defaultLinkRateBps, "graphml"});
    }
    for (const auto& [key, bps] : rate)
    {
        auto [a, b] = key;
        if (count[key] > 1 && options.warnings)
        {
            *options.warnings << path << ": warning: " << count[key] << " parallel edges "
                              << codes[a] << "-" << codes[b] << " merged into one link of " << bps
                              << " bit/s\n";
        }
        double km = SyntheticTopology::GreatCircleKm(plat[a], plon[a], plat[b], plon[b]);
        double latency = std::max(kMinLatencyS, km * kFibreSecondsPerKm * options.fibreFactor);
        topo.AddLink(TopologyLink{LinkKind::PRIVATE, codes[a] + "1", codes[b] + "1", latency, bps});
    }
    return topo;
}

} // namespace ns3
