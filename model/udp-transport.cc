/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "udp-transport.h"

#include "fixed-point.h"
#include "repair-copies.h"
#include "wire-format.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/ipv4.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"
#include "ns3/queue-disc.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <cmath>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UdpTransport");
NS_OBJECT_ENSURE_REGISTERED(UdpTransport);

namespace
{
/// ECN field values of the IPv4 TOS byte.
constexpr uint8_t kEct0 = 0x02;
constexpr uint8_t kCe = 0x03;

/// Parity block \p block (blocks of \p blockSize segments) of a message being received: its
/// first segment, one past its last, and how many of them have arrived.
struct BlockFill
{
    uint32_t first = 0;
    uint32_t end = 0;
    uint32_t received = 0;

    uint32_t Size() const
    {
        return end - first;
    }
};

BlockFill
FillOf(const IncomingTransfer& state, uint32_t block, uint32_t blockSize)
{
    BlockFill f;
    const uint64_t first = static_cast<uint64_t>(block) * blockSize;
    if (first >= state.Count())
    {
        return f; // no such block: empty
    }
    f.first = static_cast<uint32_t>(first);
    f.end = static_cast<uint32_t>(std::min<uint64_t>(first + blockSize, state.Count()));
    for (uint32_t q = f.first; q < f.end; ++q)
    {
        f.received += state.Has(q) ? 1 : 0;
    }
    return f;
}
} // namespace

