/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ns-3 TestSuite "intelligent-network-fabric": the metro fabric at packet level (islands carry
// only their own bytes, intra-city links carry their routes, packets follow exactly the paths
// the planners charge), PlannedRouting (TCP from every node that sends, every address
// routable, multicast with a local copy at a router, routes cleared and reinstalled, source
// address), LinkMonitor's figures against a header-parsing reference and its frame parser on
// hand-built frames.

#include "test-util.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/internet-module.h"
#include "ns3/island-header.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/ppp-header.h"
#include "ns3/test.h"

#include <map>
#include <sstream>

using namespace ns3;
using namespace ns3::intelligent_network_test;

namespace
{

const std::string kData = INTELLIGENT_NETWORK_DATA_DIR;

Topology
NineCity()
{
    return TopologyReader::ReadFile(kData + "/nine-city.topology");
}

NetworkGraphOptions
QuietOptions()
{
    NetworkGraphOptions o;
    o.latencyCheck = LatencyCheckMode::OFF;
    return o;
}

/// One scenario on the nine cities, all in one clique (the most transit there can be).
void
SetUpNineCity(ScenarioHelper& s, ExchangePattern mode, uint64_t model, const std::string& schedule)
{
    Topology topo = NineCity();
    s.SetTopology(topo);
    s.SetGraphOptions(QuietOptions());
    s.SetSchedule(Schedule::Load(kData + "/schedules/" + schedule + ".json", topo.CityCodes()));
    s.SetCapabilities(NetworkCapabilities::ForPattern(mode));
    s.SetIslandAttribute("ModelBytes", UintegerValue(model));
    s.SetIslandAttribute("ComputeTime", TimeValue(MilliSeconds(1)));
}

/// Copies of the model TrafficPlanner charges on each directed resource when every island of
/// \p s forms one clique in \p mode (what the fluid CostModel charges).
std::map<uint32_t, double>
PlannedCopies(const ScenarioHelper& s, ExchangePattern mode)
{
    std::vector<uint32_t> members;
    for (const auto& city : s.GetIslandCities())
    {
        members.push_back(s.GetGraph().IslandNode(city));
    }
    std::sort(members.begin(), members.end());
    // The exchange the fluid CostModel charges and the packet level runs (for aggregation the
    // planner's tree: one copy per tree edge per direction).
    std::map<uint32_t, double> copies;
    for (const auto& phase : s.GetTraffic().Exchange(members, mode).phases)
    {
        for (const auto& f : phase)
        {
            for (const auto& [resource, units] : f.usage.usage)
            {
                copies[resource] += units * f.fraction;
            }
        }
    }
    return copies;
}

/// Wire bytes (with the 2-byte PPP header) of an IPv4 packet.
uint64_t
WireBytes(const Ipv4Header& h, Ptr<const Packet> p)
{
    return 2 + h.GetSerializedSize() + p->GetSize();
}

/**
 * Every byte on an island's link is its own: what it puts on its access link is exactly what
 * its own IPv4 stack sent, what comes down is exactly what it delivered to its own sockets,
 * and it never forwards a packet. (Before the metro fabric, TYO's island forwarded SEO's
 * transit and FRA's joined FRA1 to FRA2.)
 */
class IslandsCarryOnlyTheirOwnBytesTestCase : public TestCase
{
  public:
    explicit IslandsCarryOnlyTheirOwnBytesTestCase(ExchangePattern mode)
        : TestCase("islands carry only their own bytes: " + PatternName(mode)),
          m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        ScenarioHelper s;
        SetUpNineCity(s, m_mode, 300000, "all-in-one");
        s.Build();
        const NetworkGraph& g = s.GetGraph();
        const WanNetwork& net = s.GetNetwork();
        const uint32_t islands = static_cast<uint32_t>(g.IslandCount());
        std::vector<uint64_t> sent(islands, 0);
        std::vector<uint64_t> delivered(islands, 0);
        std::vector<uint64_t> forwarded(islands, 0);
        for (uint32_t i = 0; i < islands; ++i)
        {
            Ptr<Ipv4L3Protocol> ip = net.GetNode(i)->GetObject<Ipv4L3Protocol>();
            ip->TraceConnectWithoutContext(
                "SendOutgoing",
                Callback<void, const Ipv4Header&, Ptr<const Packet>, uint32_t>(
                    [&sent, i](const Ipv4Header& h, Ptr<const Packet> p, uint32_t) {
                        sent[i] += WireBytes(h, p);
                    }));
            ip->TraceConnectWithoutContext(
                "LocalDeliver",
                Callback<void, const Ipv4Header&, Ptr<const Packet>, uint32_t>(
                    [&delivered, i](const Ipv4Header& h, Ptr<const Packet> p, uint32_t) {
                        delivered[i] += WireBytes(h, p);
                    }));
            for (const char* trace : {"UnicastForward", "MulticastForward"})
            {
                ip->TraceConnectWithoutContext(
                    trace,
                    Callback<void, const Ipv4Header&, Ptr<const Packet>, uint32_t>(
                        [&forwarded, i](const Ipv4Header&, Ptr<const Packet>, uint32_t) {
                            ++forwarded[i];
                        }));
            }
        }
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        for (uint32_t i = 0; i < islands; ++i)
        {
            const std::string& city = g.Nodes()[i].name;
            uint64_t up = 0;
            uint64_t down = 0;
            std::size_t links = 0;
            for (uint32_t e = 0; e < g.EdgeCount(); ++e)
            {
                const GraphEdge& edge = g.Edges()[e];
                if (edge.a == i || edge.b == i)
                {
                    ++links;
                    up += s.GetLinkMonitor().Get(e, i).bytes;
                    down += s.GetLinkMonitor().Get(e, g.OtherEnd(e, i)).bytes;
                }
            }
            NS_TEST_EXPECT_MSG_EQ(links, 1u, city << " has one link");
            NS_TEST_EXPECT_MSG_GT(sent[i], 0u, city << " sent nothing");
            NS_TEST_EXPECT_MSG_EQ(up, sent[i], city << ": bytes up its link that it did not send");
            // Aggregation: the root's end-of-sums markers (header only, EndMarkers = 3 copies)
            // follow the clique's last sum and can still be on the access link when the run
            // stops at the last member's completion: at most three of them, nothing else.
            const uint64_t marker = 2 + 20 + 8 + IslandHeader::SERIALIZED_SIZE;
            const uint64_t inFlight = down >= delivered[i] ? down - delivered[i] : ~0ull;
            const bool onlyMarkers = m_mode == ExchangePattern::AGGREGATION &&
                                     inFlight % marker == 0 && inFlight / marker <= 3;
            NS_TEST_EXPECT_MSG_EQ((down == delivered[i] || onlyMarkers), true,
                                  city << ": bytes down its link that were not for it (down "
                                       << down << ", delivered " << delivered[i] << ")");
            NS_TEST_EXPECT_MSG_EQ(forwarded[i], 0u, city << " forwarded packets");
        }
        Simulator::Destroy();
    }

    ExchangePattern m_mode;
};

/**
 * Packets follow exactly the paths the planners charge: with no loss, the model bytes on every
 * link direction equal the model size times the copies TrafficPlanner puts there (its flow
 * usage, which the fluid CostModel charges). The intra-city private links carry the routes
 * that cross them: FRA1-FRA2 and SIN2-SIN1 (AMS -> TYO) and NYC4's links (LAX -> LON).
 */
class PacketsFollowThePlannedPathsTestCase : public TestCase
{
  public:
    explicit PacketsFollowThePlannedPathsTestCase(ExchangePattern mode)
        : TestCase("model bytes per link = planned copies x model, intra-city links used: " +
                   PatternName(mode)),
          m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t model = 50 * 8192; // whole segments: sums travel in whole slots
        ScenarioHelper s;
        SetUpNineCity(s, m_mode, model, "all-in-one");
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        const NetworkGraph& g = s.GetGraph();
        std::map<uint32_t, double> copies = PlannedCopies(s, m_mode);
        for (uint32_t e = 0; e < g.EdgeCount(); ++e)
        {
            const GraphEdge& edge = g.Edges()[e];
            for (uint32_t from : {edge.a, edge.b})
            {
                uint32_t res = g.Resource(e, from);
                uint64_t expected = static_cast<uint64_t>(copies[res]) * model;
                NS_TEST_EXPECT_MSG_EQ(s.GetLinkMonitor().Get(e, from).dataPayloadBytes,
                                      expected,
                                      g.EdgeName(e) << " from " << g.Nodes()[from].name);
            }
        }
        if (m_mode == ExchangePattern::AGGREGATION)
        {
            Simulator::Destroy(); // the paths to the FPGA: checked above, link by link
            return;
        }
        // The routes that cross the intra-city links, and their bytes.
        auto crosses = [&](const std::string& src,
                           const std::string& dst,
                           const std::string& a,
                           const std::string& b) {
            int64_t e = g.FindEdgeByNames(a, b);
            for (const auto& h : s.GetRoutes().ShortestPath(g.IslandNode(src), g.IslandNode(dst)))
            {
                if (h.edge == e && g.Nodes()[h.from].name == a)
                {
                    return true;
                }
            }
            return false;
        };
        auto payload = [&](const std::string& a, const std::string& b) {
            return s.GetLinkMonitor()
                .Get(static_cast<uint32_t>(g.FindEdgeByNames(a, b)), g.NodeByName(a))
                .dataPayloadBytes;
        };
        NS_TEST_EXPECT_MSG_EQ(crosses("AMS", "TYO", "FRA1", "FRA2"), true, "AMS-TYO route");
        NS_TEST_EXPECT_MSG_EQ(crosses("AMS", "TYO", "SIN2", "SIN1"), true, "AMS-TYO route");
        NS_TEST_EXPECT_MSG_EQ(crosses("LAX", "LON", "NYC1", "NYC4"), true, "LAX-LON route");
        NS_TEST_EXPECT_MSG_EQ(crosses("LAX", "LON", "NYC4", "NYC2"), true, "LAX-LON route");
        for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{
                 {"FRA1", "FRA2"}, {"SIN2", "SIN1"}, {"NYC1", "NYC4"}, {"NYC4", "NYC2"}})
        {
            NS_TEST_EXPECT_MSG_GT(payload(a, b), 0u, a << "-" << b << " carried no model");
        }
        Simulator::Destroy();
    }

    ExchangePattern m_mode;
};

