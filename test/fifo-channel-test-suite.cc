/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ns-3 TestSuite "intelligent-network-channel": FifoPointToPointChannel delivers every packet
// when ns-3's PointToPointChannel does (transmission time plus delay, computed by hand here),
// in the same order, also when the delay is lowered with packets in flight; a packet a trace
// sink kept is copied before the receiving device strips its header; whole scenarios give the
// same results on either channel; bad channel types are refused.

#include "test-util.h"

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/test.h"

#include <sstream>
#include <vector>

using namespace ns3;
using namespace ns3::intelligent_network_test;

namespace
{

const std::string kData = INTELLIGENT_NETWORK_DATA_DIR;
const uint32_t kPppHeader = 2;

/// What a receiving device handed up.
struct Arrival
{
    uint64_t uid;
    int64_t timeNs;
    uint32_t size;
    const Packet* object;

    /// The same time and size (uids differ between simulations: a global counter).
    bool operator==(const Arrival& o) const
    {
        return timeNs == o.timeNs && size == o.size;
    }
};

/// Two nodes joined by one link of \p rate and \p delay over a channel of type \p type.
struct Link
{
    Ptr<PointToPointNetDevice> dev[2];
    Ptr<PointToPointChannel> channel;
    std::vector<Arrival> arrivals[2]; ///< By receiving side.

    Link(const std::string& type, DataRate rate, Time delay)
    {
        ObjectFactory factory;
        factory.SetTypeId(type);
        channel = factory.Create<PointToPointChannel>();
        channel->SetAttribute("Delay", TimeValue(delay));
        for (int side = 0; side < 2; ++side)
        {
            Ptr<Node> node = CreateObject<Node>();
            dev[side] = CreateObject<PointToPointNetDevice>();
            dev[side]->SetAttribute("DataRate", DataRateValue(rate));
            dev[side]->SetAddress(Mac48Address::Allocate());
            Ptr<DropTailQueue<Packet>> queue = CreateObject<DropTailQueue<Packet>>();
            queue->SetMaxSize(QueueSize("100000p"));
            dev[side]->SetQueue(queue);
            node->AddDevice(dev[side]);
            dev[side]->Attach(channel);
        }
        for (int side = 0; side < 2; ++side)
        {
            dev[side]->SetReceiveCallback(MakeCallback(&Link::Receive, this));
        }
    }

    bool Receive(Ptr<NetDevice> device, Ptr<const Packet> p, uint16_t, const Address&)
    {
        const int side = device == dev[0] ? 0 : 1;
        arrivals[side].push_back(
            {p->GetUid(), Simulator::Now().GetNanoSeconds(), p->GetSize(), PeekPointer(p)});
        return true;
    }

    /// Sends \p bytes from side \p from at \p at; returns the packet.
    Ptr<Packet> SendAt(int from, Time at, uint32_t bytes)
    {
        Ptr<Packet> p = Create<Packet>(bytes);
        Simulator::Schedule(
            at, [this, from, p]() { dev[from]->Send(p, dev[1 - from]->GetAddress(), 0x0800); });
        return p;
    }
};

/// One direction's sends: time and payload bytes.
struct Send
{
    Time at;
    uint32_t bytes;
};

/// Arrival times by hand: a packet starts when it is sent or when the one before it finished
/// (one transmitter, FIFO queue, no interframe gap), takes (bytes + PPP header) * 8 / rate, and
/// arrives one delay after its last bit left.
std::vector<int64_t>
ByHand(const std::vector<Send>& sends, DataRate rate, Time delay)
{
    std::vector<int64_t> out;
    Time free = Seconds(0);
    for (const Send& s : sends)
    {
        Time start = std::max(s.at, free);
        free = start + rate.CalculateBytesTxTime(s.bytes + kPppHeader);
        out.push_back((free + delay).GetNanoSeconds());
    }
    return out;
}

/**
 * Both directions busy at once, in bursts (the queue backs up, many packets in flight per
 * direction) and in single packets: every packet arrives at the time computed by hand, in
 * order, on FifoPointToPointChannel as on ns-3's channel; the FIFO held many packets at once
 * and none at the end.
 */
class ArrivalsTestCase : public TestCase
{
  public:
    ArrivalsTestCase()
        : TestCase("arrivals at transmission time + delay, in order, as ns-3's channel")
    {
    }

