/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Benchmark baseline (not a test): raw ns-3 TCP carrying a schedule's unicast rounds on the
// network nine-city-training builds, without any of the module's applications, to compare
// the tcp transport's cost per packet-hop with plain BulkSend/PacketSink (issue 16).
//
// The network is the one ScenarioHelper builds (WanNetworkHelper, same MTU,
// --queueSize-packet DropTail queues, the RoutePlanner's static host routes). Each ordered member pair of every
// clique of a round becomes one BulkSend -> PacketSink transfer of ModelBytes + 28 bytes (our
// frame header) with the tcp transport's settings: the congestion control of
// --congestionControl, segment size MTU - 52, send and receive buffers of the largest
// bandwidth-delay product of the pairs. A round starts when every transfer of the previous one
// has arrived. Packet hops are counted with one PhyTxBegin counter per device (data and acks).
//
//   ./bench-raw-tcp --topology=two-city.topology --schedule=pair.json --modelBytes=1e9
//
// Prints key=value lines (raw_tcp.packet_hops, raw_tcp.cpu_run_s, ...).

#include "bench-util.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/queue-size.h"

#include <algorithm>
#include <iostream>
#include <memory>

using namespace ns3;

namespace
{

uint64_t g_hops = 0;

void
CountHop(Ptr<const Packet>)
{
    ++g_hops;
}

/// Runs the rounds one after the other: each round's transfers start when the previous
/// round's last one arrived.
struct RoundRunner
{
    WanNetwork* network = nullptr;
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> rounds; ///< (from, to) islands
    uint64_t bytes = 0;
    uint32_t pending = 0;
    uint16_t nextPort = 20000;
    uint32_t current = 0;
    uint64_t transfers = 0;
    std::vector<double> roundEnds; ///< simulated time each round ended, s