/// The figures of the copy-free LinkMonitor, computed the old way: copy every packet and
/// deserialise its PPP, IPv4, UDP and island headers.
class HeaderParsingMonitor
{
  public:
    explicit HeaderParsingMonitor(const WanNetwork& network)
        : m_counters(network.Graph().ResourceCount())
    {
        const NetworkGraph& g = network.Graph();
        for (uint32_t e = 0; e < g.EdgeCount(); ++e)
        {
            const GraphEdge& edge = g.Edges()[e];
            uint32_t ends[2] = {edge.a, edge.b};
            for (int side = 0; side < 2; ++side)
            {
                uint32_t res = g.Resource(e, ends[side]);
                double rate = edge.capacityBps;
                network.Edge(e).device[side]->TraceConnectWithoutContext(
                    "PhyTxBegin",
                    Callback<void, Ptr<const Packet>>([this, res, rate](Ptr<const Packet> p) {
                        OnTx(res, rate, p);
                    }));
            }
        }
    }

    const LinkMonitor::Counters& Get(uint32_t resource) const
    {
        return m_counters[resource];
    }

  private:
    void OnTx(uint32_t res, double rate, Ptr<const Packet> packet)
    {
        LinkMonitor::Counters& c = m_counters[res];
        c.bytes += packet->GetSize();
        c.packets += 1;
        c.busyS += packet->GetSize() * 8.0 / rate;
        if (packet->GetSize() < 2 + 20 + 8 + IslandHeader::SERIALIZED_SIZE)
        {
            return;
        }
        Ptr<Packet> copy = packet->Copy();
        PppHeader ppp;
        Ipv4Header ip;
        UdpHeader udp;
        IslandHeader island;
        copy->RemoveHeader(ppp);
        copy->RemoveHeader(ip);
        if (ip.GetProtocol() != 17 || ip.GetFragmentOffset() != 0)
        {
            return;
        }
        copy->RemoveHeader(udp);
        copy->RemoveHeader(island);
        if (island.type == IslandHeader::DATA || island.type == IslandHeader::CONTRIBUTION ||
            island.type == IslandHeader::RESULT)
        {
            c.dataPackets += 1;
            c.dataPayloadBytes += copy->GetSize();
        }
    }

    std::vector<LinkMonitor::Counters> m_counters;
};

/// LinkMonitor (a few header bytes copied out per link) gives exactly the figures of
/// the header-parsing reference, with 1% loss (retransmissions, resent sums) in every mode.
class LinkMonitorMatchesHeaderParsingTestCase : public TestCase
{
  public:
    explicit LinkMonitorMatchesHeaderParsingTestCase(ExchangePattern mode)
        : TestCase("LinkMonitor equals the header-parsing reference, 1% loss: " +
                   PatternName(mode)),
          m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        ScenarioHelper s;
        SetUpNineCity(s, m_mode, 600000, "3x3-rotating");
        s.SetRounds(2);
        s.SetLossRate(0.01);
        s.Build();
        HeaderParsingMonitor reference(s.GetNetwork());
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        const NetworkGraph& g = s.GetGraph();
        uint64_t payload = 0;
        for (uint32_t e = 0; e < g.EdgeCount(); ++e)
        {
            for (uint32_t from : {g.Edges()[e].a, g.Edges()[e].b})
            {
                const auto& got = s.GetLinkMonitor().Get(e, from);
                const auto& want = reference.Get(g.Resource(e, from));
                std::string what = g.EdgeName(e) + " from " + g.Nodes()[from].name;
                NS_TEST_EXPECT_MSG_EQ(got.bytes, want.bytes, what);
                NS_TEST_EXPECT_MSG_EQ(got.packets, want.packets, what);
                NS_TEST_EXPECT_MSG_EQ(got.dataPackets, want.dataPackets, what);
                NS_TEST_EXPECT_MSG_EQ(got.dataPayloadBytes, want.dataPayloadBytes, what);
                NS_TEST_EXPECT_MSG_EQ(got.busyS, want.busyS, what);
                payload += got.dataPayloadBytes;
            }
        }
        NS_TEST_EXPECT_MSG_GT(payload, 0u, "no model bytes counted at all");
        uint64_t repaired = 0;
        for (const auto& ir : r.islandRounds)
        {
            repaired += ir.retransmittedSegments;
        }
        for (const auto& a : r.aggregation)
        {
            repaired += a.resentResults;
        }
        NS_TEST_EXPECT_MSG_GT(repaired, 0u, "the loss caused no retransmission to count");
        Simulator::Destroy();
    }

    ExchangePattern m_mode;
};