TypeId
UdpTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UdpTransport")
            .SetParent<IslandTransport>()
            .SetGroupName("IntelligentNetwork")
            .AddAttribute("Port",
                          "UDP port of the islands' exchange protocol.",
                          UintegerValue(WireFormat::kIslandPort),
                          MakeUintegerAccessor(&UdpTransport::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("AckInterval",
                          "A receiver acks every this many new segments (0: the transport's "
                          "default, 32 for ideal pacing, 2 for congestion control).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&UdpTransport::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(0, 1u << 20))
            .AddAttribute("MaxNackRanges",
                          "Most missing ranges reported in one ack (0: the transport's default, "
                          "as many as fit in one segment under ideal pacing, 64 otherwise; 8 "
                          "bytes each, an ack never exceeds a data segment).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&UdpTransport::m_maxNackRanges),
                          MakeUintegerChecker<uint32_t>(0, 1u << 20))
            .AddAttribute("MaxResendRequests",
                          "Contributions: an FPGA's resend requests for one segment are "
                          "honoured at most this many times (then the straggler timeout "
                          "and the member's own loss detection take over).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&UdpTransport::m_maxResendRequests),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("TailMarkers",
                          "Contributions: header-only end-of-stream markers sent back to back "
                          "after the last new contribution (FLAG_TAIL): the first FPGA learns "
                          "at once that every contribution of the stream it has not counted "
                          "was lost, the last ones included (0: none; the straggler timeout "
                          "finds them).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&UdpTransport::m_tailMarkers),
                          MakeUintegerChecker<uint32_t>(0, 64))
            .AddAttribute("MinRto",
                          "Smallest retransmission (poll) timeout.",
                          TimeValue(MilliSeconds(5)),
                          MakeTimeAccessor(&UdpTransport::m_minRto),
                          MakeTimeChecker(MicroSeconds(1), Seconds(3600)))
            .AddAttribute("InitialRtt",
                          "Round-trip estimate before the first sample and without a hint.",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&UdpTransport::m_initialRtt),
                          MakeTimeChecker(MicroSeconds(1), Seconds(3600)))
            .AddAttribute("HostQueue",
                          "Local flow control, as a host's stack does (TCP Small Queues, "
                          "qdisc back-pressure): a stream sends its next packet only while "
                          "the egress queue of this node's outgoing device (device queue plus "
                          "queue discipline) holds less than this fraction of its capacity; "
                          "otherwise it waits one packet time and tries again. A host does not "
                          "drop its own packets. 1: no local flow control.",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&UdpTransport::m_hostQueue),
                          MakeDoubleChecker<double>(0.01, 1))
            .AddAttribute("Ecn",
                          "Send ECN-capable packets (ECT(0)) and echo congestion marks (CE) "
                          "in acks (marks need a marking queue discipline: red-ecn, fq-codel).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&UdpTransport::m_ecn),
                          MakeBooleanChecker())
            .AddAttribute("MulticastRepair",
                          "How a multicast model's losses are repaired: parity (parity segments "
                          "of an erasure code over blocks of ParityBlock segments: one parity "
                          "segment repairs a different loss at every receiver) or resend (each "
                          "missing segment again). Unicast always resends.",
                          StringValue("parity"),
                          MakeStringAccessor(&UdpTransport::m_multicastRepair),
                          MakeStringChecker())
            .AddAttribute("ParityBlock",
                          "MulticastRepair=parity: data segments per block of the erasure code.",
                          UintegerValue(32),
                          MakeUintegerAccessor(&UdpTransport::m_parityBlock),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("ParityConfidence",
                          "MulticastRepair=parity: parity segments sent for a block are raised "
                          "until the repair suffices with at least this probability given each "
                          "receiver's measured loss (0: exactly the most missing at one "
                          "receiver); after k failed repairs of a block 1 - (1 - this)^(k+1); "
                          "after the last new segment the pending repairs together.",
                          DoubleValue(0.9),
                          MakeDoubleAccessor(&UdpTransport::m_parityConfidence),
                          MakeDoubleChecker<double>(0, 0.999))
            .AddTraceSource("EcnEcho",
                            "A sender heard of a congestion mark: an ack or a sum with an ECN "
                            "echo, or a sum that arrived marked (argument: the stream's round).",
                            MakeTraceSourceAccessor(&UdpTransport::m_ecnEchoTrace),
                            "ns3::UdpTransport::RoundTracedCallback");
    return tid;
}

UdpTransport::UdpTransport() = default;
UdpTransport::~UdpTransport() = default;

void
UdpTransport::DoDispose()
{
    m_socket = nullptr;
    m_multicast.Close();
    m_pacer.Clear();
    for (const auto& [handle, s] : m_out)
    {
        Unregister(s);
    }
    m_out.clear();
    m_in.clear();
    IslandTransport::DoDispose();
}

void
UdpTransport::Start()
{
    if (m_socket)
    {
        return;
    }
    NS_ABORT_MSG_UNLESS(m_multicastRepair == "parity" || m_multicastRepair == "resend",
                        "island " << m_islandId << ": MulticastRepair '" << m_multicastRepair
                                  << "' is neither parity nor resend");
    m_socket = Socket::CreateSocket(m_node, UdpSocketFactory::GetTypeId());
    NS_ABORT_MSG_IF(m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                    "island " << m_islandId << ": cannot bind UDP port " << m_port);
    m_socket->SetRecvCallback(MakeCallback(&UdpTransport::HandleRead, this));
    m_socket->SetIpRecvTos(true);
    // ECT(0) goes in the destination address of every data packet (DataAddress): ns-3 3.37's
    // UdpSocketImpl::SendTo takes the IPv4 TOS from the InetSocketAddress it is given, not
    // from Socket::SetIpTos (which only Send on a connected socket uses).
    m_multicast.SetNode(m_node);
    m_multicast.SetIpTos(m_ecn ? kEct0 : 0);
    m_pacer.SetNode(m_node, m_hostQueue);
}

void
UdpTransport::Stop()
{
    for (auto& [handle, s] : m_out)
    {
        s.sendEvent.Cancel();
        s.rtoEvent.Cancel();
        Unregister(s);
        OnClose(s);
    }
    m_out.clear();
    m_byDest.clear();
    m_pacer.Clear();
    if (m_socket)
    {
        m_socket->Close();
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket = nullptr;
    }
    m_multicast.Close();
}

bool
UdpTransport::SupportsGroups() const
{
    return true;
}

uint64_t
UdpTransport::GetRetransmissions() const
{
    return m_retransmissions;
}

uint64_t
UdpTransport::GetParitySegments() const
{
    return m_paritySent;
}

uint64_t
UdpTransport::GetParityRecovered() const
{
    return m_parityRecovered;
}

std::map<std::tuple<uint32_t, uint32_t, uint16_t>, UdpTransport::ParitySource>&
UdpTransport::ParitySources()
{
    static std::map<std::tuple<uint32_t, uint32_t, uint16_t>, ParitySource> sources;
    return sources;
}

void
UdpTransport::Unregister(const Stream& s)
{
    if (!s.parity)
    {
        return;
    }
    auto key = std::make_tuple(m_islandId, s.msg.round, s.msg.tag);
    auto it = ParitySources().find(key);
    if (it != ParitySources().end() && it->second.sender == this &&
        it->second.handle == s.handle)
    {
        ParitySources().erase(it);
    }
}

bool
UdpTransport::RepairQueued(const Stream& s)
{
    return s.state.HasQueuedRetransmissions() || s.ParityQueued();
}

uint64_t
UdpTransport::GetEcnEchoes() const
{
    return m_ecnEchoes;
}

void
UdpTransport::SetGroupDevices(Ipv4Address group, const std::vector<uint32_t>& devices)
{
    m_groupDevices[group] = devices;
}

std::map<uint64_t, UdpTransport::Stream>&
UdpTransport::Streams()
{
    return m_out;
}

uint64_t
UdpTransport::InKey(uint32_t round, uint32_t origin, uint16_t tag)
{
    return (static_cast<uint64_t>(round) << 32) | (static_cast<uint64_t>(origin & 0xFFFF) << 16) |
           tag;
}

uint32_t
UdpTransport::NackRanges() const
{
    // 2 bytes of count, then 8 per range: an ack no larger than a data segment.
    uint32_t fit = std::max<uint32_t>(1, (m_segmentSize - 2) / 8);
    return std::min(m_maxNackRanges == 0 ? DefaultNackRanges() : m_maxNackRanges, fit);
}

uint32_t
UdpTransport::DescribedRanges() const
{
    return m_maxNackRanges == 0 ? DefaultNackRanges() : m_maxNackRanges;
}

uint32_t
UdpTransport::SegmentCount(uint64_t bytes) const
{
    return static_cast<uint32_t>(std::max<uint64_t>(1, (bytes + m_segmentSize - 1) / m_segmentSize));
}

uint32_t
UdpTransport::SegmentPayload(const OutMessage& m, uint32_t seq) const
{
    uint64_t start = static_cast<uint64_t>(seq) * m_segmentSize;
    return static_cast<uint32_t>(std::min<uint64_t>(m_segmentSize, m.bytes - start));
}

uint32_t
UdpTransport::ValuesPerSegment(uint8_t type) const
{
    return type == IslandHeader::DATA ? m_segmentSize / 8 : m_segmentSize / 4;
}

uint64_t
UdpTransport::Send(const OutMessage& message)
{
    NS_ABORT_MSG_IF(message.bytes == 0, "island " << m_islandId << ": empty message");
    NS_ABORT_MSG_IF(message.receivers.empty(), "island " << m_islandId << ": no receivers");
    uint64_t handle = m_nextHandle++;
    Stream s;
    s.handle = handle;
    s.msg = message;
    s.port = message.port ? message.port : m_port;
    if (message.type == IslandHeader::CONTRIBUTION)
    {
        s.destTag = message.receivers.front();
    }
    else
    {
        s.destTag = message.dest.IsMulticast() ? GROUP_TAG : message.receivers.front();
    }
    s.state = OutgoingTransfer(SegmentCount(message.bytes), message.receivers);
    // Redundant repair (the k-th resend of a segment goes out in up to 2^(k-1) copies): for
    // data, and for contributions, which are resent only when an FPGA asks for them again.
    s.state.SetMaxRepairCopies(RepairCopies());
    if (message.type == IslandHeader::DATA && message.dest.IsMulticast() &&
        m_multicastRepair == "parity")
    {
        s.parity =
            std::make_unique<Stream::Parity>(s.state.Count(), m_parityBlock, m_parityConfidence);
        s.state.SetQueueOnNack(false, m_parityBlock);
        ParitySources()[std::make_tuple(m_islandId, message.round, message.tag)] =
            ParitySource{this, handle};
    }
    Time hint = message.rttHint.IsZero() ? HintFor(message.receivers, m_initialRtt)
                                         : message.rttHint;
    s.srtt = hint.GetSeconds();
    s.rttvar = s.srtt / 2;
    // Each receiver starts from its own hint (the path latency), or the stream's.
    for (uint32_t r : s.msg.type == IslandHeader::CONTRIBUTION ? std::vector<uint32_t>{s.destTag}
                                                               : message.receivers)
    {
        double h = message.rttHint.IsZero() ? HintFor({r}, hint).GetSeconds() : s.srtt;
        s.rtts[r] = Stream::Rtt{h, h / 2, false};
    }
    s.lastProgress = Simulator::Now();
    s.opened = Simulator::Now();
    auto key = std::make_tuple(message.round, s.destTag, message.tag);
    NS_ABORT_MSG_IF(m_byDest.count(key),
                    "island " << m_islandId << ": message (round " << message.round << ", to "
                              << s.destTag << ", tag " << message.tag << ") sent twice");
    m_byDest[key] = handle;
    Stream& st = m_out.emplace(handle, std::move(s)).first->second;
    OnOpen(st);
    return handle;
}

void
UdpTransport::Cancel(uint64_t handle)
{
    Finish(handle);
}

Time
UdpTransport::LastProgress(uint64_t handle) const
{
    auto it = m_out.find(handle);
    return it == m_out.end() ? Simulator::Now() : it->second.lastProgress;
}

Time
UdpTransport::RecoveryRoundTrip(uint64_t handle) const
{
    auto it = m_out.find(handle);
    if (it == m_out.end() || it->second.msg.type != IslandHeader::CONTRIBUTION)
    {
        return Time(0);
    }
    return Seconds(RequestRtt(it->second));
}

void
UdpTransport::OnAllNewSent(Stream&)
{
}

void
UdpTransport::OnClose(Stream&)
{
}

void
UdpTransport::OnSegmentSent(Stream&, uint32_t, bool)
{
}

uint32_t
UdpTransport::RepairCopies() const
{
    return 1;
}

uint32_t
UdpTransport::DefaultNackRanges() const
{
    // Resends leave outside the congestion window: where loss signals congestion, reporting
    // every gap at once would resend them all in one burst into the congested queue. 64
    // ranges per ack, as before.
    return 64;
}

uint32_t
UdpTransport::DefaultAckInterval() const
{
    return 32;
}

bool
UdpTransport::WindowOpen(const Stream&) const
{
    return true;
}

void
UdpTransport::OnFeedback(Stream&, const Feedback&)
{
}

void
UdpTransport::OnTimeout(Stream&)
{
}

uint32_t
UdpTransport::InFlight(const Stream& s) const
{
    uint32_t slowest = s.state.NextNew();
    for (uint32_t r : s.msg.receivers)
    {
        auto it = s.highest.find(r);
        slowest = std::min(slowest, it == s.highest.end() ? 0u : it->second);
    }
    return s.state.NextNew() - slowest;
}

void
UdpTransport::SetRate(uint64_t handle, double rateBps)
{
    auto it = m_out.find(handle);
    if (it == m_out.end())
    {
        return;
    }
    NS_LOG_LOGIC("island " << m_islandId << " round " << it->second.msg.round << " stream to "
                           << it->second.msg.dest << " rate " << rateBps * 1e-9 << " Gbps");
    it->second.rateBps = rateBps;
    Resume(handle);
}

void
UdpTransport::Resume(uint64_t handle)
{
    auto it = m_out.find(handle);
    if (it == m_out.end())
    {
        return;
    }
    Stream& s = it->second;
    if (s.rateBps > 0 && !s.sendEvent.IsRunning())
    {
        s.sendEvent = Simulator::ScheduleNow(&UdpTransport::SendNext, this, handle);
    }
}

Ptr<Packet>
UdpTransport::MakePayload(const OutMessage& m, uint32_t seq, bool* overflowed)
{
    uint32_t payload = SegmentPayload(m, seq);
    uint32_t perSegment = ValuesPerSegment(m.type);
    uint64_t first = static_cast<uint64_t>(seq) * perSegment;
    if (!m.values.data || first >= m.values.count)
    {
        return Create<Packet>(payload);
    }
    const std::vector<double>& values = *m.values.data;
    uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(perSegment, m.values.count - first));
    std::vector<uint8_t> buf(payload, 0);
    const double* src = values.data() + m.values.offset + first;
    if (m.type == IslandHeader::DATA)
    {
        n = std::min<uint32_t>(n, payload / 8);
        std::memcpy(buf.data(), src, n * sizeof(double));
    }
    else
    {
        FixedPoint fp(static_cast<int>(m_fixedPointBits));
        n = std::min<uint32_t>(n, payload / 4);
        for (uint32_t i = 0; i < n; ++i)
        {
            bool overflow = false;
            int32_t q = fp.Encode(src[i], overflow);
            m_encodeOverflows += overflow ? 1 : 0;
            if (overflow && overflowed)
            {
                *overflowed = true;
            }
            std::memcpy(buf.data() + 4 * i, &q, 4);
        }
    }
    return Create<Packet>(buf.data(), payload);
}