    void Start(uint32_t r)
    {
        if (r > 0)
        {
            roundEnds.push_back(Simulator::Now().GetSeconds());
        }
        current = r;
        if (r >= rounds.size())
        {
            Simulator::Stop(); // as nine-city-training ends after its last round
            return;
        }
        pending = static_cast<uint32_t>(rounds[r].size());
        for (const auto& [from, to] : rounds[r])
        {
            uint16_t port = nextPort++;
            PacketSinkHelper sink("ns3::TcpSocketFactory",
                                  InetSocketAddress(Ipv4Address::GetAny(), port));
            Ptr<PacketSink> ps =
                DynamicCast<PacketSink>(sink.Install(network->GetNode(to)).Get(0));
            auto done = std::make_shared<bool>(false);
            ps->TraceConnectWithoutContext(
                "Rx", Callback<void, Ptr<const Packet>, const Address&>(
                          [this, ps, done](Ptr<const Packet>, const Address&) {
                              if (!*done && ps->GetTotalRx() >= bytes)
                              {
                                  *done = true;
                                  if (--pending == 0)
                                  {
                                      Simulator::ScheduleNow(&RoundRunner::Start, this,
                                                             current + 1);
                                  }
                              }
                          }));
            BulkSendHelper bulk("ns3::TcpSocketFactory",
                                InetSocketAddress(network->IslandAddress(to), port));
            bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
            bulk.SetAttribute("SendSize", UintegerValue(65536));
            bulk.Install(network->GetNode(from));
            ++transfers;
        }
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    double cpu0 = bench::CpuSeconds();
    bench::Inputs in("bench-raw-tcp");
    in.options.Add("mtu");
    in.options.Add("congestionControl");
    in.options.Add("queueSize");
    in.options.Add("channel");
    in.options.Parse(argc, argv);
    const auto mtu = static_cast<uint32_t>(in.options.GetInteger("mtu"));
    const auto queuePackets = static_cast<uint32_t>(in.options.GetInteger("queueSize"));

    std::unique_ptr<NetworkGraph> graph;
    std::unique_ptr<RoutePlanner> routes;
    WanNetwork network;
    RoundRunner runner;
    double maxBdp = 131072;
    try
    {
        in.Load();
        if (in.mode != "unicast")
        {
            throw std::invalid_argument("--mode=" + in.mode +
                                        ": the tcp transport carries unicast only");
        }
        graph = std::make_unique<NetworkGraph>(
            NetworkGraph::FromTopology(in.topology, in.graphOptions));
        in.sched.Validate(graph->IslandCities());
        routes = std::make_unique<RoutePlanner>(*graph);
        for (uint32_t r = 0; r < in.rounds; ++r)
        {
            std::vector<std::pair<uint32_t, uint32_t>> pairs;
            for (const auto& clique : in.sched.RoundAt(r).cliques)
            {
                for (const auto& a : clique)
                {
                    for (const auto& b : clique)
                    {
                        if (a == b)
                        {
                            continue;
                        }
                        uint32_t from = graph->IslandNode(a);
                        uint32_t to = graph->IslandNode(b);
                        RoutePlanner::Path path = routes->ShortestPath(from, to);
                        maxBdp = std::max(maxBdp, routes->Bottleneck(path) * 2 *
                                                      routes->Latency(path) / 8);
                        pairs.emplace_back(from, to);
                    }
                }
            }
            runner.rounds.push_back(pairs);
        }
    }
    catch (const std::exception& e)
    {
        return in.options.Fail(e);
    }
    // The congestion control --congestionControl set (the tcp transport's attribute).
    TypeIdValue cc;
    {
        TypeId::AttributeInformation info;
        TypeId::LookupByName("ns3::TcpTransport").LookupAttributeByName("CongestionControl",
                                                                        &info);
        cc.DeserializeFromString(info.initialValue->SerializeToString(info.checker),
                                 info.checker);
    }
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", cc);
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mtu - 52));
    Config::SetDefault("ns3::TcpSocket::SndBufSize",
                       UintegerValue(static_cast<uint32_t>(std::min(maxBdp, 2e9))));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize",
                       UintegerValue(static_cast<uint32_t>(std::min(maxBdp, 2e9))));

    // The network exactly as ScenarioHelper::Build makes it.
    WanNetworkHelper wan;
    wan.SetChannelType(WanNetworkHelper::ChannelTypeOf(in.options.GetText("channel")));
    wan.SetDeviceAttribute("Mtu", UintegerValue(mtu));
    wan.SetQueue("ns3::DropTailQueue<Packet>",
                 "MaxSize",
                 QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, queuePackets)));
    network = wan.Install(*graph);
    WanNetworkHelper::InstallRoutes(network, *routes);
    for (uint32_t e = 0; e < graph->EdgeCount(); ++e)
    {
        for (int side = 0; side < 2; ++side)
        {
            network.Edge(e).device[side]->TraceConnectWithoutContext("PhyTxBegin",
                                                                     MakeCallback(&CountHop));
        }
    }
    runner.network = &network;
    runner.bytes = static_cast<uint64_t>(in.modelBytes) + IslandHeader::SERIALIZED_SIZE;
    Simulator::Schedule(Seconds(0.01), &RoundRunner::Start, &runner, 0);

    double cpu1 = bench::CpuSeconds();
    Simulator::Stop(Seconds(1e5));
    Simulator::Run();
    double cpu2 = bench::CpuSeconds();
    double simS = Simulator::Now().GetSeconds();
    uint64_t events = Simulator::GetEventCount();
    bool complete = runner.current >= runner.rounds.size();
    Simulator::Destroy();

    std::cout << "raw_tcp.complete=" << (complete ? 1 : 0) << "\n"
              << "raw_tcp.allocator=" << HeapAllocator() << "\n"
              << "raw_tcp.congestion_control=" << cc.Get().GetName() << "\n"
              << "raw_tcp.transfers=" << runner.transfers << "\n"
              << "raw_tcp.socket_buffer_bytes=" << static_cast<uint64_t>(std::min(maxBdp, 2e9))
              << "\n"
              << "raw_tcp.packet_hops=" << g_hops << "\n"
              << "raw_tcp.events=" << events << "\n"
              << "raw_tcp.sim_s=" << simS << "\n"
              << "raw_tcp.round_end_s=";
    for (std::size_t r = 0; r < runner.roundEnds.size(); ++r)
    {
        std::cout << (r ? "," : "") << runner.roundEnds[r];
    }
    std::cout << "\n"
              << "raw_tcp.cpu_setup_s=" << cpu1 - cpu0 << "\n"
              << "raw_tcp.cpu_run_s=" << cpu2 - cpu1 << "\n"
              << "raw_tcp.peak_rss_mib=" << bench::PeakRssMiB() << "\n";
    return complete ? 0 : 1;
}