/// A bare nine-city network with PlannedRouting filled for islands and every device.
struct PlainNetwork
{
    PlainNetwork()
        : graph(NetworkGraph::FromTopology(NineCity(), QuietOptions())),
          routes(graph)
    {
        WanNetworkHelper helper;
        network = helper.Install(graph);
        WanNetworkHelper::InstallRoutes(network, routes);
        std::vector<uint32_t> devices;
        for (uint32_t n = 0; n < graph.NodeCount(); ++n)
        {
            if (graph.Nodes()[n].kind == NodeKind::DEVICE)
            {
                devices.push_back(n);
            }
        }
        WanNetworkHelper::InstallRoutesTo(network, routes, devices);
    }

    Ptr<PlannedRouting> Table(uint32_t node) const
    {
        return PlannedRoutingHelper::Get(network.GetNode(node)->GetObject<Ipv4>());
    }

    NetworkGraph graph;
    RoutePlanner routes;
    WanNetwork network;
};

/**
 * Every address of every node that sends (islands, devices) has a host route on every other
 * node, along the planned path to its node; a locally sent packet takes its output
 * interface's address as source.
 */
class EveryAddressIsRoutableTestCase : public TestCase
{
  public:
    EveryAddressIsRoutableTestCase()
        : TestCase("every address of every island and device is routable from every node")
    {
    }

  private:
    void DoRun() override
    {
        PlainNetwork p;
        const NetworkGraph& g = p.graph;
        std::size_t checked = 0;
        for (uint32_t n = 0; n < g.NodeCount(); ++n)
        {
            Ptr<PlannedRouting> table = p.Table(n);
            for (uint32_t d = 0; d < g.NodeCount(); ++d)
            {
                NodeKind k = g.Nodes()[d].kind;
                if (d == n || (k != NodeKind::ISLAND && k != NodeKind::DEVICE))
                {
                    continue;
                }
                RoutePlanner::Hop hop;
                bool reachable = p.routes.NextHop(n, d, hop);
                for (const Ipv4Address& a : p.network.NodeAddresses(d))
                {
                    Ptr<Ipv4Route> r = table->LookupHostRoute(a);
                    std::string what = g.Nodes()[n].name + " -> " + g.Nodes()[d].name;
                    NS_TEST_ASSERT_MSG_EQ(bool(r), reachable, what);
                    if (!r)
                    {
                        continue;
                    }
                    NS_TEST_EXPECT_MSG_EQ(r->GetOutputDevice()->GetIfIndex(),
                                          p.network.DeviceIndexOn(hop.edge, n),
                                          what);
                    NS_TEST_EXPECT_MSG_EQ(r->GetGateway(), p.network.AddressOn(hop.edge, hop.to),
                                          what);
                    NS_TEST_EXPECT_MSG_EQ(r->GetSource(), p.network.AddressOn(hop.edge, n), what);
                    ++checked;
                }
            }
        }
        NS_TEST_EXPECT_MSG_GT(checked, 1000u, "checked too little");
        // An island's address is its one interface.
        for (uint32_t i = 0; i < g.IslandCount(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(p.network.NodeAddresses(i).size(), 1u, g.Nodes()[i].name);
            NS_TEST_EXPECT_MSG_EQ(p.network.IslandAddress(i), p.network.NodeAddresses(i)[0],
                                  g.Nodes()[i].name);
        }
        // RouteOutput from a multi-homed device: the source is the output interface's address.
        uint32_t nyc4 = g.NodeByName("NYC4");
        uint32_t lon = g.IslandNode("LON");
        Ipv4Header h;
        h.SetDestination(p.network.IslandAddress(lon));
        Socket::SocketErrno err;
        Ptr<Ipv4Route> r = p.Table(nyc4)->RouteOutput(Create<Packet>(10), h, nullptr, err);
        NS_TEST_ASSERT_MSG_EQ(bool(r), true, "route from NYC4 to LON");
        RoutePlanner::Hop hop;
        p.routes.NextHop(nyc4, lon, hop);
        NS_TEST_EXPECT_MSG_EQ(g.Nodes()[hop.to].name, "NYC2", "NYC4 reaches LON via NYC2");
        NS_TEST_EXPECT_MSG_EQ(r->GetSource(), p.network.AddressOn(hop.edge, nyc4), "source");
        NS_TEST_EXPECT_MSG_NE(r->GetSource(), p.network.NodeAddress(nyc4),
                              "not the device's first address");
        Simulator::Destroy();
    }
};

/**
 * TCP from an island and from a multi-homed device whose output interface is not its first
 * (replies return to the source address): every byte arrives (issue 10: TCP from a
 * multi-homed island used to hang).
 */
class TcpFromEverySenderTestCase : public TestCase
{
  public:
    TcpFromEverySenderTestCase()
        : TestCase("TCP bulk transfers from an island and from a multi-homed device complete")
    {
    }

  private:
    void DoRun() override
    {
        PlainNetwork p;
        const NetworkGraph& g = p.graph;
        const uint32_t bytes = 300000;
        struct Transfer
        {
            std::string from;
            std::string to;
            bool lastAddress; ///< Send to the destination's last address, not its first.
        };
        std::vector<Transfer> transfers = {{"SEO", "LAX", false},
                                           {"NYC4", "AMS", false},
                                           {"BAR", "NYC4", true},
                                           {"TYO1", "LON2", true}};
        std::vector<Ptr<PacketSink>> sinks;
        uint16_t port = 5000;
        for (const auto& t : transfers)
        {
            uint32_t src = g.NodeByName(t.from);
            uint32_t dst = g.NodeByName(t.to);
            const auto& addrs = p.network.NodeAddresses(dst);
            Ipv4Address to = t.lastAddress ? addrs.back() : addrs.front();
            PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
            ApplicationContainer sa = sink.Install(p.network.GetNode(dst));
            sinks.push_back(DynamicCast<PacketSink>(sa.Get(0)));
            BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(to, port));
            bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
            bulk.Install(p.network.GetNode(src)).Start(Seconds(0.01));
            ++port;
        }
        Simulator::Stop(Seconds(20));
        Simulator::Run();
        for (std::size_t i = 0; i < transfers.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(sinks[i]->GetTotalRx(), bytes,
                                  transfers[i].from << " -> " << transfers[i].to);
        }
        Simulator::Destroy();
    }
};