void
UdpTransport::SendNext(uint64_t handle)
{
    auto it = m_out.find(handle);
    if (it == m_out.end() || !m_socket)
    {
        return;
    }
    Stream& s = it->second;
    if (s.rateBps <= 0)
    {
        return;
    }
    bool allowNew = WindowOpen(s);
    const bool windowBlocked = !allowNew;
    if (allowNew && s.msg.type == IslandHeader::CONTRIBUTION)
    {
        // Slot next % window is free once the sum of its previous segment came back.
        uint32_t next = s.state.NextNew();
        uint32_t window = std::max<uint32_t>(1, s.msg.window);
        if (next < s.state.Count() && next >= window)
        {
            auto in = m_in.find(InKey(s.msg.round, s.destTag, 0));
            allowNew = in != m_in.end() && in->second.state.Has(next - window);
        }
    }
    if ((allowNew || RepairQueued(s)) && m_hostQueue < 1)
    {
        Time wait = EgressBackoff(s);
        if (wait.IsStrictlyPositive())
        {
            s.sendEvent = Simulator::Schedule(wait, &UdpTransport::SendNext, this, handle);
            return;
        }
    }
    if (s.ParityQueued())
    {
        // Parity before new segments, as resends.
        uint32_t payload = SendParity(s);
        double gap = static_cast<double>(WireFormat::WireBytes(payload)) * 8.0 / s.rateBps;
        s.sendEvent = Simulator::Schedule(Seconds(gap), &UdpTransport::SendNext, this, handle);
        return;
    }
    uint32_t seq;
    bool retx;
    double now = Simulator::Now().GetSeconds();
    if (!s.state.Next(now, seq, retx, allowNew))
    {
        if (s.state.AllNewSent())
        {
            Release(s);
            ArmRto(handle);
        }
        else if (windowBlocked && !s.rtoEvent.IsRunning())
        {
            // Blocked by the window: if every packet in flight and every ack were lost, only
            // the timer can restart the stream.
            ArmRto(handle);
        }
        return; // idle, or blocked by the window until an ack or a sum returns
    }
    bool encodeOverflow = false;
    Ptr<Packet> p = MakePayload(s.msg, seq, &encodeOverflow);
    uint32_t payload = p->GetSize();
    IslandHeader h;
    h.type = s.msg.type;
    h.flags = s.msg.flags | (retx ? IslandHeader::FLAG_RETRANSMISSION : 0);
    if (encodeOverflow && s.msg.type == IslandHeader::CONTRIBUTION)
    {
        // A value saturated at encoding: the FPGA's sum of this segment is inexact (counted
        // there and flagged on the result, as a sum that overflows).
        h.flags |= IslandHeader::FLAG_OVERFLOW;
    }
    if (retx && s.msg.type == IslandHeader::DATA && s.state.AllNewSent())
    {
        // After the last new segment nothing else would tell the receivers about the tail:
        // their acks to this one describe the whole message (segments lost at the very end).
        h.flags |= IslandHeader::FLAG_TAIL;
    }
    if (s.msg.values.data && static_cast<uint64_t>(seq) * ValuesPerSegment(s.msg.type) <
                                 s.msg.values.count)
    {
        h.flags |= IslandHeader::FLAG_VALUES;
    }
    h.island = static_cast<uint16_t>(m_islandId);
    h.origin = static_cast<uint16_t>(m_islandId);
    h.extra = s.msg.type == IslandHeader::CONTRIBUTION ? s.msg.cliqueKey : s.msg.tag;
    h.round = s.msg.round;
    h.seq = seq;
    h.count = s.state.Count();
    h.timestamp = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
    p->AddHeader(h);
    if (s.msg.dest.IsMulticast())
    {
        auto devices = m_groupDevices.find(s.msg.dest);
        m_multicast.Send(p, s.msg.dest, s.port,
                         devices == m_groupDevices.end() ? s.msg.groupDevices : devices->second);
    }
    else
    {
        m_socket->SendTo(p, 0, DataAddress(s.msg.dest, s.port));
    }
    if (retx)
    {
        ++m_retransmissions;
        NS_LOG_LOGIC("island " << m_islandId << " resends segment " << seq << " of round "
                               << s.msg.round << " to " << s.msg.dest);
    }
    OnSegmentSent(s, seq, retx);
    if (m_sent)
    {
        m_sent(s.msg.round, s.msg.tag, seq, payload, retx);
    }
    if (s.state.AllNewSent() && !RepairQueued(s))
    {
        Release(s);
        ArmRto(handle);
    }
    double gap = static_cast<double>(WireFormat::WireBytes(payload)) * 8.0 / s.rateBps;
    s.sendEvent = Simulator::Schedule(Seconds(gap), &UdpTransport::SendNext, this, handle);
}

void
UdpTransport::LookupEgress(Stream& s)
{
    s.egress.clear();
    s.egressAt = Simulator::Now();
    if (s.msg.dest.IsMulticast())
    {
        auto devices = m_groupDevices.find(s.msg.dest);
        for (uint32_t d :
             devices == m_groupDevices.end() ? s.msg.groupDevices : devices->second)
        {
            if (d < m_node->GetNDevices())
            {
                s.egress.push_back(m_node->GetDevice(d));
            }
        }
        return;
    }
    Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
    if (!ipv4 || !ipv4->GetRoutingProtocol())
    {
        return;
    }
    Ipv4Header header;
    header.SetDestination(s.msg.dest);
    header.SetProtocol(17);
    Socket::SocketErrno err;
    Ptr<Ipv4Route> route =
        ipv4->GetRoutingProtocol()->RouteOutput(Create<Packet>(), header, nullptr, err);
    if (route && route->GetOutputDevice())
    {
        s.egress.push_back(route->GetOutputDevice());
    }
}

Time
UdpTransport::EgressBackoff(Stream& s)
{
    // Routes change only on a reroute: look the device up again every 10 ms.
    if (s.egressAt.IsNegative() || Simulator::Now() - s.egressAt > MilliSeconds(10))
    {
        LookupEgress(s);
    }
    Time wait;
    for (const Ptr<NetDevice>& dev : s.egress)
    {
        wait = std::max(wait,
                        EgressPacer::Backoff(m_node, dev, m_hostQueue,
                                             static_cast<uint32_t>(
                                                 WireFormat::WireBytes(m_segmentSize))));
    }
    return wait;
}

void
UdpTransport::Release(Stream& s)
{
    if (s.released)
    {
        return;
    }
    s.released = true;
    if (s.msg.type == IslandHeader::CONTRIBUTION && !s.msg.dest.IsMulticast() && m_socket)
    {
        // End of stream: a member's contributions follow one path in order, so a marker
        // arriving after them tells the first FPGA that any it has not counted was lost,
        // the last ones too (a gap in the stream reveals the others, not the tail). Header
        // only, in copies (each crosses the same lossy links).
        IslandHeader h;
        h.type = IslandHeader::CONTRIBUTION;
        h.flags = IslandHeader::FLAG_TAIL;
        h.island = static_cast<uint16_t>(m_islandId);
        h.origin = static_cast<uint16_t>(m_islandId);
        h.extra = s.msg.cliqueKey;
        h.round = s.msg.round;
        h.seq = s.state.Count() - 1;
        h.count = s.state.Count();
        h.timestamp = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
        for (uint32_t i = 0; i < m_tailMarkers; ++i)
        {
            Ptr<Packet> p = Create<Packet>();
            p->AddHeader(h);
            m_socket->SendTo(p, 0, InetSocketAddress(s.msg.dest, s.port));
        }
    }
    OnAllNewSent(s);
}

void
UdpTransport::Finish(uint64_t handle)
{
    auto it = m_out.find(handle);
    if (it == m_out.end())
    {
        return;
    }
    Stream& s = it->second;
    NS_LOG_INFO("island " << m_islandId << " round " << s.msg.round << " tag " << s.msg.tag
                          << " to " << s.destTag << " closed after "
                          << (Simulator::Now() - s.opened).As(Time::MS) << ", "
                          << s.state.Retransmissions() << " segments resent");
    s.sendEvent.Cancel();
    s.rtoEvent.Cancel();
    Unregister(s);
    s.requestEvent.Cancel();
    OnClose(s);
    m_byDest.erase(std::make_tuple(s.msg.round, s.destTag, s.msg.tag));
    m_out.erase(it);
}

void
UdpTransport::RttSample(Stream& s, uint32_t receiver, double sample)
{
    if (!(sample > 0))
    {
        return;
    }
    // RFC 6298 per receiver; the stream follows its slowest receiver (the one with the
    // largest SRTT + 4 RTTVAR), so that a near multicast member's quick acks neither shorten
    // the timeout nor raise the pacing rate for the far ones.
    Stream::Rtt& r = s.rtts[receiver];
    if (!r.sampled)
    {
        r.srtt = sample;
        r.rttvar = sample / 2;
        r.sampled = true;
    }
    else
    {
        r.rttvar = 0.75 * r.rttvar + 0.25 * std::abs(r.srtt - sample);
        r.srtt = 0.875 * r.srtt + 0.125 * sample;
    }
    double worst = -1;
    for (const auto& [id, e] : s.rtts)
    {
        if (e.srtt + 4 * e.rttvar > worst)
        {
            worst = e.srtt + 4 * e.rttvar;
            s.srtt = e.srtt;
            s.rttvar = e.rttvar;
        }
    }
}