  private:
    void DoRun() override
    {
        const DataRate rate("1Gbps");
        const Time delay = MicroSeconds(2500);
        std::vector<Send> sends[2];
        for (uint32_t i = 0; i < 200; ++i) // a burst: 200 packets at once from side 0
        {
            sends[0].push_back({MicroSeconds(100), 200 + 7 * i});
        }
        for (uint32_t i = 0; i < 50; ++i) // spaced, some overlapping the burst's tail
        {
            sends[0].push_back({MicroSeconds(1000 + 37 * i), 1400 - 3 * i});
            sends[1].push_back({MicroSeconds(50 + 91 * i), 64 + 20 * i});
        }
        std::vector<Arrival> got[2][2]; // [channel][receiving side]
        const std::string types[2] = {"ns3::FifoPointToPointChannel", "ns3::PointToPointChannel"};
        size_t mostQueued = 0;
        uint32_t traced = 0; // TxRxFifo calls with last bit = transmission time + delay
        for (int t = 0; t < 2; ++t)
        {
            Link link(types[t], rate, delay);
            for (int from = 0; from < 2; ++from)
            {
                for (const Send& s : sends[from])
                {
                    link.SendAt(from, s.at, s.bytes);
                }
            }
            Ptr<FifoPointToPointChannel> fifo = DynamicCast<FifoPointToPointChannel>(link.channel);
            if (fifo)
            {
                fifo->TraceConnectWithoutContext(
                    "TxRxFifo",
                    Callback<void, Ptr<const Packet>, Ptr<NetDevice>, Ptr<NetDevice>, Time, Time>(
                        [&traced, delay](Ptr<const Packet>, Ptr<NetDevice>, Ptr<NetDevice>, Time tx,
                                         Time lastBit) { traced += lastBit == tx + delay; }));
                for (int us = 0; us < 6000; us += 50)
                {
                    Simulator::Schedule(MicroSeconds(us), [&mostQueued, fifo]() {
                        mostQueued = std::max(mostQueued, fifo->GetNQueued(0));
                    });
                }
            }
            Simulator::Run();
            if (fifo)
            {
                NS_TEST_EXPECT_MSG_EQ(fifo->GetNQueued(0) + fifo->GetNQueued(1), 0u,
                                      "nothing left in flight");
            }
            got[t][0] = link.arrivals[0];
            got[t][1] = link.arrivals[1];
            Simulator::Destroy();
        }
        // 2.5 ms of a 1 Gbit/s link hold about 300 KB: most of the burst is in flight at once.
        NS_TEST_EXPECT_MSG_GT(mostQueued, 100u, "the FIFO holds many packets at once");
        NS_TEST_EXPECT_MSG_EQ(traced, sends[0].size() + sends[1].size(),
                              "TxRxFifo: once per packet, last bit one delay after its end");
        for (int from = 0; from < 2; ++from)
        {
            const int to = 1 - from;
            std::vector<int64_t> expected = ByHand(sends[from], rate, delay);
            NS_TEST_ASSERT_MSG_EQ(got[0][to].size(), expected.size(), "every packet arrives");
            for (size_t i = 0; i < expected.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(got[0][to][i].timeNs, expected[i],
                                      "packet " << i << " from side " << from);
                NS_TEST_EXPECT_MSG_EQ(got[0][to][i].size, sends[from][i].bytes,
                                      "packet " << i << " from side " << from << ": its bytes");
            }
            NS_TEST_EXPECT_MSG_EQ((got[0][to] == got[1][to]), true,
                                  "the same arrivals as ns-3's channel, from side " << from);
        }
    }
};

/**
 * The delay lowered from 10 ms to 1 ms with packets in flight: the packets sent afterwards
 * arrive first, when ns-3's channel delivers them (the FIFO schedules them on their own).
 */
class DelayLoweredTestCase : public TestCase
{
  public:
    DelayLoweredTestCase()
        : TestCase("delay lowered with packets in flight: later packets overtake, as ns-3's")
    {
    }