/// A 100-byte datagram to \p to:\p port now and every \p interval before \p stop; counts
/// the sends the socket refused (no route).
void
SendEvery(Ptr<Socket> socket,
          Ipv4Address to,
          uint16_t port,
          Time interval,
          Time stop,
          uint32_t* refused)
{
    if (socket->SendTo(Create<Packet>(100), 0, InetSocketAddress(to, port)) < 0 && refused)
    {
        ++*refused;
    }
    if (Simulator::Now() + interval < stop)
    {
        Simulator::Schedule(interval, &SendEvery, socket, to, port, interval, stop, refused);
    }
}

/// Received datagrams per second of simulated time, by socket.
struct Counter
{
    std::map<int, uint32_t> perSecond;

    void Attach(Ptr<Node> node, uint16_t port)
    {
        Ptr<Socket> s = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        s->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        s->SetRecvCallback(MakeCallback(&Counter::Read, this));
        m_sockets.push_back(s);
    }

    void Read(Ptr<Socket> s)
    {
        while (s->Recv())
        {
            ++perSecond[static_cast<int>(Simulator::Now().GetSeconds())];
        }
    }

    uint32_t Total() const
    {
        uint32_t t = 0;
        for (const auto& [sec, n] : perSecond)
        {
            t += n;
        }
        return t;
    }

    std::vector<Ptr<Socket>> m_sockets;
};

/**
 * A multicast tree whose interior router FRA2 also hosts a receiver: FRA2 forwards every
 * datagram and delivers a copy to its own socket; SIN2 (interior, not a receiver) delivers
 * nothing; the leaves get every datagram once.
 */
class MulticastLocalCopyAtARouterTestCase : public TestCase
{
  public:
    MulticastLocalCopyAtARouterTestCase()
        : TestCase("multicast: a router that hosts a receiver forwards and keeps a copy")
    {
    }

  private:
    void DoRun() override
    {
        PlainNetwork p;
        const NetworkGraph& g = p.graph;
        uint32_t ams = g.IslandNode("AMS");
        uint32_t tyo = g.IslandNode("TYO");
        uint32_t sin = g.IslandNode("SIN");
        uint32_t fra2 = g.NodeByName("FRA2");
        uint32_t sin2 = g.NodeByName("SIN2");
        Ipv4Address group("225.1.2.3");
        auto tree = p.routes.Tree(ams, {tyo, sin});
        bool throughFra2 = false;
        for (const auto& h : tree)
        {
            throughFra2 = throughFra2 || h.from == fra2;
        }
        NS_TEST_ASSERT_MSG_EQ(throughFra2, true, "the AMS tree forwards at FRA2");
        auto devices = WanNetworkHelper::InstallMulticastTree(p.network, tree, ams, group,
                                                              {tyo, sin, fra2});
        NS_TEST_ASSERT_MSG_EQ(devices.size(), 1u, "an island sources on its one link");
        const uint16_t port = 7000;
        std::map<std::string, Counter> got;
        for (const char* n : {"TYO", "SIN", "FRA2", "SIN2"})
        {
            got[n].Attach(p.network.GetNode(g.NodeByName(n)), port);
        }
        uint64_t forwardedAtFra2 = 0;
        p.network.GetNode(fra2)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "MulticastForward",
            Callback<void, const Ipv4Header&, Ptr<const Packet>, uint32_t>(
                [&forwardedAtFra2](const Ipv4Header&, Ptr<const Packet>, uint32_t) {
                    ++forwardedAtFra2;
                }));
        Ptr<Socket> src = Socket::CreateSocket(p.network.GetNode(ams), UdpSocketFactory::GetTypeId());
        src->Bind();
        const uint32_t n = 50;
        Simulator::Schedule(Seconds(0.1), &SendEvery, src, group, port, MilliSeconds(2),
                            Seconds(0.1) + MilliSeconds(2 * n - 1), nullptr);
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(got["TYO"].Total(), n, "leaf TYO");
        NS_TEST_EXPECT_MSG_EQ(got["SIN"].Total(), n, "leaf SIN");
        NS_TEST_EXPECT_MSG_EQ(got["FRA2"].Total(), n, "the router's own receiver");
        NS_TEST_EXPECT_MSG_EQ(got["SIN2"].Total(), 0u, "a router that did not join");
        NS_TEST_EXPECT_MSG_EQ(forwardedAtFra2, n, "FRA2 forwarded each datagram once");
        Simulator::Destroy();
    }
};

/**
 * Routes cleared at run time stop the traffic (the source has no route, packets in flight are
 * dropped for want of one, nothing is delivered elsewhere) and reinstalled routes carry it
 * again.
 */
class ClearAndReinstallTestCase : public TestCase
{
  public:
    ClearAndReinstallTestCase()
        : TestCase("routes cleared and reinstalled during the run")
    {
    }

  private:
    void DoRun() override
    {
        PlainNetwork p;
        const NetworkGraph& g = p.graph;
        uint32_t ams = g.IslandNode("AMS");
        uint32_t lax = g.IslandNode("LAX");
        const uint16_t port = 7100;
        Counter got;
        got.Attach(p.network.GetNode(lax), port);
        uint32_t noRoute = 0;
        for (uint32_t node = 0; node < g.NodeCount(); ++node)
        {
            p.network.GetNode(node)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
                "Drop",
                Callback<void, const Ipv4Header&, Ptr<const Packet>,
                         Ipv4L3Protocol::DropReason, Ptr<Ipv4>, uint32_t>(
                    [&noRoute](const Ipv4Header&, Ptr<const Packet>, Ipv4L3Protocol::DropReason why,
                               Ptr<Ipv4>, uint32_t) {
                        noRoute += why == Ipv4L3Protocol::DROP_NO_ROUTE ? 1 : 0;
                    }));
        }
        Ptr<Socket> src = Socket::CreateSocket(p.network.GetNode(ams), UdpSocketFactory::GetTypeId());
        src->Bind();
        // AMS -> LAX takes 74 ms. Ten datagrams per second from 0 s to 2.9 s; the routes are
        // gone in [0.99 s, 1.99 s) and a datagram sent at 0.95 s is in flight at 0.99 s.
        uint32_t refused = 0;
        Simulator::Schedule(Seconds(0), &SendEvery, src, p.network.IslandAddress(lax), port,
                            MilliSeconds(100), Seconds(2.95), &refused);
        Simulator::Schedule(Seconds(0.95), [src, &p, port]() {
            src->SendTo(Create<Packet>(100), 0, InetSocketAddress(p.network.IslandAddress(
                                                     p.graph.IslandNode("LAX")), port));
        });
        const WanNetwork* net = &p.network;
        const RoutePlanner* routes = &p.routes;
        Simulator::Schedule(Seconds(0.99), [net]() { WanNetworkHelper::ClearRoutes(*net); });
        Simulator::Schedule(Seconds(1.99), [net, routes]() {
            WanNetworkHelper::InstallRoutes(*net, *routes);
        });
        Simulator::Stop(Seconds(4));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(got.perSecond[0], 10u, "before the clear");
        NS_TEST_EXPECT_MSG_EQ(got.perSecond[1], 0u, "while cleared");
        NS_TEST_EXPECT_MSG_EQ(got.perSecond[2], 10u, "after reinstalling");
        NS_TEST_EXPECT_MSG_EQ(got.Total(), 20u, "nothing else arrived");
        NS_TEST_EXPECT_MSG_EQ(refused, 10u, "no route at the source while cleared");
        NS_TEST_EXPECT_MSG_EQ(noRoute, 1u, "the datagram in flight was dropped on the way");
        NS_TEST_EXPECT_MSG_EQ(p.Table(ams)->GetNHostRoutes(), g.IslandCount() - 1,
                              "one route per other island after reinstalling");
        Simulator::Destroy();
    }
};