void
UdpTransport::ArmRto(uint64_t handle)
{
    auto it = m_out.find(handle);
    if (it == m_out.end())
    {
        return;
    }
    Stream& s = it->second;
    // Restarted on every ack that makes progress: cancelling and scheduling a new event each
    // time left one cancelled event per ack in the scheduler until its expiry (thousands per
    // stream pending at once), and every insertion paid for them. Moving the deadline of the
    // pending event costs nothing; it fires at the same deadlines as before.
    s.rtoDeadline = Simulator::Now() + Seconds(Rto(s));
    if (s.rtoEvent.IsRunning() && Simulator::GetDelayLeft(s.rtoEvent) <=
                                      s.rtoDeadline - Simulator::Now())
    {
        return; // it comes at or before the deadline and waits again until it
    }
    s.rtoEvent.Cancel();
    s.rtoEvent = Simulator::Schedule(s.rtoDeadline - Simulator::Now(), &UdpTransport::OnRto, this,
                                     handle);
}

void
UdpTransport::OnRto(uint64_t handle)
{
    auto it = m_out.find(handle);
    if (it == m_out.end() || !m_socket)
    {
        return;
    }
    Stream& s = it->second;
    if (Simulator::Now() < s.rtoDeadline)
    {
        // Restarted since this event was scheduled: wait until the deadline.
        s.rtoEvent = Simulator::Schedule(s.rtoDeadline - Simulator::Now(), &UdpTransport::OnRto,
                                         this, handle);
        return;
    }
    NS_LOG_INFO("island " << m_islandId << " timeout on round " << s.msg.round << " stream to "
                          << s.msg.dest);
    OnTimeout(s);
    if (s.msg.type == IslandHeader::CONTRIBUTION)
    {
        // No sums for a while: ask for the missing ones (header-only). Only the FPGA knows
        // whether a contribution or a sum was lost: it asks for the contributions it lacks
        // (HandleResend) and resends the sums it has; resending every contribution whose sum
        // is missing would resend the whole window for one lost packet.
        uint32_t asked = RequestSums(s, s.state.NextNew(),
                                     Simulator::Now().GetSeconds() - s.srtt);
        NS_LOG_INFO("island " << m_islandId << " round " << s.msg.round << ": " << asked
                              << " missing sums requested at the timeout");
    }
    else
    {
        // Resend at once what the receivers are known to miss and was last sent more than a
        // round trip ago (its retransmission was lost and nothing sent later drew an ack).
        uint32_t queued = s.state.QueueKnownLost(Simulator::Now().GetSeconds() - s.srtt);
        if (s.parity)
        {
            // Parity repair: parity of the blocks receivers still need that left more than a
            // round trip ago without an ack telling it arrived counts as lost (a failed
            // repair: the next one aims higher): send more now (after the last new segment
            // it also draws whole-message acks, as a tail probe).
            const double lostBefore = Simulator::Now().GetSeconds() - s.srtt;
            for (uint32_t b : s.parity->repair.Pending())
            {
                s.parity->repair.OnTimeout(b, lostBefore);
            }
            for (uint32_t b : s.parity->repair.Pending())
            {
                uint32_t due = s.parity->repair.Due(b, lostBefore, JointRepairs(s));
                uint32_t& inQueue = s.parity->queued[b];
                for (uint32_t i = inQueue; i < due; ++i)
                {
                    s.parity->queue.push_back(b);
                }
                queued += due > inQueue ? due - inQueue : 0;
                inQueue = std::max(inQueue, due);
            }
        }
        if (queued > 0)
        {
            NS_LOG_INFO("island " << m_islandId << " round " << s.msg.round << ": " << queued
                                  << " segments known lost queued at the timeout");
            Resume(handle);
        }
        // Where the acks left segments unreported (the tail itself lost, or lost acks), resend
        // the last segment as a probe: it carries data and, flagged FLAG_TAIL, draws an ack
        // describing the whole message from every receiver (a poll would cost a round trip
        // more before the repair). Poll only if no receiver may lack the last segment.
        bool unreported = queued == 0 || s.state.HasUnreported();
        if (unreported && s.state.AllNewSent() && s.state.QueueTailProbe())
        {
            NS_LOG_INFO("island " << m_islandId << " round " << s.msg.round
                                  << ": tail probe (last segment resent)");
            unreported = false;
            Resume(handle);
        }
        for (uint32_t r : unreported ? s.state.PendingReceivers() : std::vector<uint32_t>{})
        {
            IslandHeader h;
            h.type = IslandHeader::POLL;
            h.island = static_cast<uint16_t>(m_islandId);
            h.origin = static_cast<uint16_t>(m_islandId);
            h.extra = s.msg.tag;
            h.round = s.msg.round;
            h.count = s.state.Count();
            h.timestamp = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
            SendControl(h, Create<Packet>(), m_directory.at(r));
        }
    }
    s.backoff = std::min<uint32_t>(s.backoff * 2, 64);
    ArmRto(handle);
}

InetSocketAddress
UdpTransport::DataAddress(Ipv4Address to, uint16_t port) const
{
    InetSocketAddress address(to, port);
    // Data is ECN-capable (RFC 3168: ECT on data only, not on acks and polls).
    address.SetTos(m_ecn ? kEct0 : 0);
    return address;
}

void
UdpTransport::SendControl(const IslandHeader& h, Ptr<Packet> payload, Ipv4Address to)
{
    payload->AddHeader(h);
    m_socket->SendTo(payload, 0, InetSocketAddress(to, m_port));
}

void
UdpTransport::HandleRead(Ptr<Socket> socket)
{
    Ptr<Packet> packet;
    Address from;
    while ((packet = socket->RecvFrom(from)))
    {
        SocketIpTosTag tos;
        bool ce = packet->RemovePacketTag(tos) && (tos.GetTos() & 0x03) == kCe;
        if (packet->GetSize() < IslandHeader::SERIALIZED_SIZE)
        {
            continue;
        }
        IslandHeader h;
        packet->RemoveHeader(h);
        switch (h.type)
        {
        case IslandHeader::DATA:
            HandleData(h, packet, ce);
            break;
        case IslandHeader::RESULT:
            HandleResult(h, packet, ce);
            break;
        case IslandHeader::ACK:
            HandleAck(h, packet);
            break;
        case IslandHeader::POLL:
            HandlePoll(h);
            break;
        case IslandHeader::RESEND:
            HandleResend(h);
            break;
        case IslandHeader::PARITY:
            HandleParity(h, packet, ce);
            break;
        default:
            NS_LOG_WARN("island " << m_islandId << ": unexpected packet type "
                                  << static_cast<int>(h.type));
        }
    }
}

void
UdpTransport::StoreValues(InStream& in, const IslandHeader& h, Ptr<Packet> packet)
{
    if (!(h.flags & IslandHeader::FLAG_VALUES))
    {
        return;
    }
    bool fixed = h.type != IslandHeader::DATA;
    uint32_t width = fixed ? 4 : 8;
    uint32_t perSegment = ValuesPerSegment(fixed ? IslandHeader::CONTRIBUTION : IslandHeader::DATA);
    uint64_t first = static_cast<uint64_t>(h.seq) * perSegment;
    std::vector<uint8_t> buf(packet->GetSize());
    packet->CopyData(buf.data(), buf.size());
    uint32_t n = std::min<uint32_t>(perSegment, static_cast<uint32_t>(buf.size() / width));
    std::vector<double>& values = in.msg.values;
    if (values.size() < first + n)
    {
        values.resize(first + n, 0.0);
    }
    if (!fixed)
    {
        std::memcpy(values.data() + first, buf.data(), n * sizeof(double));
        return;
    }
    FixedPoint fp(static_cast<int>(m_fixedPointBits));
    for (uint32_t i = 0; i < n; ++i)
    {
        int32_t q;
        std::memcpy(&q, buf.data() + 4 * i, 4);
        values[first + i] = fp.Decode(q);
    }
}

