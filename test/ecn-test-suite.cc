/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ECN end to end for the cc transport (issue 10): ECT(0) on every data packet on the wire,
// RED (--queueDisc=red-ecn) marks CE instead of dropping, receivers echo the marks and the
// senders' congestion windows answer them.

#include "test-util.h"

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/ipv4-header.h"
#include "ns3/ppp-header.h"
#include "ns3/queue-disc.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/test.h"
#include "ns3/udp-header.h"

#include <cstdio>

using namespace ns3;
using namespace ns3::intelligent_network_test;

namespace
{

/// ECN codepoints of the packets put on the wire, over every link direction.
struct WireCounts
{
    uint64_t dataNotEct = 0; ///< DATA, CONTRIBUTION, RESULT, PARITY packets with payload, without ECT.
    uint64_t markers = 0;    ///< Header-only packets of those types (aggregation's tail markers).
    uint64_t dataEct0 = 0;
    uint64_t dataCe = 0;
    uint64_t controlNotEct = 0; ///< ACK, POLL, RESEND packets without ECT.
    uint64_t controlOther = 0;  ///< Control packets with an ECN codepoint (should be none).
    uint64_t dataDrops = 0;     ///< Data packets queue disciplines dropped.
    uint64_t controlDrops = 0;  ///< Control packets queue disciplines dropped.
};

void
CountDrop(WireCounts* w, Ptr<const QueueDiscItem> item)
{
    Ptr<Packet> p = item->GetPacket()->Copy(); // UDP header first (the IPv4 header is apart)
    UdpHeader udp;
    if (p->GetSize() < 8 + IslandHeader::SERIALIZED_SIZE)
    {
        return;
    }
    p->RemoveHeader(udp);
    IslandHeader h;
    p->RemoveHeader(h);
    // Header-only packets of the data types (aggregation's end-of-stream and end-of-sums
    // markers) count as control drops.
    bool data = (h.type == IslandHeader::DATA || h.type == IslandHeader::CONTRIBUTION ||
                 h.type == IslandHeader::RESULT || h.type == IslandHeader::PARITY) &&
                p->GetSize() > 0;
    (data ? w->dataDrops : w->controlDrops) += 1;
}

void
CountWire(WireCounts* w, Ptr<const Packet> packet)
{
    Ptr<Packet> p = packet->Copy();
    PppHeader ppp;
    p->RemoveHeader(ppp);
    if (ppp.GetProtocol() != 0x0021) // PPP's IPv4
    {
        return;
    }
    Ipv4Header ip;
    p->RemoveHeader(ip);
    UdpHeader udp;
    if (ip.GetProtocol() != 17 || p->GetSize() < 8 + IslandHeader::SERIALIZED_SIZE)
    {
        return;
    }
    p->RemoveHeader(udp);
    IslandHeader h;
    p->RemoveHeader(h);
    bool data = h.type == IslandHeader::DATA || h.type == IslandHeader::CONTRIBUTION ||
                h.type == IslandHeader::RESULT || h.type == IslandHeader::PARITY;
    Ipv4Header::EcnType ecn = ip.GetEcn();
    if (data && p->GetSize() == 0)
    {
        // Header-only packets of the data types: aggregation's end-of-stream markers (a
        // member's transport, Not-ECT) and end-of-sums markers (sent down the sums' multicast
        // tree by the root, ECT(0) like the sums they follow). Neither data nor acks.
        ++w->markers;
        return;
    }
    if (!data)
    {
        (ecn == Ipv4Header::ECN_NotECT ? w->controlNotEct : w->controlOther) += 1;
    }
    else if (ecn == Ipv4Header::ECN_NotECT)
    {
        ++w->dataNotEct;
    }
    else if (ecn == Ipv4Header::ECN_ECT0)
    {
        ++w->dataEct0;
    }
    else if (ecn == Ipv4Header::ECN_CE)
    {
        ++w->dataCe;
    }
}

/// What one star run measured.
struct StarOutcome
{
    ScenarioResult result;
    WireCounts wire;
    uint64_t checked = 0;
    uint64_t wrong = 0;
};

/**
 * A star of \p leaves islands around a hub at \p rateBps (one-way \p latencyS per leaf link), every
 * leaf in one clique exchanging by \p mode under the cc transport, red-ecn queues of
 * \p queue packets, ECN on or off (ns3::UdpTransport::Ecn, which the FPGAs follow).
 */
StarOutcome
RunStar(ExchangePattern mode,
        bool ecn,
        uint32_t leaves,
        double rateBps,
        uint64_t model,
        uint32_t rounds = 1,
        uint32_t queue = 100,
        double latencyS = 1e-3)
{
    Config::SetDefault("ns3::UdpTransport::Ecn", BooleanValue(ecn));
    std::vector<std::string> cities;
    for (uint32_t i = 0; i < leaves; ++i)
    {
        cities.push_back("L" + std::to_string(i));
    }
    ScenarioHelper s;
    s.SetTopology(StarTopology(leaves, rateBps, latencyS));
    s.SetSchedule(Schedule("star", {ScheduleRound{{cities}}}));
    s.SetCapabilities(NetworkCapabilities::ForPattern(mode));
    s.SetTransport("cc");
    s.SetQueueDisc("red-ecn");
    s.SetQueueSize(queue);
    s.SetRounds(rounds);
    s.SetMaxSimTime(Seconds(300));
    s.SetIslandAttribute("ModelBytes", UintegerValue(model));
    s.SetIslandAttribute("CheckValues", UintegerValue(5000));
    s.Build();
    StarOutcome o;
    const WanNetwork& net = s.GetNetwork();
    for (uint32_t e = 0; e < net.Graph().EdgeCount(); ++e)
    {
        for (int side = 0; side < 2; ++side)
        {
            Ptr<NetDevice> dev = net.Edge(e).device[side];
            dev->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&CountWire, &o.wire));
            Ptr<TrafficControlLayer> tc = dev->GetNode()->GetObject<TrafficControlLayer>();
            Ptr<QueueDisc> qd = tc ? tc->GetRootQueueDiscOnDevice(dev) : nullptr;
            if (qd)
            {
                qd->TraceConnectWithoutContext("Drop", MakeBoundCallback(&CountDrop, &o.wire));
            }
        }
    }
    o.result = s.Run();
    for (const auto& city : s.GetIslandCities())
    {
        o.checked += s.GetIsland(city)->GetValuesChecked();
        o.wrong += s.GetIsland(city)->GetValueMismatches();
    }
    Simulator::Destroy();
    Config::SetDefault("ns3::UdpTransport::Ecn", BooleanValue(true));
    return o;
}