/**
 * PlannedRouting's host-route index follows every change of its routes: an interface taken
 * down drops exactly the routes through it (lookups and forwarding see it at once), other
 * routes stay, and routes added again are found again.
 */
class HostRoutesFollowInterfaceDownTestCase : public TestCase
{
  public:
    HostRoutesFollowInterfaceDownTestCase()
        : TestCase("host routes through an interface taken down are gone at once; re-added, found")
    {
    }

  private:
    void DoRun() override
    {
        PlainNetwork p;
        const NetworkGraph& g = p.graph;
        const uint32_t nyc4 = g.NodeByName("NYC4");
        Ptr<PlannedRouting> table = p.Table(nyc4);
        // Route every lookup once first, so that the index is built before the change.
        std::map<uint32_t, uint32_t> interfaceOf; // destination island -> output interface
        for (uint32_t i = 0; i < g.IslandCount(); ++i)
        {
            Ptr<Ipv4Route> r = table->LookupHostRoute(p.network.IslandAddress(i));
            NS_TEST_ASSERT_MSG_EQ(bool(r), true, "NYC4 -> " + g.Nodes()[i].name);
            interfaceOf[i] = static_cast<uint32_t>(
                p.network.GetNode(nyc4)->GetObject<Ipv4>()->GetInterfaceForDevice(
                    r->GetOutputDevice()));
        }
        const uint32_t lon = g.IslandNode("LON");
        const uint32_t down = interfaceOf[lon];
        std::size_t through = 0;
        for (const auto& [i, itf] : interfaceOf)
        {
            through += itf == down ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_LT(through, g.IslandCount(), "NYC4 uses more than one interface");
        const std::size_t before = table->GetNHostRoutes();
        p.network.GetNode(nyc4)->GetObject<Ipv4>()->SetDown(down);
        NS_TEST_EXPECT_MSG_EQ((table->GetNHostRoutes() <= before - through), true,
                              "the routes through the interface are removed");
        for (const auto& [i, itf] : interfaceOf)
        {
            Ptr<Ipv4Route> r = table->LookupHostRoute(p.network.IslandAddress(i));
            NS_TEST_EXPECT_MSG_EQ(bool(r), (itf != down), "NYC4 -> " + g.Nodes()[i].name);
        }
        Ipv4Header h;
        h.SetDestination(p.network.IslandAddress(lon));
        Socket::SocketErrno err;
        NS_TEST_EXPECT_MSG_EQ(bool(table->RouteOutput(Create<Packet>(10), h, nullptr, err)), false,
                              "no route out to LON");
        p.network.GetNode(nyc4)->GetObject<Ipv4>()->SetUp(down);
        WanNetworkHelper::InstallRoutes(p.network, p.routes);
        for (const auto& [i, itf] : interfaceOf)
        {
            NS_TEST_EXPECT_MSG_EQ(bool(table->LookupHostRoute(p.network.IslandAddress(i))), true,
                                  "again NYC4 -> " + g.Nodes()[i].name);
        }
        // InstallRoutes left the index built; a route replaced afterwards is what lookups see.
        uint32_t other = 0;
        for (const auto& [i, itf] : interfaceOf)
        {
            other = itf != down ? itf : other;
        }
        table->IndexHostRoutes();
        table->AddHostRoute(p.network.IslandAddress(lon), other, Ipv4Address("10.255.255.254"));
        Ptr<Ipv4Route> moved = table->LookupHostRoute(p.network.IslandAddress(lon));
        NS_TEST_ASSERT_MSG_EQ(bool(moved), true, "replaced route to LON");
        NS_TEST_EXPECT_MSG_EQ(moved->GetGateway(), Ipv4Address("10.255.255.254"),
                              "the replaced route to LON is the one looked up");
        Simulator::Destroy();
    }
};

/**
 * ReceiveDispatch (installed by WanNetworkHelper on every node): each frame is handed to IPv4
 * exactly once on every hop (one Ipv4L3Protocol Rx per hop, each datagram delivered once),
 * every non-loopback device of every node is dispatched by the one handler, and a device
 * given an IPv4 interface after the network was built (ns-3's own per-device handlers) still
 * receives, once.
 */
class ReceiveDispatchTestCase : public TestCase
{
  public:
    ReceiveDispatchTestCase()
        : TestCase("one receive handler per node: every frame up to IPv4 exactly once")
    {
    }

  private:
    void DoRun() override
    {
        PlainNetwork p;
        const NetworkGraph& g = p.graph;
        for (uint32_t n = 0; n < g.NodeCount(); ++n)
        {
            Ptr<Node> node = p.network.GetNode(n);
            Ptr<ReceiveDispatch> d = node->GetObject<ReceiveDispatch>();
            NS_TEST_ASSERT_MSG_EQ(bool(d), true, g.Nodes()[n].name + ": no dispatcher");
            NS_TEST_EXPECT_MSG_EQ(d->GetNDevices(),
                                  node->GetObject<Ipv4>()->GetNInterfaces() - 1,
                                  g.Nodes()[n].name + ": every device but the loopback");
            NS_TEST_EXPECT_MSG_EQ(bool(ReceiveDispatch::Install(node)), false, "installed twice");
        }
        // A late device: a new host joined to the SEO island by its own link, after the build.
        Ptr<Node> host = CreateObject<Node>();
        InternetStackHelper stack;
        PlannedRoutingHelper planned;
        stack.SetRoutingHelper(planned);
        stack.SetIpv6StackInstall(false);
        stack.Install(host);
        const uint32_t seo = g.IslandNode("SEO");
        const uint32_t lax = g.IslandNode("LAX");
        PointToPointHelper link;
        NetDeviceContainer late = link.Install(host, p.network.GetNode(seo));
        Ipv4AddressHelper addresses("192.168.7.0", "255.255.255.252");
        Ipv4InterfaceContainer lateIfs = addresses.Assign(late);
        PlannedRoutingHelper::Get(host->GetObject<Ipv4>())
            ->AddHostRoute(lateIfs.GetAddress(1), lateIfs.Get(0).second, lateIfs.GetAddress(1));

        uint64_t rx = 0;
        for (uint32_t n = 0; n < g.NodeCount(); ++n)
        {
            p.network.GetNode(n)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
                "Rx",
                Callback<void, Ptr<const Packet>, Ptr<Ipv4>, uint32_t>(
                    [&rx](Ptr<const Packet>, Ptr<Ipv4>, uint32_t) { ++rx; }));
        }
        const uint16_t port = 7200;
        Counter atLax;
        atLax.Attach(p.network.GetNode(lax), port);
        Counter atSeo;
        atSeo.Attach(p.network.GetNode(seo), port);
        Ptr<Socket> fromSeo =
            Socket::CreateSocket(p.network.GetNode(seo), UdpSocketFactory::GetTypeId());
        fromSeo->Bind();
        Ptr<Socket> fromHost = Socket::CreateSocket(host, UdpSocketFactory::GetTypeId());
        fromHost->Bind();
        const uint32_t datagrams = 10;
        for (uint32_t i = 0; i < datagrams; ++i)
        {
            Simulator::Schedule(MilliSeconds(10 * i), [&]() {
                fromSeo->SendTo(Create<Packet>(500), 0,
                                InetSocketAddress(p.network.IslandAddress(lax), port));
                fromHost->SendTo(Create<Packet>(500), 0,
                                 InetSocketAddress(lateIfs.GetAddress(1), port));
            });
        }
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(atLax.Total(), datagrams, "SEO -> LAX: each datagram once");
        NS_TEST_EXPECT_MSG_EQ(atSeo.Total(), datagrams, "late link -> SEO: each datagram once");
        // Rx counts every IPv4 receive on the network's nodes: one per hop of the planned
        // path SEO -> LAX, and one at SEO from the late link.
        const uint64_t hops = p.routes.ShortestPath(seo, lax).size();
        NS_TEST_ASSERT_MSG_GT(hops, 1u, "a path SEO -> LAX");
        NS_TEST_EXPECT_MSG_EQ(rx, datagrams * hops + datagrams,
                              "one IPv4 receive per datagram and hop");
        Simulator::Destroy();
    }
};