void
UdpTransport::HandleData(const IslandHeader& h, Ptr<Packet> packet, bool ce)
{
    if (h.count == 0 || h.seq >= h.count || !m_accept ||
        !m_accept(h.round, h.origin, h.extra, h.type, h.flags))
    {
        return; // not a message this island waits for (e.g. transit multicast), or garbage
    }
    InStream& in = m_in[InKey(h.round, h.origin, h.extra)];
    in.state.SetCount(h.count);
    // A stream's packets follow one path in order: a new segment beyond the highest one seen
    // plus one means the segments between were lost. Say so at once (repair starts one
    // one-way trip after the gap is known, not at the next periodic ack or a timer).
    bool gap = h.seq > in.state.Highest();
    bool isNew = in.state.Add(h.seq);
    in.ce = in.ce || ce;
    if (isNew)
    {
        TakeSegment(in, h, packet);
        // Parity held for this segment's block may suffice now (parity that arrived while
        // more of the block was missing, then a resent data segment): decode at once. The
        // sender counts the held parity as a repair and sends no more for the block, so
        // waiting for another parity segment would wait for ever.
        if (in.parityBlock > 0 && !in.parityHeld.empty())
        {
            RecoverBlock(in, h, h.seq / in.parityBlock);
        }
    }
    bool complete = in.state.Complete();
    bool last = h.seq + 1 == h.count;
    uint32_t every = m_ackInterval ? m_ackInterval : DefaultAckInterval();
    bool tail = (h.flags & IslandHeader::FLAG_TAIL) != 0;
    if (!isNew || complete || last || ce || gap || in.sinceAck >= every ||
        (h.flags & IslandHeader::FLAG_RETRANSMISSION))
    {
        SendAck(h.round, h.origin, h.extra, in, h.timestamp, last || tail);
    }
    DeliverIfComplete(in, h.round, h.origin, h.extra);
}

void
UdpTransport::TakeSegment(InStream& in, const IslandHeader& h, Ptr<Packet> packet)
{
    uint32_t payload = packet->GetSize();
    ++in.sinceAck;
    in.msg.bytes += payload;
    in.msg.flags |= h.flags & ~(IslandHeader::FLAG_RETRANSMISSION | IslandHeader::FLAG_TAIL |
                                IslandHeader::FLAG_PARITY_REPAIR);
    StoreValues(in, h, packet);
    if (m_received)
    {
        m_received(h.round, h.origin, h.seq, payload, packet);
    }
}

void
UdpTransport::DeliverIfComplete(InStream& in, uint32_t round, uint32_t origin, uint16_t tag)
{
    if (in.state.Complete() && !in.delivered)
    {
        in.delivered = true;
        in.parityHeld.clear();
        in.msg.round = round;
        in.msg.tag = tag;
        in.msg.origin = origin;
        in.msg.type = IslandHeader::DATA;
        InMessage msg = std::move(in.msg);
        in.msg = InMessage();
        m_deliver(msg);
    }
}

bool
UdpTransport::RecoverBlock(InStream& in, const IslandHeader& h, uint32_t block)
{
    auto heldIt = in.parityHeld.find(block);
    if (heldIt == in.parityHeld.end() || in.parityBlock == 0)
    {
        return false;
    }
    const BlockFill fill = FillOf(in.state, block, in.parityBlock);
    if (fill.Size() == 0)
    {
        return false;
    }
    if (fill.received == fill.Size())
    {
        in.parityHeld.erase(heldIt); // data completed the block
        return false;
    }
    if (!ParityRepair::Decodable(fill.Size(), fill.received, heldIt->second))
    {
        return false;
    }
    // Recover the block's missing segments. The erasure code's arithmetic is idealised:
    // their payload is rebuilt from the sender's block (values exact by construction).
    auto src = ParitySources().find(std::make_tuple(h.origin, h.round, h.extra));
    UdpTransport* sender = src == ParitySources().end() ? nullptr : src->second.sender;
    auto out = sender ? sender->m_out.find(src->second.handle) : m_out.end();
    if (!sender || out == sender->m_out.end())
    {
        return false;
    }
    const OutMessage& m = out->second.msg;
    for (uint32_t q = fill.first; q < fill.end; ++q)
    {
        if (in.state.Has(q))
        {
            continue;
        }
        in.state.Add(q);
        ++m_parityRecovered;
        IslandHeader d = h;
        d.type = IslandHeader::DATA;
        d.seq = q;
        d.flags = m.flags;
        if (m.values.data &&
            static_cast<uint64_t>(q) * sender->ValuesPerSegment(m.type) < m.values.count)
        {
            d.flags |= IslandHeader::FLAG_VALUES;
        }
        TakeSegment(in, d, sender->MakePayload(m, q));
    }
    in.parityHeld.erase(block);
    return true;
}

void
UdpTransport::HandleParity(const IslandHeader& h, Ptr<Packet> packet, bool ce)
{
    if (h.count == 0 || packet->GetSize() < 4 || !m_accept ||
        !m_accept(h.round, h.origin, h.extra, IslandHeader::DATA,
                  h.flags & ~(IslandHeader::FLAG_PARITY_REPAIR | IslandHeader::FLAG_RETRANSMISSION)))
    {
        return;
    }
    uint8_t head[4];
    packet->CopyData(head, 4);
    uint32_t block = (uint32_t{head[0]} << 24) | (uint32_t{head[1]} << 16) |
                     (uint32_t{head[2]} << 8) | head[3];
    uint64_t first = static_cast<uint64_t>(h.seq) * block;
    if (block == 0 || first >= h.count)
    {
        return; // garbage
    }
    InStream& in = m_in[InKey(h.round, h.origin, h.extra)];
    in.state.SetCount(h.count);
    // A parity segment this island does not need still draws an ack, as a duplicate data
    // segment does: the sender repairs from what the acks told it, and when the acks that
    // reported the block (or the message) whole were lost, parity that draws none would be
    // sent forever (the stream never learns that this receiver is done).
    const bool tailFlag = (h.flags & IslandHeader::FLAG_TAIL) != 0;
    if (in.state.Complete())
    {
        SendAck(h.round, h.origin, h.extra, in, h.timestamp, tailFlag);
        return;
    }
    in.parityBlock = block;
    in.ce = in.ce || ce;
    const BlockFill fill = FillOf(in.state, h.seq, block);
    if (fill.received == fill.Size())
    {
        // Nothing of this block is missing here (the ack says so: see above).
        SendAck(h.round, h.origin, h.extra, in, h.timestamp, tailFlag);
        return;
    }
    uint32_t held = ++in.parityHeld[h.seq];
    NS_LOG_LOGIC("island " << m_islandId << " round " << h.round << ": parity of block "
                           << h.seq << " from " << h.origin << ", " << fill.received << " of "
                           << fill.Size() << " data segments and " << held << " parity held");
    RecoverBlock(in, h, h.seq);
    // Every parity segment of a block still incomplete here draws an ack (as a resend does):
    // the sender learns what is still missing, and what is held, one trip after.
    SendAck(h.round, h.origin, h.extra, in, h.timestamp, tailFlag);
    DeliverIfComplete(in, h.round, h.origin, h.extra);
}

UdpTransport::Stream*
UdpTransport::FindByDest(uint32_t round, uint32_t destTag, uint16_t tag)
{
    auto it = m_byDest.find(std::make_tuple(round, destTag, tag));
    return it == m_byDest.end() ? nullptr : &m_out.at(it->second);
}

