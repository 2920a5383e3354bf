/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: GraphmlTopologyReader (GraphML as the Internet Topology Zoo writes it), checked
// against hand computations: codes, rates (raw, speed x units, default), latencies from
// great-circle distances, nodes without coordinates, bad input.

#include "gtest-util.h"

#include "ns3/graphml-topology-reader.h"
#include "ns3/synthetic-topology.h"
#include "ns3/topology-reader.h"

#include <cmath>
#include <sstream>
#include <sys/stat.h>

using namespace ns3;
using ns3::testutil::TempDir;

namespace
{

const std::string kZoo =
    std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/../test/data/zoo-test.graphml";

const TopologyLink*
FindLink(const Topology& t, const std::string& a, const std::string& b)
{
    for (const auto& l : t.Links())
    {
        if ((l.a == a && l.b == b) || (l.a == b && l.b == a))
        {
            return &l;
        }
    }
    return nullptr;
}

std::string
Graphml(const std::string& nodes, const std::string& edges,
        const std::string& direction = "undirected")
{
    return "<?xml version=\"1.0\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
           "<key attr.name=\"Latitude\" attr.type=\"double\" for=\"node\" id=\"d29\" />\n"
           "<key attr.name=\"Longitude\" attr.type=\"double\" for=\"node\" id=\"d33\" />\n"
           "<key attr.name=\"label\" attr.type=\"string\" for=\"node\" id=\"d35\" />\n"
           "<key attr.name=\"LinkSpeed\" attr.type=\"string\" for=\"edge\" id=\"d36\" />\n"
           "<key attr.name=\"LinkSpeedUnits\" attr.type=\"string\" for=\"edge\" id=\"d38\" />\n"
           "<key attr.name=\"LinkSpeedRaw\" attr.type=\"double\" for=\"edge\" id=\"d39\" />\n"
           "<graph edgedefault=\"" +
           direction + "\">\n" + nodes + edges + "</graph>\n</graphml>\n";
}

std::string
Node(int id, const std::string& label, const std::string& lat, const std::string& lon)
{
    std::ostringstream o;
    o << "<node id=\"" << id << "\">";
    if (!lat.empty())
    {
        o << "<data key=\"d29\">" << lat << "</data><data key=\"d33\">" << lon << "</data>";
    }
    if (!label.empty())
    {
        o << "<data key=\"d35\">" << label << "</data>";
    }
    o << "</node>\n";
    return o.str();
}

std::string
Edge(int a, int b, const std::string& data = "")
{
    return "<edge source=\"" + std::to_string(a) + "\" target=\"" + std::to_string(b) + "\">" +
           data + "</edge>\n";
}

TEST(GraphmlTopologyReader, ZooFileByHand)
{
    std::ostringstream warnings;
    GraphmlTopologyOptions o;
    o.warnings = &warnings;
    Topology t = GraphmlTopologyReader::Read(kZoo, o);
    EXPECT_EQ(t.GetName(), "zoo-test");
    ASSERT_EQ(t.CityCodes(), (std::vector<std::string>{"AMS", "LON", "PAR", "FRA", "MAD", "GEN"}));
    EXPECT_EQ(t.FindCity("AMS")->name, "Amsterdam");
    ASSERT_NE(t.FindDevice("AMS1"), nullptr);
    // Rates: LinkSpeedRaw; LinkSpeed x units; the default where both are missing.
    EXPECT_EQ(FindLink(t, "AMS1", "LON1")->capacityBps, 10e9);
    EXPECT_EQ(FindLink(t, "LON1", "PAR1")->capacityBps, 2.5e9);
    EXPECT_EQ(FindLink(t, "AMS1", "FRA1")->capacityBps, 1e9);
    EXPECT_EQ(FindLink(t, "PAR1", "MAD1")->capacityBps, 10e9);
    // Latency: Amsterdam-London great circle ~357.7 km (haversine, R = 6371 km) x 4.9 us/km x 1.4.
    double km = SyntheticTopology::GreatCircleKm(52.37022, 4.89517, 51.50853, -0.12574);
    EXPECT_NEAR(km, 357.7, 1.0);
    EXPECT_NEAR(FindLink(t, "AMS1", "LON1")->latencyS, km * 4.9e-6 * 1.4, 1e-12);
    // Geneva has no coordinates: placed at the mean of Paris and Frankfurt, with a warning;
    // its city keeps unknown coordinates.
    EXPECT_TRUE(std::isnan(t.FindCity("GEN")->latitude));
    double glat = (48.85341 + 50.11552) / 2;
    double glon = (2.3488 + 8.68417) / 2;
    EXPECT_NEAR(FindLink(t, "PAR1", "GEN1")->latencyS,
                SyntheticTopology::GreatCircleKm(48.85341, 2.3488, glat, glon) * 4.9e-6 * 1.4,
                1e-12);
    EXPECT_NE(warnings.str().find("'Geneva') (GEN) has no Latitude/Longitude"), std::string::npos)
        << warnings.str();
    // The edge capacity of a device is its fastest link (access links do not throttle it).
    EXPECT_EQ(t.FindDevice("FRA1")->edgeCapacityBps, 10e9);
    EXPECT_EQ(t.CountLinks(LinkKind::PUBLIC), 0u);
    // TopologyReader::Read selects the reader by extension.
    EXPECT_EQ(TopologyReader::Read(kZoo).Links().size(), t.Links().size());
}

TEST(GraphmlTopologyReader, OptionsAndCodes)
{
    TempDir dir;
    std::string f =
        dir.Write("net.graphml",
                  Graphml(Node(0, "Paris", "48.85", "2.35") + Node(1, "Paris", "48.86", "2.36") +
                              Node(2, "", "40", "-3") + Node(3, "São Paulo", "-23.5", "-46.6"),
                          Edge(0, 1) + Edge(1, 2) + Edge(1, 2, "<data key=\"d39\">5e8</data>") +
                              Edge(2, 3) + Edge(3, 3)));
    GraphmlTopologyOptions o;
    o.fibreFactor = 2;
    o.defaultLinkRateBps = 3e9;
    std::ostringstream w;
    o.warnings = &w;
    Topology t = GraphmlTopologyReader::Read(f, o);
    // Duplicate labels get a suffix; a node without a label its position; non-ASCII dropped.
    EXPECT_EQ(t.CityCodes(), (std::vector<std::string>{"PAR", "PAR2", "N2", "SOP"}));
    EXPECT_EQ(FindLink(t, "PAR1", "PAR21")->capacityBps, 3e9);
    // Parallel edges merged (their rates summed), self-loops skipped, both with a warning.
    EXPECT_EQ(FindLink(t, "PAR21", "N21")->capacityBps, 3e9 + 5e8);
    EXPECT_EQ(t.Links().size(), 3u);
    EXPECT_NE(w.str().find("parallel edges"), std::string::npos);
    EXPECT_NE(w.str().find("self-loop"), std::string::npos);
    // Two places 1.1 km apart: at least the 10 us floor; factor 2 applied otherwise.
    const auto* near = FindLink(t, "PAR1", "PAR21");
    double km = SyntheticTopology::GreatCircleKm(48.85, 2.35, 48.86, 2.36);
    EXPECT_NEAR(near->latencyS, std::max(10e-6, km * 4.9e-6 * 2), 1e-15);
}

TEST(GraphmlTopologyReader, BadInputNamed)
{
    TempDir dir;
    auto expectError = [](const std::string& path, const std::string& needle) {
        try
        {
            GraphmlTopologyReader::Read(path);
            ADD_FAILURE() << "no error for " << needle;
        }
        catch (const InputError& e)
        {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
        }
    };
    expectError(dir.Write("nan.graphml",
                          Graphml(Node(0, "A", "nan", "1") + Node(1, "B", "1", "1"), Edge(0, 1))),
                "node 0 ('A') Latitude");
    expectError(dir.Write("range.graphml",
                          Graphml(Node(0, "A", "91", "1") + Node(1, "B", "1", "1"), Edge(0, 1))),
                "out of range");
    expectError(dir.Write("speed.graphml", Graphml(Node(0, "A", "1", "1") + Node(1, "B", "1", "2"),
                                                   Edge(0, 1, "<data key=\"d39\">1e300</data>"))),
                "edge A-B LinkSpeed");
    expectError(dir.Write("units.graphml", Graphml(Node(0, "A", "1", "1") + Node(1, "B", "1", "2"),
                                                   Edge(0, 1, "<data key=\"d36\">10</data>"))),
                "LinkSpeedUnits");
    expectError(dir.Write("nowhere.graphml", Graphml(Node(0, "A", "1", "1") + Node(1, "B", "", "") +
                                                         Node(2, "C", "", ""),
                                                     Edge(1, 2))),
                "no coordinates");
    expectError(
        dir.Write("directed.graphml",
                  Graphml(Node(0, "A", "1", "1") + Node(1, "B", "1", "2"), Edge(0, 1), "directed")),
        "directed");
    expectError(dir.Write("junk.graphml", "not xml at all"), "not readable GraphML");
    // Boost's reader makes a node of any id an edge names, and merges nodes sharing an id:
    // both refused, with the line (before: a city 'N2' appeared, or 'B' vanished).
    const std::string ab = Node(0, "A", "1", "1") + Node(1, "B", "1", "2");
    expectError(dir.Write("unknown.graphml", Graphml(ab, Edge(0, 1) + Edge(1, 99))),
                "unknown.graphml:13: field 'edge target': edge target '99' is not the id");
    expectError(dir.Write("twice.graphml", Graphml(ab + Node(1, "C", "1", "3"), Edge(0, 1))),
                "twice.graphml:12: field 'node id': node id '1' given twice");
    std::string two = Graphml(ab, Edge(0, 1));
    two.insert(two.find("</graphml>"), "<graph edgedefault=\"undirected\"></graph>\n");
    expectError(dir.Write("two.graphml", two), "more than one top-level <graph>");
    // Parallel edges are merged by summing their rates: a sum beyond ns-3's largest rate is
    // refused (before: SIGFPE in DataRate at the first packet).
    expectError(
        dir.Write("sum.graphml", Graphml(ab, Edge(0, 1, "<data key=\"d39\">1e19</data>") +
                                                 Edge(1, 0, "<data key=\"d39\">1e19</data>"))),
        "2 parallel edges A-B merge into one link of at least 1.8e19");
    // A <data> element naming an undeclared key (Boost: 'unrecognized type ""', no key named).
    expectError(dir.Write("key.graphml", Graphml(Node(0, "A", "1", "1") +
                                                     "<node id=\"1\"><data key=\"d99\">x</data>"
                                                     "</node>\n",
                                                 Edge(0, 1))),
                "field 'node '1' data key': <data key=\"d99\"> names no declared <key>");
    // Not a regular file (a pipe would block the reader forever).
    std::string fifo = dir.Path() + "/pipe.graphml";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    expectError(fifo, "not a regular file");
    expectError(dir.Path() + "/missing.graphml", "cannot open");
}

} // namespace