/**
 * IndexedIpv4L3Protocol (installed by WanNetworkHelper on every node): every node's IPv4 is
 * one, and its device -> interface lookup answers as ns-3's own map does for every device of
 * the node (the loopback included), for another node's device (-1) and for a device given an
 * interface after the network was built.
 */
class IndexedIpv4TestCase : public TestCase
{
  public:
    IndexedIpv4TestCase()
        : TestCase("IPv4's device -> interface lookup by index answers as ns-3's map")
    {
    }

  private:
    void DoRun() override
    {
        PlainNetwork p;
        const NetworkGraph& g = p.graph;
        uint32_t checked = 0;
        for (uint32_t n = 0; n < g.NodeCount(); ++n)
        {
            Ptr<Node> node = p.network.GetNode(n);
            Ptr<Ipv4L3Protocol> ipv4 = node->GetObject<Ipv4L3Protocol>();
            NS_TEST_ASSERT_MSG_EQ(ipv4->GetInstanceTypeId(), IndexedIpv4L3Protocol::GetTypeId(),
                                  g.Nodes()[n].name);
            for (uint32_t d = 0; d < node->GetNDevices(); ++d)
            {
                Ptr<NetDevice> dev = node->GetDevice(d);
                int32_t byMap = ipv4->Ipv4L3Protocol::GetInterfaceForDevice(dev);
                NS_TEST_EXPECT_MSG_EQ(ipv4->GetInterfaceForDevice(dev), byMap,
                                      g.Nodes()[n].name << " device " << d);
                NS_TEST_EXPECT_MSG_GT(byMap + 1, 0, "every device has an interface");
                ++checked;
            }
            Ptr<NetDevice> other = p.network.GetNode((n + 1) % g.NodeCount())->GetDevice(1);
            NS_TEST_EXPECT_MSG_EQ(ipv4->GetInterfaceForDevice(other), -1, "another node's");
        }
        NS_TEST_EXPECT_MSG_GT(checked, 2 * g.NodeCount(), "devices checked");
        // A late link to the SEO island: its new interface is found by index too.
        Ptr<Node> host = CreateObject<Node>();
        InternetStackHelper stack;
        stack.SetIpv6StackInstall(false);
        stack.Install(host);
        Ptr<Node> seo = p.network.GetNode(g.IslandNode("SEO"));
        PointToPointHelper link;
        NetDeviceContainer late = link.Install(host, seo);
        Ipv4AddressHelper addresses("192.168.7.0", "255.255.255.252");
        Ipv4InterfaceContainer lateIfs = addresses.Assign(late);
        Ptr<Ipv4L3Protocol> seoIpv4 = seo->GetObject<Ipv4L3Protocol>();
        NS_TEST_EXPECT_MSG_EQ(seoIpv4->GetInterfaceForDevice(late.Get(1)),
                              static_cast<int32_t>(lateIfs.Get(1).second), "late interface");
        Simulator::Destroy();
    }
};

/**
 * The same rules on a synthetic network (14 cities, 1-3 devices each, intra-city links between
 * a city's devices, public paths between every pair), all in one clique: model bytes on every
 * link direction equal the planned copies; some intra-city private links carry model bytes;
 * and no access-region node transits: everything an island, a metro node or an internet node
 * forwards comes from or goes to that city's island (checked on the IPv4 headers).
 */
class SyntheticFabricTestCase : public TestCase
{
  public:
    explicit SyntheticFabricTestCase(ExchangePattern mode)
        : TestCase("synthetic 14 cities: planned bytes per link, intra-city links used, no "
                   "access-region transit: " +
                   PatternName(mode)),
          m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        SyntheticTopologyOptions o;
        o.cities = 14;
        o.seed = 3;
        o.maxDevicesPerCity = 3;
        Topology topo = SyntheticTopology::Generate(o);
        const uint64_t model = 20 * 8192;
        ScenarioHelper s;
        s.SetTopology(topo);
        s.SetGraphOptions(QuietOptions());
        s.SetSchedule(BaselineSchedules::AllReduce(topo.CityCodes()));
        s.SetCapabilities(NetworkCapabilities::ForPattern(m_mode));
        s.SetIslandAttribute("ModelBytes", UintegerValue(model));
        s.SetIslandAttribute("ComputeTime", TimeValue(MilliSeconds(1)));
        s.SetRounds(1);
        s.Build();
        const NetworkGraph& g = s.GetGraph();
        const WanNetwork& net = s.GetNetwork();
        std::map<Ipv4Address, uint32_t> nodeOf;
        for (uint32_t n = 0; n < g.NodeCount(); ++n)
        {
            for (const Ipv4Address& a : net.NodeAddresses(n))
            {
                nodeOf[a] = n;
            }
        }
        // The neighbour behind each (node, interface).
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> peerOf;
        for (uint32_t e = 0; e < g.EdgeCount(); ++e)
        {
            const GraphEdge& edge = g.Edges()[e];
            peerOf[{edge.a, net.InterfaceOn(e, edge.a)}] = edge.b;
            peerOf[{edge.b, net.InterfaceOn(e, edge.b)}] = edge.a;
        }
        // Packets forwarded at access-region nodes that neither come from the node's own
        // island nor go to it: unicast by the header's addresses; multicast (the trace gives
        // the output interface) by the source address or the next node (the own island or its
        // access region).
        uint64_t forwardedAtAccess = 0;
        uint64_t transit = 0;
        std::string firstTransit;
        for (uint32_t n = 0; n < g.NodeCount(); ++n)
        {
            NodeKind k = g.Nodes()[n].kind;
            if (k != NodeKind::ISLAND && k != NodeKind::METRO && k != NodeKind::INTERNET)
            {
                continue;
            }
            const int64_t island = g.IslandOf(n);
            Ptr<Ipv4L3Protocol> ip = net.GetNode(n)->GetObject<Ipv4L3Protocol>();
            auto check = [&, n, island](const Ipv4Header& h, Ptr<const Packet>, uint32_t out) {
                ++forwardedAtAccess;
                auto ownNode = [&](uint32_t m) {
                    NodeKind km = g.Nodes()[m].kind;
                    return g.IslandOf(m) == island &&
                           (km == NodeKind::ISLAND || km == NodeKind::METRO ||
                            km == NodeKind::INTERNET);
                };
                auto src = nodeOf.find(h.GetSource());
                bool own = src != nodeOf.end() && static_cast<int64_t>(src->second) == island;
                if (h.GetDestination().IsMulticast())
                {
                    auto next = peerOf.find({n, out});
                    own = own || (next != peerOf.end() && ownNode(next->second));
                }
                else
                {
                    auto dst = nodeOf.find(h.GetDestination());
                    own = own ||
                          (dst != nodeOf.end() && static_cast<int64_t>(dst->second) == island);
                }
                if (!own)
                {
                    if (transit++ == 0)
                    {
                        std::ostringstream os;
                        os << g.Nodes()[n].name << " forwarded " << h.GetSource() << " -> "
                           << h.GetDestination();
                        firstTransit = os.str();
                    }
                }
            };
            for (const char* trace : {"UnicastForward", "MulticastForward"})
            {
                ip->TraceConnectWithoutContext(
                    trace,
                    Callback<void, const Ipv4Header&, Ptr<const Packet>, uint32_t>(check));
            }
        }
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        NS_TEST_EXPECT_MSG_GT(forwardedAtAccess, 0u, "metro nodes forward their islands' traffic");
        NS_TEST_EXPECT_MSG_EQ(transit, 0u, firstTransit);