/**
 * The wire: with ECN on, every data packet (models, contributions, sums) leaves its sender
 * ECN-capable (ECT(0)) and RED marks CE on some of them instead of dropping; acks and polls
 * are not ECN-capable (RFC 3168). With ECN off no packet is ECN-capable and nothing is
 * marked. (ns-3 3.37's UdpSocketImpl::SendTo takes the TOS from the destination address, not
 * from Socket::SetIpTos: before the fix every packet left Not-ECT and RED only dropped.)
 */
class EcnOnTheWireTestCase : public TestCase
{
  public:
    explicit EcnOnTheWireTestCase(ExchangePattern mode)
        : TestCase("red-ecn, cc " + PatternName(mode) +
                   ": data packets carry ECT(0) on the wire, RED marks CE; none with ECN off"),
          m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t model = 4000000;
        const uint32_t leaves = 4;
        for (bool ecn : {true, false})
        {
            StarOutcome o = RunStar(m_mode, ecn, leaves, 1e9, model);
            const ScenarioResult& r = o.result;
            NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
            std::printf("    %s ECN %s: data ECT(0) %llu, CE %llu, Not-ECT %llu; control "
                        "Not-ECT %llu; %llu marks, %llu drops (%llu data, %llu control), %.2f MB "
                        "resent\n",
                        PatternName(m_mode).c_str(), ecn ? "on" : "off",
                        static_cast<unsigned long long>(o.wire.dataEct0),
                        static_cast<unsigned long long>(o.wire.dataCe),
                        static_cast<unsigned long long>(o.wire.dataNotEct),
                        static_cast<unsigned long long>(o.wire.controlNotEct),
                        static_cast<unsigned long long>(r.ecnMarks),
                        static_cast<unsigned long long>(r.queueDrops),
                        static_cast<unsigned long long>(o.wire.dataDrops),
                        static_cast<unsigned long long>(o.wire.controlDrops),
                        r.retransmittedBytes / 1e6);
            NS_TEST_EXPECT_MSG_EQ(o.wire.controlOther, 0u, "a control packet was ECN-capable");
            // Aggregation on a star congests nothing (one contribution stream per uplink,
            // the sums at the same rate down): its contributions and sums must be ECT(0),
            // marks are tested where a tree has a bottleneck (intelligent-network-aggtree).
            const bool congested = m_mode != ExchangePattern::AGGREGATION;
            if (congested)
            {
                NS_TEST_EXPECT_MSG_GT(o.wire.controlNotEct, 0u, "acks seen");
            }
            if (ecn)
            {
                NS_TEST_EXPECT_MSG_EQ(o.wire.dataNotEct, 0u, "a data packet left Not-ECT");
                NS_TEST_EXPECT_MSG_GT(o.wire.dataEct0, 0u, "ECT(0) data on the wire");
                if (congested)
                {
                    NS_TEST_EXPECT_MSG_GT(o.wire.dataCe, 0u, "CE-marked data on the wire");
                    NS_TEST_EXPECT_MSG_GT(r.ecnMarks, 0u, "RED marked");
                }
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(o.wire.dataEct0 + o.wire.dataCe, 0u,
                                      "ECN-capable data with ECN off");
                NS_TEST_EXPECT_MSG_GT(o.wire.dataNotEct, 0u, "data on the wire");
                NS_TEST_EXPECT_MSG_EQ(r.ecnMarks, 0u, "marks with ECN off");
            }
            if (m_mode != ExchangePattern::AGGREGATION)
            {
                for (const auto& ir : r.islandRounds)
                {
                    NS_TEST_EXPECT_MSG_EQ(ir.bytesReceived, (leaves - 1) * model,
                                          ir.island << ": every byte once");
                }
            }
            NS_TEST_EXPECT_MSG_GT(o.checked, 0u, "values checked");
            NS_TEST_EXPECT_MSG_EQ(o.wrong, 0u, "a value or a sum was wrong");
        }
    }

    ExchangePattern m_mode;
};