  private:
    void DoRun() override
    {
        const DataRate rate("100Mbps");
        std::vector<Arrival> got[2];
        const std::string types[2] = {"ns3::FifoPointToPointChannel", "ns3::PointToPointChannel"};
        std::vector<uint64_t> sentUids;
        for (int t = 0; t < 2; ++t)
        {
            Link link(types[t], rate, MilliSeconds(10));
            std::vector<uint64_t> uids;
            for (uint32_t i = 0; i < 3; ++i)
            {
                uids.push_back(link.SendAt(0, MicroSeconds(10 * i), 1000)->GetUid());
            }
            Ptr<PointToPointChannel> ch = link.channel;
            Simulator::Schedule(MilliSeconds(1),
                                [ch]() { ch->SetAttribute("Delay", TimeValue(MilliSeconds(1))); });
            for (uint32_t i = 0; i < 2; ++i)
            {
                uids.push_back(
                    link.SendAt(0, MilliSeconds(2) + MicroSeconds(10 * i), 500)->GetUid());
            }
            Simulator::Run();
            got[t] = link.arrivals[1];
            if (t == 0)
            {
                sentUids = uids;
            }
            Simulator::Destroy();
        }
        NS_TEST_ASSERT_MSG_EQ(got[0].size(), 5u, "every packet arrives");
        NS_TEST_EXPECT_MSG_EQ(got[0][0].uid, sentUids[3], "the first sent after the change first");
        NS_TEST_EXPECT_MSG_EQ(got[0][1].uid, sentUids[4], "then the second");
        NS_TEST_EXPECT_MSG_EQ(got[0][2].uid, sentUids[0], "then the three sent before");
        const int64_t expected = MilliSeconds(2).GetNanoSeconds() +
                                 rate.CalculateBytesTxTime(500 + kPppHeader).GetNanoSeconds() +
                                 MilliSeconds(1).GetNanoSeconds();
        NS_TEST_EXPECT_MSG_EQ(got[0][0].timeNs, expected, "sent at 2 ms, 1 ms delay");
        NS_TEST_EXPECT_MSG_EQ((got[0] == got[1]), true, "the same arrivals as ns-3's channel");
    }
};

/**
 * The receiving device strips the PPP header from the packet it is given. A packet nobody
 * else holds is handed over itself; one a trace sink kept (here the sender's PhyTxEnd) is
 * copied first, so the sink's packet keeps its header, as with ns-3's channel (which always
 * copies).
 */
class KeptPacketIsCopiedTestCase : public TestCase
{
  public:
    KeptPacketIsCopiedTestCase()
        : TestCase("a packet a trace sink kept is copied before the receiver strips its header")
    {
    }