        std::map<uint32_t, double> copies = PlannedCopies(s, m_mode);
        uint32_t intraCityUsed = 0;
        for (uint32_t e = 0; e < g.EdgeCount(); ++e)
        {
            const GraphEdge& edge = g.Edges()[e];
            for (uint32_t from : {edge.a, edge.b})
            {
                uint64_t expected = static_cast<uint64_t>(copies[g.Resource(e, from)]) * model;
                uint64_t got = s.GetLinkMonitor().Get(e, from).dataPayloadBytes;
                NS_TEST_EXPECT_MSG_EQ(got, expected,
                                      g.EdgeName(e) << " from " << g.Nodes()[from].name);
                if (edge.kind == EdgeKind::PRIVATE &&
                    g.Nodes()[edge.a].city == g.Nodes()[edge.b].city && got > 0)
                {
                    ++intraCityUsed;
                }
            }
        }
        NS_TEST_EXPECT_MSG_GT(intraCityUsed, 0u, "no intra-city private link carried a model");
        Simulator::Destroy();
    }

    ExchangePattern m_mode;
};

/**
 * The tcp transport on the nine cities: every island's TCP connections (source = its one
 * address) reach every peer and the replies come back, so every round completes and every
 * island receives every peer's model exactly once per round. (With multi-homed islands, a
 * connection's source was the address of whichever interface the route used, and replies to
 * addresses without a route never arrived: the run hung.)
 */
class TcpTransportOnNineCitiesTestCase : public TestCase
{
  public:
    TcpTransportOnNineCitiesTestCase(const std::string& schedule, uint64_t model)
        : TestCase("tcp transport completes on nine cities: " + schedule),
          m_schedule(schedule),
          m_model(model)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t rounds = 2;
        ScenarioHelper s;
        SetUpNineCity(s, ExchangePattern::ALL_TO_ALL, m_model, m_schedule);
        s.SetTransport("tcp");
        s.SetRounds(rounds);
        s.SetMaxSimTime(Seconds(120)); // a hang ends here as an incomplete run
        s.Build();
        const Schedule& sched = s.GetSchedule();
        std::map<std::string, uint32_t> received;
        std::map<std::string, uint32_t> expected;
        for (uint32_t r = 0; r < rounds; ++r)
        {
            for (const auto& clique : sched.RoundAt(r % sched.Period()).cliques)
            {
                for (const std::string& city : clique)
                {
                    expected[city] += static_cast<uint32_t>(clique.size() - 1);
                }
            }
        }
        for (const std::string& city : s.GetIslandCities())
        {
            s.GetIsland(city)->TraceConnectWithoutContext(
                "ModelReceived",
                Callback<void, uint32_t, uint32_t>(
                    [&received, city](uint32_t, uint32_t) { ++received[city]; }));
        }
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        NS_TEST_EXPECT_MSG_EQ(r.transport, "tcp", "the run used another transport");
        NS_TEST_EXPECT_MSG_EQ(expected.size(), 9u, "every city is an island of the schedule");
        for (const auto& [city, n] : expected)
        {
            NS_TEST_EXPECT_MSG_EQ(received[city], n, city << ": models received");
        }
        Simulator::Destroy();
    }

    std::string m_schedule;
    uint64_t m_model;
};

/// A PPP frame built byte by byte: PPP protocol \p ppp, an IPv4 header of \p ihlWords 32-bit
/// words (options zero) with \p flagsOffset (flags and fragment offset) and \p protocol, the
/// transport bytes \p l4, then \p payload bytes (ns-3's zero area, as the module's segments).
Ptr<Packet>
Frame(uint8_t protocol,
      uint32_t ihlWords,
      uint16_t flagsOffset,
      const std::vector<uint8_t>& l4,
      uint32_t payload,
      uint16_t ppp = 0x0021)
{
    const uint32_t ipBytes = 4 * ihlWords + static_cast<uint32_t>(l4.size()) + payload;
    std::vector<uint8_t> b = {uint8_t(ppp >> 8), uint8_t(ppp & 0xff)};
    std::vector<uint8_t> ip(4 * ihlWords, 0);
    ip[0] = uint8_t(0x40 | ihlWords);
    ip[2] = uint8_t(ipBytes >> 8);
    ip[3] = uint8_t(ipBytes & 0xff);
    ip[6] = uint8_t(flagsOffset >> 8);
    ip[7] = uint8_t(flagsOffset & 0xff);
    ip[8] = 64;
    ip[9] = protocol;
    b.insert(b.end(), ip.begin(), ip.end());
    b.insert(b.end(), l4.begin(), l4.end());
    Ptr<Packet> frame = Create<Packet>(b.data(), static_cast<uint32_t>(b.size()));
    frame->AddAtEnd(Create<Packet>(payload));
    return frame;
}

/// UDP header and an island header of \p type (36 bytes; only the type is read).
std::vector<uint8_t>
UdpIsland(uint8_t type)
{
    std::vector<uint8_t> l4(8 + IslandHeader::SERIALIZED_SIZE, 0);
    l4[8] = type;
    return l4;
}

