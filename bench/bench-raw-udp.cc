/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Benchmark baseline (not a test): raw ns-3 UDP forwarding of the packets of a schedule's
// rounds, on the network nine-city-training builds, without any of the module's applications.
//
// The network is the one ScenarioHelper builds (WanNetworkHelper, same MTU, 2000-packet
// DropTail queues, the RoutePlanner's static host routes, and for multicast / aggregation the
// same source trees installed by WanNetworkHelper::InstallMulticastTree). Each stream of a
// round (TrafficPlanner::CliqueFlows, the streams the module would run) becomes a minimal UDP
// sender that emits ceil(ModelBytes / SegmentSize) datagrams of the size ours sends (segment
// payload + the 28-byte island header as opaque UDP payload), paced at the stream's max-min
// rate (MaxMinAllocator over the same usages the RateController uses, held for the round):
//  - unicast: one datagram stream per ordered member pair, to the peer island;
//  - multicast: one stream per member to its own group, one copy per root branch (as
//    MulticastSender does), replicated by the routers' static multicast routes;
//  - aggregation: the reduction tree ours runs (TrafficPlanner::Exchange for --aggregation,
//    in-line tree by default, or one point): one stream per member to the FPGA device its
//    contribution reaches first (port 9100), one partial-sum stream from every other FPGA to its
//    parent, and one result stream from the root FPGA down its multicast tree.
// Receivers are plain UDP sockets that drain and drop (islands on 9000, FPGA nodes on 9100).
// No acks, no retransmission, no pacing feedback, no LinkMonitor (unless --monitor): packet
// hops are counted with one PhyTxBegin counter per device.
//
//   ./bench-raw-udp --mode=unicast --schedule=3x3-rotating --rounds=2 --modelBytes=100e6
//
// Prints key=value lines (raw.packet_hops, raw.cpu_run_s, ...).

#include "bench-util.h"

#include "ns3/core-module.h"
#include "ns3/inet-socket-address.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/queue-size.h"
#include "ns3/udp-socket-factory.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <tuple>

using namespace ns3;

namespace
{

uint64_t g_hops = 0;     ///< PhyTxBegin on any device.
uint64_t g_received = 0; ///< Datagrams delivered to a sink socket.
uint64_t g_sent = 0;     ///< Datagrams handed to a socket by a sender.

void
CountHop(Ptr<const Packet>)
{
    ++g_hops;
}

void
Drain(Ptr<Socket> socket)
{
    while (socket->Recv())
    {
        ++g_received;
    }
}

/// Sends \p packets datagrams, each as one copy per destination socket, paced at a rate.
class RawUdpSender : public Application
{
  public:
    struct Destination
    {
        Ipv4Address address;
        uint16_t port;
        int32_t device; ///< Device index to bind to (multicast root branch), -1: none.
    };

    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::BenchRawUdpSender")
                                .SetParent<Application>()
                                .SetGroupName("IntelligentNetworkBench");
        return tid;
    }

    void Configure(const std::vector<Destination>& destinations,
                   uint64_t packets,
                   uint32_t payload,
                   uint32_t lastPayload,
                   double rateBps)
    {
        m_destinations = destinations;
        m_packets = packets;
        m_payload = payload;
        m_lastPayload = lastPayload;
        m_rateBps = rateBps;
    }

    /// Creates and connects the sockets (after AddApplication): set-up, so that the
    /// simulation phase measures forwarding, not the creation of one socket per stream (at
    /// 64 islands a grid round has ~900 streams of a few segments each).
    void CreateSockets()
    {
        for (const auto& d : m_destinations)
        {
            Ptr<Socket> s = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
            NS_ABORT_MSG_IF(s->Bind() != 0, "cannot bind");
            if (d.device >= 0)
            {
                s->BindToNetDevice(GetNode()->GetDevice(d.device));
            }
            s->Connect(InetSocketAddress(d.address, d.port));
            m_sockets.push_back(s);
        }
    }