void
UdpTransport::HandleResult(const IslandHeader& h, Ptr<Packet> packet, bool ce)
{
    // Sums answer this island's contribution stream to that aggregator in that round.
    Stream* s = FindByDest(h.round, h.island, 0);
    uint64_t key = InKey(h.round, h.island, 0);
    auto existing = m_in.find(key);
    if (!s && existing == m_in.end())
    {
        return; // e.g. the sums of another clique the same FPGA serves, passing through
    }
    if (h.count == 0 || h.seq >= h.count ||
        (s && (h.extra != s->msg.cliqueKey || h.count != s->state.Count())))
    {
        return;
    }
    if ((h.flags & IslandHeader::FLAG_TAIL) && packet->GetSize() == 0)
    {
        // The root's end-of-sums marker (header only, after the clique's last sum on the same
        // tree): every sum missing here was lost (or is being resent): ask for them at once
        // rather than after the sums stalled for a request round trip.
        if (s)
        {
            s->sumsEnded = true;
            uint32_t asked = RequestSums(*s, s->state.NextNew(), Simulator::Now().GetSeconds());
            NS_LOG_LOGIC("island " << m_islandId << " round " << h.round << ": end of sums, "
                                   << asked << " missing sums requested");
            ArmSumRequest(s->handle);
        }
        return;
    }
    InStream& in = m_in[key];
    in.state.SetCount(h.count);
    bool fresh = in.state.Add(h.seq);
    NS_LOG_LOGIC("island " << m_islandId << " sum " << h.seq << " of round " << h.round
                           << (fresh ? " new" : " duplicate")
                           << ((h.flags & IslandHeader::FLAG_RETRANSMISSION) ? " (resent)" : ""));
    if (fresh)
    {
        in.msg.bytes += packet->GetSize();
        in.msg.overflows += (h.flags & IslandHeader::FLAG_OVERFLOW) ? 1 : 0;
        in.msg.flags |= h.flags & ~IslandHeader::FLAG_RETRANSMISSION;
        StoreValues(in, h, packet);
        if (m_received)
        {
            m_received(h.round, h.island, h.seq, packet->GetSize(), packet);
        }
    }
    if (s)
    {
        // A sum acknowledges this island's contribution (sums come back in segment order
        // unless something was lost).
        double now = Simulator::Now().GetSeconds();
        s->sumDelay = std::max(s->sumDelay, now - static_cast<double>(h.timestamp) * 1e-9);
        if (fresh)
        {
            s->lastProgress = Simulator::Now();
            if (h.flags & IslandHeader::FLAG_RETRANSMISSION)
            {
                ++s->sumsRepaired; // its multicast copy was lost on the way here
            }
            if (!s->state.WasRetransmitted(h.seq))
            {
                RttSample(*s, s->destTag, now - s->state.SentAt(h.seq));
            }
        }
        s->highest[s->destTag] = in.state.Highest();
        Feedback fb;
        // Sums acknowledge contributions cumulatively; a missing sum below this one is asked
        // for (header-only, RequestSums) if its contribution or last request left before this
        // sum's contribution: the FPGA then resends the sum, or asks for the contribution it
        // lacks. Contributions are resent only when an FPGA asks (HandleResend).
        fb.progress = s->state.OnAck(s->destTag, in.state.Cumulative(), {},
                                     -std::numeric_limits<double>::infinity());
        RequestSums(*s, in.state.Highest(), s->state.SentAt(h.seq));
        ArmSumRequest(s->handle);
        fb.ecn = ce || (h.flags & IslandHeader::FLAG_ECN_ECHO);
        fb.markedSeq = h.seq;
        if (fb.ecn)
        {
            ++m_ecnEchoes;
            m_ecnEchoTrace(s->msg.round);
        }
        if (fb.progress)
        {
            s->backoff = 1;
        }
        uint64_t handle = s->handle;
        OnFeedback(*s, fb);
        if (s->state.Complete())
        {
            Finish(handle);
        }
        else
        {
            Resume(handle);
            if (fb.progress && (s->state.AllNewSent() || s->rtoEvent.IsRunning()))
            {
                ArmRto(handle); // restart the timer on progress
            }
        }
    }
    if (in.state.Complete() && !in.delivered)
    {
        in.delivered = true;
        in.msg.round = h.round;
        in.msg.tag = 0;
        in.msg.origin = h.island;
        in.msg.type = IslandHeader::RESULT;
        InMessage msg = std::move(in.msg);
        in.msg = InMessage();
        m_deliver(msg);
    }
}

void
UdpTransport::HandleResend(const IslandHeader& h)
{
    Stream* s = FindByDest(h.round, h.island, 0);
    if (!s || h.seq >= s->state.Count() || h.extra != s->msg.cliqueKey)
    {
        return;
    }
    // The FPGA asked at h.timestamp; whatever this member sent more than the request's
    // one-way delay before that had reached it. A copy sent later crossed the request: it is
    // in flight, not lost, and resending it would only make a duplicate.
    double now = Simulator::Now().GetSeconds();
    double askedAt = h.timestamp > 0 ? static_cast<double>(h.timestamp) * 1e-9 : now;
    double crossed = askedAt - std::max(0.0, now - askedAt);
    NS_LOG_LOGIC("island " << m_islandId << " asked for contribution " << h.seq << " (last sent "
                           << s->state.SentAt(h.seq) << " s, crossing before " << crossed << ")");
    if (s->state.SentAt(h.seq) >= crossed)
    {
        return;
    }
    // Bounded: an FPGA that keeps asking (e.g. because a member fell back) cannot make this
    // member resend forever.
    uint32_t& asked = m_resendRequests[{s->handle, h.seq}];
    if (asked >= m_maxResendRequests)
    {
        return;
    }
    std::size_t queuedBefore = s->state.QueuedRetransmissions();
    s->state.OnAck(h.island, 0, {{h.seq, 1}}, crossed);
    Feedback fb;
    fb.lost = static_cast<uint32_t>(
        std::max<std::size_t>(s->state.QueuedRetransmissions(), queuedBefore) - queuedBefore);
    // Counted when it queues a resend: the copies of one request (FpgaAggregator sends a
    // request in copies on a lossy path) find the segment queued already.
    asked += fb.lost > 0 ? 1 : 0;
    if (fb.lost > 0 && asked == 1)
    {
        // The first resend goes out in as many copies as the measured loss of the path to
        // the FPGA needs for one of them to arrive (95%): a lost resend costs a round trip.
        ++s->contributionsAsked;
        s->state.SetMinRepairCopies(
            RepairCopiesFor(s->contributionsAsked, s->state.NextNew(), 0.05, RepairCopies()));
    }
    fb.lostHighest = s->state.LastQueuedHighest();
    if (fb.lost > 0)
    {
        OnFeedback(*s, fb); // a lost contribution: a congestion window hears of it
    }
    Resume(s->handle);
}

double
UdpTransport::RequestRtt(const Stream& s) const
{
    return s.sumDelay > 0 ? std::max(m_minRto.GetSeconds(), 2.5 * s.sumDelay + 1e-3) : s.srtt;
}

void
UdpTransport::ArmSumRequest(uint64_t handle)
{
    auto it = m_out.find(handle);
    if (it == m_out.end() || it->second.requestEvent.IsRunning())
    {
        return;
    }
    it->second.requestEvent = Simulator::Schedule(Seconds(RequestRtt(it->second)),
                                                  &UdpTransport::OnSumRequestTimer, this, handle);
}

void
UdpTransport::OnSumRequestTimer(uint64_t handle)
{
    auto it = m_out.find(handle);
    if (it == m_out.end() || !m_socket)
    {
        return;
    }
    Stream& s = it->second;
    auto in = m_in.find(InKey(s.msg.round, s.destTag, 0));
    if (in == m_in.end())
    {
        return;
    }
    // Gaps below the highest sum received are asked for; the next sum due (tail loss) only
    // when no new sum has come for a request round trip (sums stalled, not merely queued;
    // the root's end-of-sums marker reports a lost tail at once, see HandleResult).
    double now = Simulator::Now().GetSeconds();
    uint32_t due = in->second.state.Highest();
    // The timer was armed one RequestRtt ago, and RequestRtt may have grown since (it follows
    // the largest sum delay seen): what was asked when it was armed is due again now, not one
    // more period later (kRequestSlack).
    const double period = kRequestSlack * RequestRtt(s);
    if (s.sumsEnded)
    {
        // After the root's end-of-sums marker every sum exists: those above the highest one
        // received were lost too (or their requests were), not merely not sent yet. Asked
        // for all at once: one at a time, each after a stall of a period, SIN's last two sums
        // took 0.55 s each (30 MB, all-in-one, 5%).
        due = s.state.NextNew();
    }
    else if (now - s.lastProgress.GetSeconds() >= period)
    {
        due = std::min(s.state.NextNew(), due + 1);
    }
    RequestSums(s, due, now - period);
    if (in->second.state.Cumulative() < s.state.NextNew())
    {
        ArmSumRequest(handle);
    }
}

uint32_t
UdpTransport::RequestSums(Stream& s, uint32_t upTo, double sentBefore)
{
    auto in = m_in.find(InKey(s.msg.round, s.destTag, 0));
    if (in == m_in.end() || !m_socket)
    {
        return 0; // no sum at all yet: the first ones are still due
    }
    const IncomingTransfer& got = in->second.state;
    double now = Simulator::Now().GetSeconds();
    upTo = std::min(upTo, s.state.NextNew());
    std::vector<std::pair<uint32_t, uint32_t>> due; // (segment, times asked before)
    for (const auto& [first, length] : got.Missing(upTo, NackRanges()))
    {
        for (uint64_t seq = first; seq < static_cast<uint64_t>(first) + length && seq < upTo;
             ++seq)
        {
            auto it = s.sumRequested.find(static_cast<uint32_t>(seq));
            double last = s.state.SentAt(static_cast<uint32_t>(seq));
            uint32_t times = 0;
            if (it != s.sumRequested.end())
            {
                if (now - it->second.first < kRequestSlack * RequestRtt(s))
                {
                    continue; // asked within the last round trip: the answer may be on its way
                }
                last = std::max(last, it->second.first);
                times = it->second.second;
            }
            if (last >= sentBefore)
            {
                continue;
            }
            due.emplace_back(static_cast<uint32_t>(seq), times);
        }
    }
    // Many sums missing at once are mostly delayed (an input of their slots is being
    // recovered), not lost: one copy each, so that requests never flood the path. Once the
    // root's end-of-sums marker came, every sum exists at the root and one missing here was
    // lost (or its request or answer was): asked for in copies however many are missing.
    const bool inCopies = due.size() <= kMaxRedundantRequests || s.sumsEnded;
    for (const auto& [seq, times] : due)
    {
        IslandHeader h;
        h.type = IslandHeader::RESEND;
        h.island = static_cast<uint16_t>(m_islandId);
        h.origin = static_cast<uint16_t>(m_islandId);
        h.extra = s.msg.cliqueKey;
        h.round = s.msg.round;
        h.seq = seq;
        h.count = s.state.Count();
        h.timestamp = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(h);
        // A request asked again goes out in copies (2 from the second, 4 from the third
        // time: a far member's request and its answer are both lossy; the FPGAs answer
        // copies arriving together once), and from the first time in as many as the
        // measured loss of sums (sums that came only as resends: the path back, the same
        // links) needs for one to arrive (99.9%; header only).
        uint32_t copies = 1;
        if (inCopies)
        {
            copies = times >= 2 ? 4 : (times == 1 ? 2 : 1);
            copies = std::max(copies, RepairCopiesFor(s.sumsRepaired, got.Received(), 1e-3, 6));
        }
        // Through the local flow control: a burst of requests (hundreds of sums missing at
        // the end-of-sums marker, in copies) must not overflow this host's own queue.
        for (uint32_t c = 0; c < copies; ++c)
        {
            m_pacer.Send(m_socket, c + 1 < copies ? p->Copy() : p,
                         InetSocketAddress(s.msg.dest, s.port), true);
        }
        s.sumRequested[seq] = {now, times + 1};
        NS_LOG_LOGIC("island " << m_islandId << " asks for sum " << seq << " of round "
                               << s.msg.round << " (" << copies << " copies, sum delay "
                               << s.sumDelay << " s)");
    }
    uint32_t requested = static_cast<uint32_t>(due.size());
    return requested;
}