  private:
    void DoRun() override
    {
        Link link("ns3::FifoPointToPointChannel", DataRate("1Gbps"), MilliSeconds(1));
        std::vector<Ptr<const Packet>> kept;
        link.dev[1]->TraceConnectWithoutContext(
            "PhyTxEnd",
            Callback<void, Ptr<const Packet>>([&kept](Ptr<const Packet> p) { kept.push_back(p); }));
        std::vector<const Packet*> sent;
        for (uint32_t i = 0; i < 4; ++i)
        {
            sent.push_back(PeekPointer(link.SendAt(0, MicroSeconds(10 * i), 300)));
            link.SendAt(1, MicroSeconds(10 * i), 400);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(kept.size(), 4u, "side 1 sent four packets");
        NS_TEST_ASSERT_MSG_EQ(link.arrivals[0].size(), 4u, "side 0 received them");
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(kept[i]->GetSize(), 400 + kPppHeader,
                                  "the kept packet " << i << " still has its PPP header");
            NS_TEST_EXPECT_MSG_EQ(link.arrivals[0][i].size, 400u, "the receiver's has none");
            NS_TEST_EXPECT_MSG_EQ((link.arrivals[0][i].object != PeekPointer(kept[i])), true,
                                  "the receiver got a copy");
        }
        NS_TEST_ASSERT_MSG_EQ(link.arrivals[1].size(), 4u, "side 1 received four packets");
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ((link.arrivals[1][i].object == sent[i]), true,
                                  "nobody kept packet " << i << ": handed over without a copy");
        }
        Simulator::Destroy();
    }
};

std::string
Format(double x)
{
    std::ostringstream s;
    s << x;
    return s.str();
}

/// One scenario on the nine cities (3x3-rotating, two rounds) on \p channel.
ScenarioResult
RunNineCity(const std::string& channel, ExchangePattern mode, const std::string& transport,
            double lossRate)
{
    Topology topo = TopologyReader::ReadFile(kData + "/nine-city.topology");
    NetworkGraphOptions quiet;
    quiet.latencyCheck = LatencyCheckMode::OFF;
    ScenarioHelper s;
    s.SetTopology(topo);
    s.SetGraphOptions(quiet);
    s.SetSchedule(Schedule::Load(kData + "/schedules/3x3-rotating.json", topo.CityCodes()));
    s.SetCapabilities(NetworkCapabilities::ForPattern(mode));
    s.SetIslandAttribute("ModelBytes", UintegerValue(2000000));
    s.SetIslandAttribute("ComputeTime", TimeValue(MilliSeconds(1)));
    s.SetTransport(transport);
    s.SetLossRate(lossRate);
    s.SetRounds(2);
    s.SetChannel(channel);
    s.Build();
    ScenarioResult r = s.Run();
    Simulator::Destroy();
    return r;
}

/**
 * Whole scenarios (nine cities, 3x3-rotating, two rounds) give the same results on either
 * channel: every round's and island-round's times and bytes, every link's counters.
 */
class SameScenarioResultsTestCase : public TestCase
{
  public:
    SameScenarioResultsTestCase(ExchangePattern mode, std::string transport, double lossRate)
        : TestCase(PatternName(mode) + ", " + transport + ", loss " + Format(lossRate) +
                   ": the same results on either channel")
        , m_mode(mode)
        , m_transport(std::move(transport))
        , m_lossRate(lossRate)
    {
    }

  private:
    void DoRun() override
    {
        ScenarioResult a = RunNineCity("fifo", m_mode, m_transport, m_lossRate);
        ScenarioResult b = RunNineCity("ns3", m_mode, m_transport, m_lossRate);
        NS_TEST_ASSERT_MSG_EQ(a.complete, true, "fifo run complete: " + a.error);
        NS_TEST_ASSERT_MSG_EQ(b.complete, true, "ns3 run complete: " + b.error);
        NS_TEST_EXPECT_MSG_EQ(a.simTimeS, b.simTimeS, "simulated time");
        NS_TEST_EXPECT_MSG_EQ(a.events, b.events, "events (one delivery event per packet-hop)");
        NS_TEST_EXPECT_MSG_EQ(a.retransmittedBytes, b.retransmittedBytes, "retransmissions");
        NS_TEST_ASSERT_MSG_EQ(a.islandRounds.size(), b.islandRounds.size(), "island rounds");
        for (size_t i = 0; i < a.islandRounds.size(); ++i)
        {
            const IslandRoundRecord& x = a.islandRounds[i];
            const IslandRoundRecord& y = b.islandRounds[i];
            NS_TEST_EXPECT_MSG_EQ(x.island, y.island, "island round " << i);
            NS_TEST_EXPECT_MSG_EQ(x.endS, y.endS, x.island << " round " << x.round << " end");
            NS_TEST_EXPECT_MSG_EQ(x.bytesReceived, y.bytesReceived, x.island << " bytes");
            NS_TEST_EXPECT_MSG_EQ(x.retransmittedSegments, y.retransmittedSegments,
                                  x.island << " retransmissions");
        }
        NS_TEST_ASSERT_MSG_EQ(a.links.size(), b.links.size(), "links");
        uint64_t packets = 0;
        for (size_t i = 0; i < a.links.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(a.links[i].link, b.links[i].link, "link " << i);
            NS_TEST_EXPECT_MSG_EQ(a.links[i].packets, b.links[i].packets, a.links[i].link);
            NS_TEST_EXPECT_MSG_EQ(a.links[i].bytes, b.links[i].bytes, a.links[i].link);
            NS_TEST_EXPECT_MSG_EQ(a.links[i].busyS, b.links[i].busyS, a.links[i].link);
            packets += a.links[i].packets;
        }
        NS_TEST_EXPECT_MSG_GT(packets, 1000u, "packets crossed the links");
    }

