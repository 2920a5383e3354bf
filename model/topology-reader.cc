/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "topology-reader.h"

#include "csv-table.h"
#include "graphml-topology-reader.h"
#include "input-error.h"
#include "text-util.h"

#include <cctype>
#include <cmath>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <sys/stat.h>

namespace ns3
{

namespace
{

/// Run \p add; re-throw a Topology validation error with the file, line and column of \p row.
void
AddRow(const CsvTable& table,
       const CsvTable::Row& row,
       const std::map<std::string, std::string>& columnOf,
       const std::function<void()>& add)
{
    try
    {
        add();
    }
    catch (const InputError& e)
    {
        if (e.Line() != 0)
        {
            throw;
        }
        auto it = columnOf.find(e.Field());
        std::string column = it == columnOf.end() ? e.Field() : it->second;
        throw InputError(table.File(), row.line, column, e.Message());
    }
}

bool
IsDirectory(const std::string& path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool
Exists(const std::string& path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0;
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A city code or device name: 1 to 32 of [A-Za-z0-9_.-] (they are joined with '+' and ','
/// in results and schedules).
void
CheckName(const CsvTable& t, const CsvTable::Row& row, std::size_t col, const std::string& name)
{
    bool ok = !name.empty() && name.size() <= 32;
    for (char c : name)
    {
        ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ||
                    c == '.');
    }
    if (!ok)
    {
        throw InputError(t.File(), row.line, t.Columns().at(col),
                         "'" + name + "' is not a valid name (1 to 32 letters, digits, '_', '-' "
                         "or '.')");
    }
}

double
Capacity(const CsvTable& t, const CsvTable::Row& row, std::size_t col)
{
    return t.NumberInRange(row, col, TopologyReader::MinGbps(), TopologyReader::MaxGbps(),
                           "Gbps") *
           1e9;
}

double
Latency(const CsvTable& t, const CsvTable::Row& row, std::size_t col)
{
    return t.NumberInRange(row, col, TopologyReader::MinLatencyMs(),
                           TopologyReader::MaxLatencyMs(), "ms") *
           1e-3;
}

void
ReadCities(Topology& topo, const CsvTable& t)
{
    std::size_t code = t.RequireColumn("code");
    std::size_t name = t.RequireColumn("name");
    std::size_t lat = t.RequireColumn("latitude");
    std::size_t lon = t.RequireColumn("longitude");
    // Coordinates may be left empty (unknown); anything else must be a valid angle.
    auto angle = [&](const CsvTable::Row& row, std::size_t col, double limit) {
        bool empty = col >= row.cells.size() || row.cells[col].empty();
        return empty ? kNaN : t.NumberInRange(row, col, -limit, limit);
    };
    for (const auto& row : t.Rows())
    {
        CheckName(t, row, code, t.Text(row, code));
        City c{TextUtil::Upper(t.Text(row, code)),
               t.Text(row, name),
               angle(row, lat, 90),
               angle(row, lon, 180)};
        // Both coordinates or neither: one alone is a typo, not an unknown position (and
        // would silently drop the distance checks).
        if (std::isnan(c.latitude) != std::isnan(c.longitude))
        {
            throw InputError(t.File(), row.line, std::isnan(c.latitude) ? "latitude" : "longitude",
                             "city '" + c.code +
                                 "' has only one of latitude and longitude "
                                 "(give both, or leave both empty when unknown)");
        }
        AddRow(t, row, {}, [&] { topo.AddCity(c); });
    }
}

void
ReadLinks(Topology& topo,
          const CsvTable& t,
          LinkKind kind,
          const std::map<std::string, std::string>& columnOf,
          double fixedCapacityBps)
{
    auto col = [&](const std::string& logical) {
        auto it = columnOf.find(logical);
        return t.RequireColumn(it == columnOf.end() ? logical : it->second);
    };
    bool priv = kind == LinkKind::PRIVATE;
    std::size_t a = col(priv ? "device_a" : "city_a");
    std::size_t b = col(priv ? "device_b" : "city_b");
    std::size_t lat = col("latency_ms");
    bool hasCapacity = fixedCapacityBps <= 0;
    std::size_t cap = hasCapacity ? col("capacity_gbps") : 0;
    for (const auto& row : t.Rows())
    {
        TopologyLink l{kind,
                       priv ? t.Text(row, a) : TextUtil::Upper(t.Text(row, a)),
                       priv ? t.Text(row, b) : TextUtil::Upper(t.Text(row, b)),
                       Latency(t, row, lat),
                       hasCapacity ? Capacity(t, row, cap) : fixedCapacityBps,
                       t.File(),
                       row.line};
        AddRow(t, row, columnOf, [&] { topo.AddLink(l); });
    }
}

} // namespace

City
TopologyReader::KnownCity(const std::string& code)
{
    // Approximate city-centre coordinates (public knowledge), used when a DoubleZero-format
    // directory has no cities.csv.
    static const std::map<std::string, City> known = {
        {"AMS", {"AMS", "Amsterdam", 52.37, 4.90}},
        {"BAR", {"BAR", "Buenos Aires", -34.60, -58.38}},
        {"FRA", {"FRA", "Frankfurt", 50.11, 8.68}},
        {"LAX", {"LAX", "Los Angeles", 34.05, -118.24}},
        {"LON", {"LON", "London", 51.51, -0.13}},
        {"NYC", {"NYC", "New York", 40.71, -74.01}},
        {"SEO", {"SEO", "Seoul", 37.57, 126.98}},
        {"SIN", {"SIN", "Singapore", 1.35, 103.82}},
        {"TYO", {"TYO", "Tokyo", 35.68, 139.69}},
    };
    auto it = known.find(code);
    return it != known.end() ? it->second : City{code, code, kNaN, kNaN};
}

Topology
TopologyReader::Read(const std::string& path, double publicCapacityBps)
{
    if (GraphmlTopologyReader::Handles(path))
    {
        GraphmlTopologyOptions options; // defaults documented in graphml-topology-reader.h
        options.warnings = &std::cerr;
        return GraphmlTopologyReader::Read(path, options);
    }
    if (IsDirectory(path))
    {
        return ReadDoubleZero(path, publicCapacityBps);
    }
    return ReadFile(path);
}

Topology
TopologyReader::ReadFile(const std::string& path)
{
    auto lines = TextUtil::ReadNumberedLines(path);
    std::map<std::string, std::vector<CsvTable::NumberedLine>> sections;
    std::map<std::string, std::size_t> sectionLine;
    std::string current;
    for (const auto& [number, raw] : lines)
    {
        std::string text = TextUtil::Trim(raw);
        if (text.empty() || text[0] == '#')
        {
            continue;
        }
        if (text.front() == '[')
        {
            if (text.back() != ']')
            {
                throw InputError(path, number, "", "malformed section header '" + text + "'");
            }
            current = TextUtil::Trim(text.substr(1, text.size() - 2));
            if (current != "cities" && current != "devices" && current != "private_links" &&
                current != "public_links")
            {
                throw InputError(path,
                                 number,
                                 current,
                                 "unknown section (expected cities, devices, private_links or "
                                 "public_links)");
            }
            if (sectionLine.count(current))
            {
                throw InputError(path, number, current, "section appears twice");
            }
            sectionLine[current] = number;
            sections[current];
            continue;
        }
        if (current.empty())
        {
            throw InputError(path, number, "", "data before the first [section] header");
        }
        sections[current].emplace_back(number, raw);
    }
    for (const char* required : {"cities", "devices", "private_links"})
    {
        if (!sectionLine.count(required))
        {
            throw InputError(path, 0, required, "missing section [" + std::string(required) + "]");
        }
    }
    // A section needs its header row (even with no data rows): name the section and its line.
    for (const auto& [section, line] : sectionLine)
    {
        bool header = false;
        for (const auto& [n, text] : sections[section])
        {
            std::string t = TextUtil::Trim(text);
            header = header || (!t.empty() && t[0] != '#');
        }
        if (!header)
        {
            throw InputError(path, line, section,
                             "section [" + section + "] has no header row (its column names)");
        }
    }
    Topology topo(path);
    std::string base = path.substr(path.find_last_of('/') + 1);
    topo.SetName(base.substr(0, base.find('.')));

    CsvTable cities = CsvTable::FromLines(path, sections["cities"]);
    cities.RejectUnknownColumns({"code", "name", "latitude", "longitude"});
    ReadCities(topo, cities);

    CsvTable devices = CsvTable::FromLines(path, sections["devices"]);
    devices.RejectUnknownColumns({"device", "city", "edge_gbps", "operator"});
    std::size_t dName = devices.RequireColumn("device");
    std::size_t dCity = devices.RequireColumn("city");
    std::size_t dEdge = devices.RequireColumn("edge_gbps");
    bool hasOwner = devices.HasColumn("operator");
    std::size_t dOwner = hasOwner ? devices.RequireColumn("operator") : 0;
    for (const auto& row : devices.Rows())
    {
        CheckName(devices, row, dName, devices.Text(row, dName));
        Device d{devices.Text(row, dName),
                 TextUtil::Upper(devices.Text(row, dCity)),
                 Capacity(devices, row, dEdge),
                 hasOwner && dOwner < row.cells.size() ? row.cells[dOwner] : ""};
        AddRow(devices, row, {}, [&] { topo.AddDevice(d); });
    }
    CsvTable privateLinks = CsvTable::FromLines(path, sections["private_links"]);
    privateLinks.RejectUnknownColumns({"device_a", "device_b", "latency_ms", "capacity_gbps"});
    ReadLinks(topo, privateLinks, LinkKind::PRIVATE, {}, 0);
    if (sectionLine.count("public_links"))
    {
        CsvTable publicLinks = CsvTable::FromLines(path, sections["public_links"]);
        publicLinks.RejectUnknownColumns({"city_a", "city_b", "latency_ms", "capacity_gbps"});
        ReadLinks(topo, publicLinks, LinkKind::PUBLIC, {}, 0);
    }
    return topo;
}

Topology
TopologyReader::ReadDoubleZero(const std::string& dir, double publicCapacityBps)
{
    if (!IsDirectory(dir))
    {
        throw InputError(dir, 0, "", "not a directory (expected a DoubleZero sample directory)");
    }
    if (!(publicCapacityBps >= MinGbps() * 1e9 && publicCapacityBps <= MaxGbps() * 1e9))
    {
        std::ostringstream os;
        os << "must be between " << MinGbps() * 1e9 << " and " << MaxGbps() * 1e9
           << " bit/s, got " << publicCapacityBps;
        throw InputError(dir, 0, "public capacity", os.str());
    }
    Topology topo(dir);
    std::string trimmed = dir;
    while (trimmed.size() > 1 && trimmed.back() == '/')
    {
        trimmed.pop_back();
    }
    topo.SetName(trimmed.substr(trimmed.find_last_of('/') + 1));

    const std::string citiesPath = dir + "/cities.csv";
    if (Exists(citiesPath))
    {
        ReadCities(topo, CsvTable::ReadFile(citiesPath));
    }

    const std::string devicesPath = dir + "/devices.csv";
    CsvTable devices = CsvTable::ReadFile(devicesPath);
    std::size_t dName = devices.RequireColumn("Device");
    std::size_t dEdge = devices.RequireColumn("Edge");
    bool hasOwner = devices.HasColumn("Operator");
    std::size_t dOwner = hasOwner ? devices.RequireColumn("Operator") : 0;
    const std::map<std::string, std::string> deviceColumns = {{"device", "Device"},
                                                              {"city", "Device"},
                                                              {"edge_gbps", "Edge"}};
    for (const auto& row : devices.Rows())
    {
        std::string name = devices.Text(row, dName);
        std::string city = name;
        while (!city.empty() && std::isdigit(static_cast<unsigned char>(city.back())))
        {
            city.pop_back();
        }
        city = TextUtil::Upper(city);
        if (city.empty())
        {
            throw InputError(devicesPath,
                             row.line,
                             "Device",
                             "cannot derive a city from device name '" + name + "'");
        }
        CheckName(devices, row, dName, name);
        Device d{name,
                 city,
                 Capacity(devices, row, dEdge),
                 hasOwner && dOwner < row.cells.size() ? row.cells[dOwner] : ""};
        AddRow(devices, row, deviceColumns, [&] {
            if (!topo.FindCity(city))
            {
                topo.AddCity(KnownCity(city));
            }
            topo.AddDevice(d);
        });
    }
    ReadLinks(topo,
              CsvTable::ReadFile(dir + "/private_links.csv"),
              LinkKind::PRIVATE,
              {{"device_a", "Device1"},
               {"device_b", "Device2"},
               {"latency_ms", "Latency"},
               {"capacity_gbps", "Bandwidth"}},
              0);
    ReadLinks(topo,
              CsvTable::ReadFile(dir + "/public_links.csv"),
              LinkKind::PUBLIC,
              {{"city_a", "City1"}, {"city_b", "City2"}, {"latency_ms", "Latency"}},
              publicCapacityBps);
    return topo;
}

namespace
{

/// A free-text cell (a city's name, a device's operator) as the reader reads it back: quoted,
/// quotes doubled; a control character (a GraphML label's line break) becomes a space, as the
/// reader refuses control characters.
std::string
QuotedCell(const std::string& text)
{
    std::string out = "\"";
    for (char ch : text)
    {
        auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7f)
        {
            out += ' ';
        }
        else
        {
            out += ch;
            if (ch == '"')
            {
                out += '"';
            }
        }
    }
    return out + "\"";
}

} // namespace

void
TopologyReader::WriteFile(const Topology& topology, const std::string& path)
{
    std::ofstream out(path);
    if (!out)
    {
        throw InputError(path, 0, "", "cannot open file for writing");
    }
    out << std::setprecision(12);
    out << "# intelligent-network topology: " << topology.GetName() << "\n[cities]\n"
        << "code,name,latitude,longitude\n";
    for (const auto& c : topology.Cities())
    {
        out << c.code << "," << QuotedCell(c.name) << ",";
        if (!std::isnan(c.latitude) && !std::isnan(c.longitude))
        {
            out << c.latitude << "," << c.longitude;
        }
        else
        {
            out << ",";
        }
        out << "\n";
    }
    out << "\n[devices]\ndevice,city,edge_gbps,operator\n";
    for (const auto& d : topology.Devices())
    {
        out << d.name << "," << d.city << "," << d.edgeCapacityBps / 1e9 << ","
            << QuotedCell(d.owner) << "\n";
    }
    for (LinkKind kind : {LinkKind::PRIVATE, LinkKind::PUBLIC})
    {
        bool priv = kind == LinkKind::PRIVATE;
        out << "\n[" << Topology::KindName(kind) << "_links]\n"
            << (priv ? "device_a,device_b" : "city_a,city_b") << ",latency_ms,capacity_gbps\n";
        for (const auto& l : topology.Links())
        {
            if (l.kind == kind)
            {
                out << l.a << "," << l.b << "," << l.latencyS * 1e3 << "," << l.capacityBps / 1e9
                    << "\n";
            }
        }
    }
    out.close(); // (a full device or a file system that refuses fails here, not at <<)
    if (out.fail())
    {
        throw InputError(path, 0, "", "write failed");
    }
}

} // namespace ns3