/// A TCP header of \p words 32-bit words.
std::vector<uint8_t>
Tcp(uint32_t words)
{
    std::vector<uint8_t> l4(4 * words, 0);
    l4[12] = uint8_t(words << 4);
    return l4;
}

/// LinkMonitor::ModelPayload on hand-built frames: model segments counted with their payload
/// (IPv4 options and TCP options skipped by their lengths), fragments, acks, other island
/// types and other protocols not; and on a frame serialised by ns-3's own headers.
class LinkMonitorParsesFramesTestCase : public TestCase
{
  public:
    LinkMonitorParsesFramesTestCase()
        : TestCase("LinkMonitor reads model payload from hand-built frames")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            std::string what;
            Ptr<Packet> frame;
            bool model;
            uint32_t payload;
        };
        const uint8_t udp = 17;
        const uint8_t tcp = 6;
        const std::vector<Case> cases = {
            {"UDP DATA", Frame(udp, 5, 0, UdpIsland(IslandHeader::DATA), 1000), true, 1000},
            {"UDP DATA, 64 KB", Frame(udp, 5, 0, UdpIsland(IslandHeader::DATA), 65000), true,
             65000},
            {"UDP DF flag", Frame(udp, 5, 0x4000, UdpIsland(IslandHeader::DATA), 10), true, 10},
            {"UDP CONTRIBUTION", Frame(udp, 5, 0, UdpIsland(IslandHeader::CONTRIBUTION), 77),
             true, 77},
            {"UDP RESULT", Frame(udp, 5, 0, UdpIsland(IslandHeader::RESULT), 1), true, 1},
            {"UDP RESULT, no payload", Frame(udp, 5, 0, UdpIsland(IslandHeader::RESULT), 0),
             true, 0},
            {"UDP ACK", Frame(udp, 5, 0, UdpIsland(IslandHeader::ACK), 16), false, 0},
            {"UDP POLL", Frame(udp, 5, 0, UdpIsland(IslandHeader::POLL), 0), false, 0},
            {"UDP RESEND", Frame(udp, 5, 0, UdpIsland(IslandHeader::RESEND), 8), false, 0},
            {"UDP DATA, IPv4 options", Frame(udp, 7, 0, UdpIsland(IslandHeader::DATA), 500),
             true, 500},
            {"UDP DATA, IPv4 options, ACK type",
             Frame(udp, 15, 0, UdpIsland(IslandHeader::ACK), 500), false, 0},
            {"first fragment (MF)", Frame(udp, 5, 0x2000, UdpIsland(IslandHeader::DATA), 900),
             false, 0},
            {"later fragment (offset)",
             Frame(udp, 5, 0x00b9, UdpIsland(IslandHeader::DATA), 900), false, 0},
            {"UDP shorter than the island header",
             Frame(udp, 5, 0, std::vector<uint8_t>(8 + 4, IslandHeader::DATA), 0), false, 0},
            {"TCP segment", Frame(tcp, 5, 0, Tcp(5), 700), true, 700},
            {"TCP segment, options", Frame(tcp, 5, 0, Tcp(8), 1448), true, 1448},
            {"TCP segment, IPv4 and TCP options", Frame(tcp, 6, 0, Tcp(10), 3), true, 3},
            {"TCP ack", Frame(tcp, 5, 0, Tcp(8), 0), false, 0},
            {"TCP fragment", Frame(tcp, 5, 0x2000, Tcp(5), 700), false, 0},
            {"ICMP", Frame(1, 5, 0, UdpIsland(IslandHeader::DATA), 100), false, 0},
            {"IPv6 PPP protocol",
             Frame(udp, 5, 0, UdpIsland(IslandHeader::DATA), 100, 0x0057), false, 0},
            {"runt", Create<Packet>(12), false, 0},
        };
        for (const Case& c : cases)
        {
            uint32_t payload = 123456;
            bool model = LinkMonitor::ModelPayload(*c.frame, payload);
            NS_TEST_EXPECT_MSG_EQ(model, c.model, c.what);
            NS_TEST_EXPECT_MSG_EQ(payload, c.model ? c.payload : 123456u, c.what);
        }
        // The same as ns-3's headers serialise it (the scenario test below compares whole runs
        // against deserialising them).
        Ptr<Packet> p = Create<Packet>(4321);
        IslandHeader island;
        island.type = IslandHeader::CONTRIBUTION;
        p->AddHeader(island);
        UdpHeader u;
        u.SetSourcePort(9);
        u.SetDestinationPort(9);
        p->AddHeader(u);
        Ipv4Header ip;
        ip.SetProtocol(udp);
        ip.SetPayloadSize(p->GetSize());
        ip.SetTtl(64);
        p->AddHeader(ip);
        PppHeader ppp;
        ppp.SetProtocol(0x0021);
        p->AddHeader(ppp);
        uint32_t payload = 0;
        NS_TEST_EXPECT_MSG_EQ(LinkMonitor::ModelPayload(*p, payload), true, "ns-3 headers");
        NS_TEST_EXPECT_MSG_EQ(payload, 4321u, "ns-3 headers");
    }
};

class NetworkFabricTestSuite : public TestSuite
{
  public:
    NetworkFabricTestSuite()
        : TestSuite("intelligent-network-fabric", UNIT)
    {
        for (ExchangePattern mode : {ExchangePattern::ALL_TO_ALL,
                                     ExchangePattern::MULTICAST,
                                     ExchangePattern::AGGREGATION})
        {
            AddTestCase(new IslandsCarryOnlyTheirOwnBytesTestCase(mode), TestCase::QUICK);
            AddTestCase(new PacketsFollowThePlannedPathsTestCase(mode), TestCase::QUICK);
            AddTestCase(new LinkMonitorMatchesHeaderParsingTestCase(mode), TestCase::QUICK);
        }
        AddTestCase(new SyntheticFabricTestCase(ExchangePattern::ALL_TO_ALL), TestCase::QUICK);
        AddTestCase(new SyntheticFabricTestCase(ExchangePattern::MULTICAST), TestCase::QUICK);
        AddTestCase(new EveryAddressIsRoutableTestCase, TestCase::QUICK);
        AddTestCase(new LinkMonitorParsesFramesTestCase, TestCase::QUICK);
        AddTestCase(new TcpFromEverySenderTestCase, TestCase::QUICK);
        AddTestCase(new MulticastLocalCopyAtARouterTestCase, TestCase::QUICK);
        AddTestCase(new ClearAndReinstallTestCase, TestCase::QUICK);
        AddTestCase(new ReceiveDispatchTestCase, TestCase::QUICK);
        AddTestCase(new IndexedIpv4TestCase, TestCase::QUICK);
        AddTestCase(new HostRoutesFollowInterfaceDownTestCase, TestCase::QUICK);
        AddTestCase(new TcpTransportOnNineCitiesTestCase("3x3-rotating", 1000000), TestCase::QUICK);
        AddTestCase(new TcpTransportOnNineCitiesTestCase("all-in-one", 300000), TestCase::QUICK);
    }
};

static NetworkFabricTestSuite g_networkFabricTestSuite;

} // namespace