/**
 * The effect (star of 4 islands at 1 Gbps, 1 ms per leaf link, red-ecn 100-packet queues, cc,
 * 4 MB, two rounds): with ECN, RED marks, the receivers (and the FPGA) echo the marks, the
 * senders' windows answer them (at most once per window of data each), and far fewer packets
 * are dropped and fewer bytes resent than with ECN off on the same queues; every byte and
 * every value or sum exact. The per-round counts (results database rows) add up to the run's.
 */
class EcnStarTestCase : public TestCase
{
  public:
    explicit EcnStarTestCase(ExchangePattern mode)
        : TestCase("red-ecn star at 1 Gbps, cc " + PatternName(mode) +
                   ": marks echoed and answered, far fewer drops and less resent than ECN off"),
          m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t model = 4000000;
        const uint32_t leaves = 4;
        const uint32_t rounds = 2;
        StarOutcome on = RunStar(m_mode, true, leaves, 1e9, model, rounds);
        StarOutcome off = RunStar(m_mode, false, leaves, 1e9, model, rounds);
        for (const StarOutcome* o : {&on, &off})
        {
            const ScenarioResult& r = o->result;
            NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
            NS_TEST_EXPECT_MSG_GT(o->checked, 0u, "values checked");
            NS_TEST_EXPECT_MSG_EQ(o->wrong, 0u, "a value or a sum was wrong");
            if (m_mode != ExchangePattern::AGGREGATION)
            {
                for (const auto& ir : r.islandRounds)
                {
                    NS_TEST_EXPECT_MSG_EQ(ir.bytesReceived, (leaves - 1) * model,
                                          ir.island << " round " << ir.round
                                                    << ": every byte once");
                }
            }
            uint64_t echoes = 0;
            uint64_t reductions = 0;
            for (const auto& rr : r.rounds)
            {
                echoes += rr.ecnEchoes;
                reductions += rr.ecnReductions;
            }
            if (m_mode != ExchangePattern::AGGREGATION)
            {
                // No congestion collapse, ECN or not (issue 10's bound): resent bytes under 5%
                // of what the islands contribute. Multicast with parity repair broke it (24 MB
                // resent of 32 MB) while its losses never cut the window.
                NS_TEST_EXPECT_MSG_LT(static_cast<double>(r.retransmittedBytes),
                                      0.05 * leaves * model * rounds,
                                      "resent 5% or more of the contributed bytes (ECN "
                                          << (o == &on ? "on" : "off") << ")");
            }
            NS_TEST_EXPECT_MSG_EQ(echoes, r.ecnEchoes, "per-round echoes add up");
            NS_TEST_EXPECT_MSG_EQ(reductions, r.ecnReductions, "per-round reductions add up");
        }
        const ScenarioResult& a = on.result;
        const ScenarioResult& b = off.result;
        std::printf("    %s: ECN on %llu marks, %llu echoes, %llu reductions, %llu drops (%llu "
                    "data), %.2f MB resent; ECN off %llu drops (%llu data), %.2f MB resent\n",
                    PatternName(m_mode).c_str(), static_cast<unsigned long long>(a.ecnMarks),
                    static_cast<unsigned long long>(a.ecnEchoes),
                    static_cast<unsigned long long>(a.ecnReductions),
                    static_cast<unsigned long long>(a.queueDrops),
                    static_cast<unsigned long long>(on.wire.dataDrops), a.retransmittedBytes / 1e6,
                    static_cast<unsigned long long>(b.queueDrops),
                    static_cast<unsigned long long>(off.wire.dataDrops),
                    b.retransmittedBytes / 1e6);
        NS_TEST_EXPECT_MSG_EQ(a.ecn, true, "ECN recorded on");
        NS_TEST_EXPECT_MSG_EQ(b.ecn, false, "ECN recorded off");
        NS_TEST_EXPECT_MSG_EQ(a.queueDisc, "red-ecn", "queue discipline recorded");
        NS_TEST_EXPECT_MSG_GT(a.ecnMarks, 0u, "RED marked");
        NS_TEST_EXPECT_MSG_GT(a.ecnEchoes, 0u, "marks echoed to the senders");
        NS_TEST_EXPECT_MSG_GT(a.ecnReductions, 0u, "windows answered the marks");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(a.ecnReductions, a.ecnEchoes, "a reduction needs an echo");
        NS_TEST_EXPECT_MSG_EQ(b.ecnMarks + b.ecnEchoes + b.ecnReductions, 0u, "ECN off");
        NS_TEST_EXPECT_MSG_GT(off.wire.dataDrops, 0u, "the queues overflow without ECN");
        // Data drops: RED marks ECN-capable data; acks stay Not-ECT (RFC 3168) and RED still
        // drops some of them early (cumulative acks absorb it).
        NS_TEST_EXPECT_MSG_LT(4 * on.wire.dataDrops, off.wire.dataDrops,
                              "not far fewer data drops with ECN");
        NS_TEST_EXPECT_MSG_LT(a.queueDrops, b.queueDrops, "not fewer drops with ECN");
        NS_TEST_EXPECT_MSG_LT(a.retransmittedBytes, b.retransmittedBytes,
                              "not less resent with ECN");
    }

    ExchangePattern m_mode;
};

class EcnTestSuite : public TestSuite
{
  public:
    EcnTestSuite()
        : TestSuite("intelligent-network-ecn", UNIT)
    {
        for (auto mode : {ExchangePattern::ALL_TO_ALL, ExchangePattern::MULTICAST,
                          ExchangePattern::AGGREGATION})
        {
            AddTestCase(new EcnOnTheWireTestCase(mode), TestCase::QUICK);
            AddTestCase(new EcnStarTestCase(mode), TestCase::QUICK);
        }
    }
};

static EcnTestSuite g_ecnTestSuite;

} // namespace