void
UdpTransport::SendAck(uint32_t round,
                      uint32_t origin,
                      uint16_t tag,
                      InStream& in,
                      uint64_t echo,
                      bool full)
{
    in.sinceAck = 0;
    uint32_t upTo = full ? in.state.Count() : in.state.Highest();
    uint32_t cumulative = in.state.Cumulative();
    // The ack describes [cumulative, end): every missing segment there up to DescribedRanges()
    // ranges (cut there: end is the end of the last one), as ranges while they fit in one
    // segment, else as a bitmap. Ranges alone fit (segment - 2) / 8 in one ack: at high loss (a 12-hop path
    // at 5% per link loses 46%) that is ~1000 gaps, a few thousand segments past the
    // cumulative ack, and the sender learnt of the later losses only as the earlier ones were
    // repaired, a few thousand segments per round trip (100 MB took 8 round trips of repair
    // instead of 4). A bitmap describes 8 x (segment - 4) segments whatever the loss.
    const uint32_t limit = DescribedRanges();
    auto missing = in.state.Missing(upTo, limit);
    uint32_t end = std::max(upTo, cumulative);
    if (missing.size() >= limit)
    {
        end = missing.back().first + missing.back().second;
    }
    const std::size_t room = std::max<uint32_t>(m_segmentSize, 16);
    const std::size_t rangeBytes = 2 + 8 * missing.size();
    const uint64_t span = end - cumulative;
    IslandHeader h;
    h.type = IslandHeader::ACK;
    h.flags = in.ce ? IslandHeader::FLAG_ECN_ECHO : 0;
    in.ce = false;
    h.island = static_cast<uint16_t>(m_islandId);
    h.origin = static_cast<uint16_t>(origin);
    h.extra = tag;
    h.round = round;
    h.seq = cumulative;
    h.count = in.state.Highest();
    h.timestamp = echo;
    std::vector<uint8_t> buf;
    if (rangeBytes <= room)
    {
        buf.assign(rangeBytes, 0);
        buf[0] = static_cast<uint8_t>(missing.size() >> 8);
        buf[1] = static_cast<uint8_t>(missing.size());
        for (std::size_t i = 0; i < missing.size(); ++i)
        {
            for (int b = 0; b < 4; ++b)
            {
                buf[2 + 8 * i + b] = static_cast<uint8_t>(missing[i].first >> (24 - 8 * b));
                buf[2 + 8 * i + 4 + b] =
                    static_cast<uint8_t>(missing[i].second >> (24 - 8 * b));
            }
        }
    }
    else
    {
        // Bitmap over [cumulative, cumulative + bits), cut to what fits in one segment.
        uint32_t bits = static_cast<uint32_t>(std::min<uint64_t>(span, 8 * (room - 4)));
        h.flags |= IslandHeader::FLAG_NACK_BITMAP;
        buf.assign(4 + (bits + 7) / 8, 0);
        for (int b = 0; b < 4; ++b)
        {
            buf[b] = static_cast<uint8_t>(bits >> (24 - 8 * b));
        }
        for (const auto& [first, length] : missing)
        {
            for (uint64_t q = first; q < static_cast<uint64_t>(first) + length; ++q)
            {
                uint64_t i = q - cumulative;
                if (i >= bits)
                {
                    break;
                }
                buf[4 + i / 8] |= static_cast<uint8_t>(0x80u >> (i % 8));
            }
        }
    }
    if (!in.parityHeld.empty() && in.parityBlock > 0)
    {
        // Parity held per block not yet recovered, as many entries as fit in a segment.
        std::size_t room = m_segmentSize > buf.size() + 2 ? (m_segmentSize - buf.size() - 2) / 8 : 0;
        std::vector<std::pair<uint32_t, uint32_t>> held;
        for (auto it = in.parityHeld.begin(); it != in.parityHeld.end() && held.size() < room;)
        {
            const BlockFill fill = FillOf(in.state, it->first, in.parityBlock);
            if (fill.received == fill.Size())
            {
                it = in.parityHeld.erase(it); // data completed the block meanwhile
                continue;
            }
            held.emplace_back(it->first, it->second);
            ++it;
        }
        if (!held.empty())
        {
            h.flags |= IslandHeader::FLAG_PARITY_REPAIR;
            std::size_t at = buf.size();
            buf.resize(at + 2 + 8 * held.size());
            buf[at] = static_cast<uint8_t>(held.size() >> 8);
            buf[at + 1] = static_cast<uint8_t>(held.size());
            for (std::size_t i = 0; i < held.size(); ++i)
            {
                for (int b = 0; b < 4; ++b)
                {
                    buf[at + 2 + 8 * i + b] =
                        static_cast<uint8_t>(held[i].first >> (24 - 8 * b));
                    buf[at + 2 + 8 * i + 4 + b] =
                        static_cast<uint8_t>(held[i].second >> (24 - 8 * b));
                }
            }
        }
    }
    SendControl(h, Create<Packet>(buf.data(), buf.size()), m_directory.at(origin));
}