  private:
    void StartApplication() override
    {
        if (m_sockets.empty())
        {
            CreateSockets();
        }
        SendOne();
    }

    void StopApplication() override
    {
        m_event.Cancel();
    }

    void SendOne()
    {
        uint32_t size = m_sent + 1 == m_packets ? m_lastPayload : m_payload;
        for (auto& s : m_sockets)
        {
            // Same UDP payload as ours: segment payload + the island header's 28 bytes.
            s->Send(Create<Packet>(size + WireFormat::kIslandHeaderBytes));
            ++g_sent;
        }
        if (++m_sent < m_packets)
        {
            double gap = static_cast<double>(WireFormat::WireBytes(size)) * 8.0 / m_rateBps;
            m_event = Simulator::Schedule(Seconds(gap), &RawUdpSender::SendOne, this);
        }
    }

    std::vector<Destination> m_destinations;
    std::vector<Ptr<Socket>> m_sockets;
    uint64_t m_packets = 0;
    uint64_t m_sent = 0;
    uint32_t m_payload = 0;
    uint32_t m_lastPayload = 0;
    double m_rateBps = 0;
    EventId m_event;
};

} // namespace

int
main(int argc, char* argv[])
{
    double cpu0 = bench::CpuSeconds();
    bench::Inputs in("bench-raw-udp");
    in.options.Add("mtu");
    in.options.Add("slotBytes");
    in.options.Add("monitor");
    in.options.Add("channel");
    in.options.Parse(argc, argv);
    const bool monitor = in.options.GetFlag("monitor");
    const auto mtu = static_cast<uint32_t>(in.options.GetInteger("mtu"));

    std::unique_ptr<NetworkGraph> graph;
    std::unique_ptr<RoutePlanner> routes;
    std::unique_ptr<TrafficPlanner> traffic;
    WanNetwork network;
    LinkMonitor linkMonitor;
    try
    {
        in.Load();
        graph = std::make_unique<NetworkGraph>(
            NetworkGraph::FromTopology(in.topology, in.graphOptions));
        in.sched.Validate(graph->IslandCities());
        routes = std::make_unique<RoutePlanner>(*graph);
        traffic = std::make_unique<TrafficPlanner>(*routes, in.caps);
    }
    catch (const std::exception& e)
    {
        return in.options.Fail(e);
    }

    // The network exactly as ScenarioHelper::Build makes it.
    WanNetworkHelper wan;
    wan.SetChannelType(WanNetworkHelper::ChannelTypeOf(in.options.GetText("channel")));
    wan.SetDeviceAttribute("Mtu", UintegerValue(mtu));
    wan.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("2000p")));
    network = wan.Install(*graph);
    WanNetworkHelper::InstallRoutes(network, *routes);

    const uint16_t islandPort = WireFormat::kIslandPort;
    const uint16_t fpgaPort = WireFormat::kAggregationPort;
    auto sink = [](Ptr<Node> node, uint16_t port) {
        Ptr<Socket> s = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        NS_ABORT_MSG_IF(s->Bind(InetSocketAddress(Ipv4Address::GetAny(), port)) != 0, "bind");
        s->SetRecvCallback(MakeCallback(&Drain));
        return s;
    };
    std::vector<Ptr<Socket>> sinks;
    for (const auto& city : in.sched.Cities())
    {
        sinks.push_back(sink(network.GetNode(graph->IslandNode(city)), islandPort));
    }

    const uint32_t segmentSize = in.segmentSize;
    const uint64_t segments =
        static_cast<uint64_t>(std::ceil(in.modelBytes / static_cast<double>(segmentSize)));
    const auto lastPayload =
        static_cast<uint32_t>(static_cast<uint64_t>(in.modelBytes) - (segments - 1) * segmentSize);
    const double modelWireBits =
        8.0 * static_cast<double>((segments - 1) * WireFormat::WireBytes(segmentSize) +
                                  WireFormat::WireBytes(lastPayload));
    const std::vector<double> capacities = traffic->Capacities();

    std::map<std::tuple<std::size_t, std::size_t, uint32_t>, std::pair<Ipv4Address, std::vector<uint32_t>>>
        trees; // (period round, clique, root) -> group, root devices
    std::vector<uint32_t> fpgaNodes;
    uint32_t nextGroup = 0;
    auto treeOf = [&](std::size_t p, std::size_t c, uint32_t root, const RoutePlanner::Path& down) {
        auto key = std::make_tuple(p, c, root);
        auto it = trees.find(key);
        if (it == trees.end())
        {
            Ipv4Address group((227u << 24) | ++nextGroup);
            auto devices = WanNetworkHelper::InstallMulticastTree(network, down, root, group);
            it = trees.emplace(key, std::make_pair(group, devices)).first;
        }
        return it->second;
    };

    uint64_t streams = 0;
    double start = 0;
    for (uint32_t r = 0; r < in.rounds; ++r)
    {
        std::size_t p = r % in.sched.Period();
        const auto& cliques = in.sched.RoundAt(r).cliques;
        std::vector<TrafficFlow> flows;
        std::vector<std::size_t> cliqueOf;
        std::vector<CliqueExchange> exchanges(cliques.size()); // aggregation: the tree
        for (std::size_t c = 0; c < cliques.size(); ++c)
        {
            if (cliques[c].size() < 2)
            {
                continue;
            }
            std::vector<uint32_t> members;
            for (const auto& city : cliques[c])
            {
                members.push_back(graph->IslandNode(city));
            }
            std::sort(members.begin(), members.end());
            std::vector<TrafficFlow> cliqueFlows;
            if (in.caps.RichestPattern() == ExchangePattern::AGGREGATION)
            {
                // The reduction tree ours runs (the design of --aggregation) and its one flow,
                // whose usage the RateController paces at.
                exchanges[c] = traffic->Exchange(members, ExchangePattern::AGGREGATION);
                NS_ABORT_MSG_IF(exchanges[c].aggregation.empty() || exchanges[c].phases.empty(),
                                "aggregation: no reduction tree");
                cliqueFlows = exchanges[c].phases.front();
            }
            else
            {
                cliqueFlows = traffic->CliqueFlows(members);
            }
            for (auto& f : cliqueFlows)
            {
                flows.push_back(std::move(f));
                cliqueOf.push_back(c);
            }
        }
        std::vector<FlowUsage> usages;
        for (const auto& f : flows)
        {
            usages.push_back(f.usage);
        }
        std::vector<double> rates = MaxMinAllocator::Allocate(capacities, usages);
        double longest = 0;
        auto add = [&](uint32_t node, const std::vector<RawUdpSender::Destination>& dests,
                       double rate, double fraction = 1.0) {
            // A stream carrying a share of the model (ring chunks, tree halves) sends that
            // share of the segments, full ones.
            uint64_t n = fraction >= 1.0
                             ? segments
                             : std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(
                                                         fraction * static_cast<double>(segments))));
            uint32_t last = fraction >= 1.0 ? lastPayload : segmentSize;
            Ptr<RawUdpSender> app = CreateObject<RawUdpSender>();
            app->Configure(dests, n, segmentSize, last, rate);
            network.GetNode(node)->AddApplication(app);
            app->CreateSockets();
            app->SetStartTime(Seconds(start));
            longest = std::max(longest, modelWireBits * std::min(1.0, fraction) / rate);
            ++streams;
        };
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            const TrafficFlow& f = flows[i];
            switch (f.kind)
            {
            case ExchangePattern::ALL_TO_ALL:
                add(f.sources[0], {{network.IslandAddress(f.receivers[0]), islandPort, -1}},
                    rates[i]);
                break;
            case ExchangePattern::MULTICAST: {
                auto [group, devices] = treeOf(p, cliqueOf[i], f.sources[0], f.down);
                std::vector<RawUdpSender::Destination> dests;
                for (uint32_t d : devices)
                {
                    dests.push_back({group, islandPort, static_cast<int32_t>(d)});
                }
                add(f.sources[0], dests, rates[i]);
                break;
            }
            case ExchangePattern::AGGREGATION: {
                // The reduction tree ours runs (TrafficPlanner::Exchange, the design of
                // --aggregation: in-line tree or one point): every member sends to the FPGA
                // its contribution reaches first, every FPGA but the root one partial sum per
                // segment to its parent, and the root the result down its multicast tree.
                // Every stream at the clique's one rate (ours paces them all at it).
                const CliqueExchange& x = exchanges[cliqueOf[i]];
                for (const AggregationNode& n : x.aggregation)
                {
                    if (std::find(fpgaNodes.begin(), fpgaNodes.end(), n.device) ==
                        fpgaNodes.end())
                    {
                        fpgaNodes.push_back(n.device);
                        sinks.push_back(sink(network.GetNode(n.device), fpgaPort));
                        WanNetworkHelper::InstallRoutesTo(network, *routes, {n.device});
                    }
                    for (uint32_t src : n.members)
                    {
                        add(src, {{network.NodeAddress(n.device), fpgaPort, -1}}, rates[i]);
                    }
                    if (n.parent >= 0)
                    {
                        add(n.device,
                            {{network.NodeAddress(static_cast<uint32_t>(n.parent)), fpgaPort,
                              -1}},
                            rates[i]);
                    }
                }
                uint32_t root = x.aggregation.front().device;
                auto [group, devices] = treeOf(p, cliqueOf[i], root, x.resultTree);
                std::vector<RawUdpSender::Destination> dests;
                for (uint32_t d : devices)
                {
                    dests.push_back({group, islandPort, static_cast<int32_t>(d)});
                }
                add(root, dests, rates[i]);
                break;
            }
            default:
                // Unicast patterns (ring, tree, parameter server, ...): every source sends its
                // share of the model to every receiver, island to island.
                for (uint32_t src : f.sources)
                {
                    for (uint32_t dst : f.receivers)
                    {
                        add(src, {{network.IslandAddress(dst), islandPort, -1}}, rates[i],
                            f.fraction);
                    }
                }
                break;
            }
        }
        start += longest + 1.0; // the next round once every stream of this one is through
    }

    for (uint32_t e = 0; e < graph->EdgeCount(); ++e)
    {
        for (int side = 0; side < 2; ++side)
        {
            network.Edge(e).device[side]->TraceConnectWithoutContext("PhyTxBegin",
                                                                     MakeCallback(&CountHop));
        }
    }
    if (monitor)
    {
        linkMonitor.Install(network);
    }

    double cpu1 = bench::CpuSeconds();
    Simulator::Run();
    double cpu2 = bench::CpuSeconds();
    double simS = Simulator::Now().GetSeconds();
    uint64_t events = Simulator::GetEventCount();
    uint64_t monitorHops = 0;
    if (monitor)
    {
        for (const auto& rec : linkMonitor.Records(simS))
        {
            monitorHops += rec.packets;
        }
    }
    Simulator::Destroy();

    std::cout << "raw.mode=" << in.mode << "\n"
              << "raw.streams=" << streams << "\n"
              << "raw.segments_per_stream=" << segments << "\n"
              << "raw.packets_sent=" << g_sent << "\n"
              << "raw.packets_received=" << g_received << "\n"
              << "raw.packet_hops=" << g_hops << "\n";
    if (monitor)
    {
        std::cout << "raw.monitor_packet_hops=" << monitorHops << "\n";
    }
    std::cout << "raw.events=" << events << "\n"
              << "raw.sim_s=" << simS << "\n"
              << "raw.cpu_setup_s=" << cpu1 - cpu0 << "\n"
              << "raw.cpu_run_s=" << cpu2 - cpu1 << "\n"
              << "raw.peak_rss_mib=" << bench::PeakRssMiB() << "\n"
              << "raw.allocator=" << HeapAllocator() << "\n";
    return 0;
}