    ExchangePattern m_mode;
    std::string m_transport;
    double m_lossRate;
};

/// Channel types and --channel choices: the two known ones, anything else refused.
class ChannelChoiceTestCase : public TestCase
{
  public:
    ChannelChoiceTestCase()
        : TestCase("channel choices: fifo and ns3 accepted, other kinds and types refused")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(WanNetworkHelper::ChannelTypeOf("fifo"),
                              "ns3::FifoPointToPointChannel", "fifo");
        NS_TEST_EXPECT_MSG_EQ(WanNetworkHelper::ChannelTypeOf("ns3"), "ns3::PointToPointChannel",
                              "ns3");
        NS_TEST_EXPECT_MSG_NE(ErrorOf([] { WanNetworkHelper::ChannelTypeOf("csma"); }), "",
                              "an unknown kind");
        ScenarioHelper s;
        NS_TEST_EXPECT_MSG_NE(ErrorOf([&s] { s.SetChannel("FIFO"); }), "",
                              "ScenarioHelper: an unknown kind");
        WanNetworkHelper wan;
        wan.SetChannelType("ns3::PointToPointChannel");
        wan.SetChannelType("ns3::FifoPointToPointChannel");
        for (const std::string bad : {"ns3::CsmaChannel", "ns3::Node", "ns3::NoSuchType"})
        {
            NS_TEST_EXPECT_MSG_NE(ErrorOf([&] { wan.SetChannelType(bad); }).find(bad),
                                  std::string::npos, bad << " refused, named");
        }
    }
};

class FifoChannelTestSuite : public TestSuite
{
  public:
    FifoChannelTestSuite()
        : TestSuite("intelligent-network-channel", UNIT)
    {
        AddTestCase(new ArrivalsTestCase, TestCase::QUICK);
        AddTestCase(new DelayLoweredTestCase, TestCase::QUICK);
        AddTestCase(new KeptPacketIsCopiedTestCase, TestCase::QUICK);
        AddTestCase(new SameScenarioResultsTestCase(ExchangePattern::ALL_TO_ALL, "ideal", 0),
                    TestCase::QUICK);
        AddTestCase(new SameScenarioResultsTestCase(ExchangePattern::MULTICAST, "cc", 0.002),
                    TestCase::QUICK);
        AddTestCase(new SameScenarioResultsTestCase(ExchangePattern::AGGREGATION, "cc", 0.002),
                    TestCase::QUICK);
        AddTestCase(new SameScenarioResultsTestCase(ExchangePattern::ALL_TO_ALL, "tcp", 0.001),
                    TestCase::QUICK);
        AddTestCase(new ChannelChoiceTestCase, TestCase::QUICK);
    }
};

FifoChannelTestSuite g_fifoChannelTestSuite;

} // namespace