void
UdpTransport::HandleAck(const IslandHeader& h, Ptr<Packet> packet)
{
    // Acks name the stream by (round, our island, tag) and the acknowledging island; a
    // unicast stream is keyed by its peer, a multicast stream by GROUP_TAG.
    Stream* s = FindByDest(h.round, h.island, h.extra);
    if (!s)
    {
        s = FindByDest(h.round, GROUP_TAG, h.extra);
    }
    if (!s)
    {
        return; // already complete
    }
    std::vector<uint8_t> buf(packet->GetSize());
    packet->CopyData(buf.data(), buf.size());
    std::vector<OutgoingTransfer::Range> nacks;
    std::size_t at = 0;
    // How far the ack describes the stream (every segment below is acked or NACKed).
    uint32_t known = std::min(h.count, s->state.Count());
    if (h.flags & IslandHeader::FLAG_NACK_BITMAP)
    {
        uint32_t bits = 0;
        for (int b = 0; b < 4 && b < static_cast<int>(buf.size()); ++b)
        {
            bits = (bits << 8) | buf[b];
        }
        bits = static_cast<uint32_t>(
            std::min<uint64_t>(bits, 8 * (buf.size() >= 4 ? buf.size() - 4 : 0)));
        for (uint32_t i = 0; i < bits;)
        {
            if (!(buf[4 + i / 8] & (0x80u >> (i % 8))))
            {
                ++i;
                continue;
            }
            uint32_t first = i;
            while (i < bits && (buf[4 + i / 8] & (0x80u >> (i % 8))))
            {
                ++i;
            }
            nacks.emplace_back(h.seq + first, i - first);
        }
        at = 4 + (bits + 7) / 8;
        known = static_cast<uint32_t>(
            std::min<uint64_t>(static_cast<uint64_t>(h.seq) + bits, s->state.Count()));
    }
    else
    {
        std::size_t ranges = buf.size() >= 2 ? (std::size_t{buf[0]} << 8) | buf[1] : 0;
        for (std::size_t i = 0; i < ranges && 2 + 8 * i + 8 <= buf.size(); ++i)
        {
            uint32_t first = 0;
            uint32_t length = 0;
            for (int b = 0; b < 4; ++b)
            {
                first = (first << 8) | buf[2 + 8 * i + b];
                length = (length << 8) | buf[2 + 8 * i + 4 + b];
            }
            nacks.emplace_back(first, length);
        }
        at = 2 + 8 * ranges;
        // The ranges describe every segment up to the highest the receiver saw, or, when the
        // list was cut at DescribedRanges(), up to the end of its last range.
        if (!nacks.empty())
        {
            uint64_t lastEnd = static_cast<uint64_t>(nacks.back().first) + nacks.back().second;
            uint32_t end = static_cast<uint32_t>(std::min<uint64_t>(lastEnd, s->state.Count()));
            known = nacks.size() >= DescribedRanges() ? std::min(known, end)
                                                      : std::max(known, end);
        }
    }
    std::map<uint32_t, uint32_t> held; // parity held per unrecovered block (parity repair)
    if ((h.flags & IslandHeader::FLAG_PARITY_REPAIR) && at + 2 <= buf.size())
    {
        std::size_t n = (std::size_t{buf[at]} << 8) | buf[at + 1];
        for (std::size_t i = 0; i < n && at + 2 + 8 * i + 8 <= buf.size(); ++i)
        {
            uint32_t block = 0;
            uint32_t count = 0;
            for (int b = 0; b < 4; ++b)
            {
                block = (block << 8) | buf[at + 2 + 8 * i + b];
                count = (count << 8) | buf[at + 2 + 8 * i + 4 + b];
            }
            held[block] = count;
        }
    }
    double now = Simulator::Now().GetSeconds();
    if (h.timestamp > 0)
    {
        RttSample(*s, h.island, now - static_cast<double>(h.timestamp) * 1e-9);
    }
    uint32_t& high = s->highest[h.island];
    high = std::max(high, std::min(h.count, s->state.Count()));
    std::size_t queuedBefore = s->state.QueuedRetransmissions();
    Feedback fb;
    fb.progress = s->state.OnAck(h.island, h.seq, nacks,
                                 static_cast<double>(h.timestamp) * 1e-9, known);
    fb.lost = static_cast<uint32_t>(
        std::max<std::size_t>(s->state.QueuedRetransmissions(), queuedBefore) - queuedBefore);
    fb.lostHighest = s->state.LastQueuedHighest();
    if (s->parity)
    {
        // Losses repaired by parity are congestion signals like resent ones (the window's
        // loss cut keys on lostHighest; set before the parity, it was overwritten here and a
        // congestion-controlled multicast never cut its window on loss).
        int64_t highest = -1;
        fb.lost += QueueParity(*s, h.island, held, static_cast<double>(h.timestamp) * 1e-9,
                               highest);
        fb.lostHighest = std::max(fb.lostHighest, highest);
    }
    fb.ecn = (h.flags & IslandHeader::FLAG_ECN_ECHO) != 0;
    fb.markedSeq = h.count > 0 ? h.count - 1 : 0;
    if (fb.ecn)
    {
        ++m_ecnEchoes;
        m_ecnEchoTrace(s->msg.round);
    }
    if (fb.progress)
    {
        s->backoff = 1;
        s->lastProgress = Simulator::Now();
    }
    uint64_t handle = s->handle;
    OnFeedback(*s, fb);
    if (s->state.Complete())
    {
        Finish(handle);
        return;
    }
    if (RepairQueued(*s) || !s->state.AllNewSent())
    {
        Resume(handle);
    }
    if (fb.progress && (s->state.AllNewSent() || s->rtoEvent.IsRunning()))
    {
        ArmRto(handle); // restart the timer on progress
    }
}

uint32_t
UdpTransport::QueueParity(Stream& s,
                          uint32_t receiver,
                          const std::map<uint32_t, uint32_t>& held,
                          double echo,
                          int64_t& highest)
{
    ParityRepair& pr = s.parity->repair;
    uint32_t count = s.state.Count();
    uint32_t described = std::min(s.state.Described(receiver), s.state.NextNew());
    // Only blocks every segment of which was sent and the receiver's acks describe entirely
    // (a real code needs the whole block to compute its parity).
    uint32_t blocks = described >= count ? pr.Blocks() : described / pr.Block();
    // Loss to this receiver, sampled once per block when first described.
    uint32_t& sampled = s.parity->sampled[receiver];
    for (uint32_t b = sampled; b < blocks; ++b)
    {
        uint32_t first = pr.BlockStart(b);
        pr.SampleLoss(receiver, s.state.MissingIn(receiver, first, first + pr.BlockSize(b)),
                      pr.BlockSize(b));
    }
    sampled = std::max(sampled, blocks);
    // Blocks from the first one this receiver may miss segments of (below it, every block
    // was reported complete already).
    uint32_t& from = s.parity->from[receiver];
    uint32_t queued = 0;
    for (uint32_t b = from; b < blocks; ++b)
    {
        uint32_t first = pr.BlockStart(b);
        uint32_t missing = s.state.MissingIn(receiver, first, first + pr.BlockSize(b));
        auto h = held.find(b);
        pr.Report(receiver, b, missing, h == held.end() ? 0 : h->second, echo);
        if (missing == 0)
        {
            from += b == from ? 1 : 0;
            continue;
        }
        uint32_t due = pr.Due(b, -1e300, JointRepairs(s));
        NS_LOG_LOGIC("island " << m_islandId << " round " << s.msg.round << ": receiver "
                               << receiver << " misses " << missing << " of block " << b
                               << ", holds " << (h == held.end() ? 0 : h->second)
                               << " parity; due " << due << ", queued "
                               << s.parity->queued[b]);
        uint32_t& inQueue = s.parity->queued[b];
        if (due > inQueue)
        {
            for (uint32_t i = inQueue; i < due; ++i)
            {
                s.parity->queue.push_back(b);
            }
            queued += due - inQueue;
            inQueue = due;
            highest = std::max<int64_t>(highest, first + pr.BlockSize(b) - 1);
        }
    }
    return queued;
}

uint32_t
UdpTransport::JointRepairs(const Stream& s) const
{
    // Before the last new segment, a failed repair is revealed by the acks of the data that
    // follows it and repaired meanwhile; after it, the pending repairs are the last packets
    // in flight: the message completes only if all of them suffice, and one that fails costs
    // a round trip or a timeout at the end of the transfer.
    return s.state.AllNewSent() ? std::max(1u, s.parity->repair.Needs()) : 1;
}

uint32_t
UdpTransport::SendParity(Stream& s)
{
    uint32_t block = s.parity->queue.front();
    s.parity->queue.pop_front();
    auto q = s.parity->queued.find(block);
    if (q != s.parity->queued.end() && --q->second == 0)
    {
        s.parity->queued.erase(q);
    }
    // A full segment on the wire; its first bytes name the block size (the rest stands for
    // the coded bytes, whose arithmetic is idealised: see HandleParity).
    std::vector<uint8_t> buf(m_segmentSize, 0);
    uint32_t size = s.parity->repair.Block();
    for (int b = 0; b < 4; ++b)
    {
        buf[b] = static_cast<uint8_t>(size >> (24 - 8 * b));
    }
    Ptr<Packet> p = Create<Packet>(buf.data(), buf.size());
    IslandHeader h;
    h.type = IslandHeader::PARITY;
    h.flags = s.msg.flags | IslandHeader::FLAG_RETRANSMISSION | IslandHeader::FLAG_PARITY_REPAIR;
    if (s.state.AllNewSent())
    {
        // As a resend after the last new segment: the acks it draws describe the whole
        // message (losses in the last block, which no later packet reveals).
        h.flags |= IslandHeader::FLAG_TAIL;
    }
    h.island = static_cast<uint16_t>(m_islandId);
    h.origin = static_cast<uint16_t>(m_islandId);
    h.extra = s.msg.tag;
    h.round = s.msg.round;
    h.seq = block;
    h.count = s.state.Count();
    h.timestamp = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
    p->AddHeader(h);
    auto devices = m_groupDevices.find(s.msg.dest);
    m_multicast.Send(p, s.msg.dest, s.port,
                     devices == m_groupDevices.end() ? s.msg.groupDevices : devices->second);
    s.parity->repair.OnSent(block, Simulator::Now().GetSeconds());
    ++m_paritySent;
    ++m_retransmissions;
    NS_LOG_LOGIC("island " << m_islandId << " sends parity of block " << block << " of round "
                           << s.msg.round);
    if (m_sent)
    {
        m_sent(s.msg.round, s.msg.tag, s.parity->repair.BlockStart(block), m_segmentSize, true);
    }
    if (s.state.AllNewSent() && !RepairQueued(s))
    {
        Release(s);
        ArmRto(s.handle);
    }
    return m_segmentSize;
}

void
UdpTransport::HandlePoll(const IslandHeader& h)
{
    if (h.count == 0 || !m_accept || !m_accept(h.round, h.origin, h.extra, IslandHeader::DATA, 0))
    {
        return;
    }
    InStream& in = m_in[InKey(h.round, h.origin, h.extra)];
    in.state.SetCount(h.count);
    SendAck(h.round, h.origin, h.extra, in, h.timestamp, true);
}

} // namespace ns3
