/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-island.h"

#include "wire-format.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/udp-socket-factory.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingIsland");
NS_OBJECT_ENSURE_REGISTERED(TrainingIsland);

TypeId
TrainingIsland::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TrainingIsland")
            .SetParent<Application>()
            .SetGroupName("IntelligentNetwork")
            .AddConstructor<TrainingIsland>()
            .AddAttribute("IslandId",
                          "Id of this island (its index in the directory and the graph).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TrainingIsland::m_islandId),
                          MakeUintegerChecker<uint32_t>(0, GROUP_TAG - 1))
            .AddAttribute("ModelBytes",
                          "Bytes of the model exchanged each round.",
                          UintegerValue(100000000),
                          MakeUintegerAccessor(&TrainingIsland::m_modelBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("SegmentSize",
                          "Model bytes carried by one simulated segment (UDP payload minus our "
                          "28-byte header); IP packet = SegmentSize + 56 must fit the MTU.",
                          UintegerValue(8192),
                          MakeUintegerAccessor(&TrainingIsland::m_segmentSize),
                          MakeUintegerChecker<uint32_t>(4, 65507 - IslandHeader::SERIALIZED_SIZE))
            .AddAttribute("ComputeTime",
                          "Simulated duration of one local step.",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&TrainingIsland::m_computeTime),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("LocalSteps",
                          "Local steps computed at the start of every round.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TrainingIsland::m_localSteps),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Rounds",
                          "Number of rounds to run.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TrainingIsland::m_rounds),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Port",
                          "UDP port of the exchange protocol.",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&TrainingIsland::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("SendRate",
                          "Pacing rate shared by the island's streams when no RateController "
                          "is set (wire rate).",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&TrainingIsland::m_sendRate),
                          MakeDataRateChecker())
            .AddAttribute("AckInterval",
                          "A receiver acks every this many new segments.",
                          UintegerValue(32),
                          MakeUintegerAccessor(&TrainingIsland::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxNackRanges",
                          "Most missing ranges reported in one ack.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&TrainingIsland::m_maxNackRanges),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("MinRto",
                          "Smallest retransmission (poll) timeout.",
                          TimeValue(MilliSeconds(5)),
                          MakeTimeAccessor(&TrainingIsland::m_minRto),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("InitialRtt",
                          "Round-trip estimate before the first sample (see SetRttHint).",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&TrainingIsland::m_initialRtt),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddTraceSource("RoundStarted",
                            "A round started (compute begins).",
                            MakeTraceSourceAccessor(&TrainingIsland::m_roundStarted),
                            "ns3::TrainingIsland::RoundTracedCallback")
            .AddTraceSource("ComputeFinished",
                            "The round's local steps finished; the exchange begins.",
                            MakeTraceSourceAccessor(&TrainingIsland::m_computeFinished),
                            "ns3::TrainingIsland::RoundTracedCallback")
            .AddTraceSource("RoundFinished",
                            "The island holds every peer's model of the round.",
                            MakeTraceSourceAccessor(&TrainingIsland::m_roundFinished),
                            "ns3::TrainingIsland::RoundFinishedTracedCallback")
            .AddTraceSource("SegmentSent",
                            "A segment left the island.",
                            MakeTraceSourceAccessor(&TrainingIsland::m_segmentSent),
                            "ns3::TrainingIsland::SegmentSentTracedCallback")
            .AddTraceSource("SegmentReceived",
                            "A new (not duplicate) segment arrived.",
                            MakeTraceSourceAccessor(&TrainingIsland::m_segmentReceived),
                            "ns3::TrainingIsland::SegmentReceivedTracedCallback")
            .AddTraceSource("ModelReceived",
                            "A peer's whole model of a round arrived.",
                            MakeTraceSourceAccessor(&TrainingIsland::m_modelReceived),
                            "ns3::TrainingIsland::ModelReceivedTracedCallback")
            .AddTraceSource("AllRoundsFinished",
                            "The island finished its last round.",
                            MakeTraceSourceAccessor(&TrainingIsland::m_allRoundsFinished),
                            "ns3::TracedCallback::Void");
    return tid;
}

TrainingIsland::TrainingIsland()
{
    NS_LOG_FUNCTION(this);
}

TrainingIsland::~TrainingIsland()
{
    NS_LOG_FUNCTION(this);
}

void
TrainingIsland::DoDispose()
{
    m_controller = nullptr;
    m_usage = nullptr;
    m_socket = nullptr;
    m_out.clear();
    m_in.clear();
    Application::DoDispose();
}

void
TrainingIsland::SetDirectory(const std::vector<Ipv4Address>& addresses)
{
    m_directory = addresses;
}

void
TrainingIsland::SetPlan(const std::vector<IslandRoundPlan>& period)
{
    m_plan = period;
}

void
TrainingIsland::SetRateController(Ptr<RateController> controller, UsageFunction usage)
{
    m_controller = controller;
    m_usage = usage;
}

void
TrainingIsland::SetRttHint(Time rtt)
{
    m_initialRtt = rtt;
}

void
TrainingIsland::SetRoundGate(Callback<void, uint32_t, uint32_t> gate)
{
    m_gate = gate;
}

uint32_t
TrainingIsland::GetIslandId() const
{
    return m_islandId;
}

uint32_t
TrainingIsland::GetRoundsCompleted() const
{
    return m_completed;
}

bool
TrainingIsland::IsFinished() const
{
    return m_finished;
}

uint32_t
TrainingIsland::GetSegmentCount() const
{
    return static_cast<uint32_t>((m_modelBytes + m_segmentSize - 1) / m_segmentSize);
}

uint32_t
TrainingIsland::GetSegmentPayload(uint32_t seq) const
{
    uint64_t start = static_cast<uint64_t>(seq) * m_segmentSize;
    return static_cast<uint32_t>(std::min<uint64_t>(m_segmentSize, m_modelBytes - start));
}

uint64_t
TrainingIsland::GetRetransmissions() const
{
    return m_retransmissions;
}

uint64_t
TrainingIsland::Key(uint32_t round, uint32_t tag)
{
    return (static_cast<uint64_t>(round) << 32) | tag;
}

const IslandRoundPlan&
TrainingIsland::PlanOf(uint32_t round) const
{
    return m_plan.at(round % m_plan.size());
}

void
TrainingIsland::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_plan.empty(), "TrainingIsland " << m_islandId << ": no round plan set");
    NS_ABORT_MSG_IF(m_islandId >= m_directory.size(),
                    "TrainingIsland " << m_islandId << ": not in the island directory");
    NS_ABORT_MSG_IF(GetSegmentCount() == 0, "TrainingIsland: ModelBytes must be positive");
    if (!m_socket)
    {
        m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
        NS_ABORT_MSG_IF(m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                        "TrainingIsland " << m_islandId << ": cannot bind UDP port " << m_port);
        m_socket->SetRecvCallback(MakeCallback(&TrainingIsland::HandleRead, this));
    }
    if (m_rounds == 0)
    {
        m_finished = true;
        m_allRoundsFinished();
        return;
    }
    StartRound(0);
}

void
TrainingIsland::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_computeEvent.Cancel();
    for (auto& [key, s] : m_out)
    {
        s.sendEvent.Cancel();
        s.rtoEvent.Cancel();
        if (m_controller && !s.released)
        {
            m_controller->Release(s.controllerId);
            s.released = true;
        }
    }
    if (m_socket)
    {
        m_socket->Close();
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket = nullptr;
    }
}

void
TrainingIsland::StartRound(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    m_round = round;
    m_roundStart = Simulator::Now();
    m_computing = true;
    m_exchanging = false;
    m_roundStarted(round);
    m_computeEvent =
        Simulator::Schedule(m_computeTime * m_localSteps, &TrainingIsland::ComputeDone, this, round);
}

void
TrainingIsland::ReleaseRound(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    NS_ABORT_MSG_IF(round != m_completed,
                    "TrainingIsland " << m_islandId << ": released round " << round
                                      << " but has completed " << m_completed);
    if (round >= m_rounds)
    {
        return;
    }
    StartRound(round);
}

void
TrainingIsland::ComputeDone(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    m_computing = false;
    m_exchanging = true;
    m_computeFinished(round);
    const IslandRoundPlan& plan = PlanOf(round);
    if (!plan.peers.empty())
    {
        switch (plan.mode)
        {
        case ExchangeMode::UNICAST:
            for (uint32_t peer : plan.peers)
            {
                OpenStream(round, peer, m_directory.at(peer), IslandHeader::DATA, {peer});
            }
            break;
        case ExchangeMode::MULTICAST:
            OpenStream(round, GROUP_TAG, plan.group, IslandHeader::DATA, plan.peers);
            break;
        case ExchangeMode::AGGREGATION:
            NS_FATAL_ERROR("TrainingIsland: aggregation mode is not available yet");
            break;
        }
    }
    CheckRoundComplete();
}

void
TrainingIsland::CheckRoundComplete()
{
    if (!m_exchanging)
    {
        return;
    }
    const IslandRoundPlan& plan = PlanOf(m_round);
    for (uint32_t peer : plan.peers)
    {
        auto it = m_in.find(Key(m_round, peer));
        if (it == m_in.end() || !it->second.state.Complete())
        {
            return;
        }
    }
    m_exchanging = false;
    uint32_t round = m_round;
    m_completed = round + 1;
    NS_LOG_INFO("island " << m_islandId << " finished round " << round << " at "
                          << Simulator::Now().As(Time::S));
    m_roundFinished(round, m_roundStart, Simulator::Now());
    if (m_completed >= m_rounds)
    {
        m_finished = true;
        m_allRoundsFinished();
        return;
    }
    if (!m_gate.IsNull())
    {
        m_gate(m_islandId, round);
    }
    else
    {
        StartRound(m_completed);
    }
}

void
TrainingIsland::OpenStream(uint32_t round,
                           uint32_t tag,
                           Ipv4Address dest,
                           uint8_t type,
                           const std::vector<uint32_t>& receivers)
{
    uint64_t key = Key(round, tag);
    NS_ABORT_MSG_IF(m_out.count(key), "TrainingIsland: stream opened twice");
    OutStream s{round,
                dest,
                type,
                static_cast<uint16_t>(std::max(0, PlanOf(round).clique)),
                OutgoingTransfer(GetSegmentCount(), receivers),
                0.0,
                0,
                false,
                EventId(),
                EventId(),
                m_initialRtt.GetSeconds(),
                1};
    auto it = m_out.emplace(key, std::move(s)).first;
    if (m_controller)
    {
        it->second.controllerId =
            m_controller->Register(m_usage(PlanOf(round), tag),
                                   MakeCallback(&TrainingIsland::SetStreamRate, this).Bind(key));
    }
    else
    {
        ShareSendRate();
    }
}

void
TrainingIsland::ShareSendRate()
{
    std::size_t active = 0;
    for (const auto& [key, s] : m_out)
    {
        active += s.released ? 0 : 1;
    }
    for (auto& [key, s] : m_out)
    {
        if (!s.released)
        {
            SetStreamRate(key, static_cast<double>(m_sendRate.GetBitRate()) / active);
        }
    }
}

void
TrainingIsland::SetStreamRate(uint64_t key, double rate)
{
    auto it = m_out.find(key);
    if (it == m_out.end())
    {
        return;
    }
    OutStream& s = it->second;
    s.rateBps = rate;
    if (rate > 0 && !s.sendEvent.IsRunning())
    {
        s.sendEvent = Simulator::ScheduleNow(&TrainingIsland::SendNext, this, key);
    }
}

void
TrainingIsland::SendNext(uint64_t key)
{
    auto it = m_out.find(key);
    if (it == m_out.end() || !m_socket)
    {
        return;
    }
    OutStream& s = it->second;
    if (s.rateBps <= 0)
    {
        return;
    }
    uint32_t seq;
    bool retx;
    double now = Simulator::Now().GetSeconds();
    if (!s.state.Next(now, seq, retx))
    {
        if (s.state.AllNewSent())
        {
            ReleaseStream(s);
            ArmRto(key);
        }
        return;
    }
    uint32_t payload = GetSegmentPayload(seq);
    IslandHeader h;
    h.type = s.type;
    h.flags = retx ? IslandHeader::FLAG_RETRANSMISSION : 0;
    h.island = static_cast<uint16_t>(m_islandId);
    h.origin = static_cast<uint16_t>(m_islandId);
    h.extra = s.clique;
    h.round = s.round;
    h.seq = seq;
    h.count = s.state.Count();
    h.timestamp = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
    Ptr<Packet> p = Create<Packet>(payload);
    p->AddHeader(h);
    m_socket->SendTo(p, 0, InetSocketAddress(s.dest, m_port));
    if (retx)
    {
        ++m_retransmissions;
    }
    m_segmentSent(s.round, m_islandId, seq, payload, retx);
    if (s.state.AllNewSent() && !s.state.HasQueuedRetransmissions())
    {
        ReleaseStream(s);
        ArmRto(key);
    }
    double gap = static_cast<double>(WireFormat::WireBytes(payload)) * 8.0 / s.rateBps;
    s.sendEvent = Simulator::Schedule(Seconds(gap), &TrainingIsland::SendNext, this, key);
}

void
TrainingIsland::ReleaseStream(OutStream& s)
{
    if (s.released)
    {
        return;
    }
    s.released = true;
    if (m_controller)
    {
        m_controller->Release(s.controllerId);
    }
    else
    {
        ShareSendRate();
    }
}

void
TrainingIsland::ArmRto(uint64_t key)
{
    auto it = m_out.find(key);
    if (it == m_out.end())
    {
        return;
    }
    OutStream& s = it->second;
    double rto = std::max(m_minRto.GetSeconds(), 2.0 * s.srtt) * s.backoff;
    s.rtoEvent.Cancel();
    s.rtoEvent = Simulator::Schedule(Seconds(rto), &TrainingIsland::OnRto, this, key);
}

void
TrainingIsland::OnRto(uint64_t key)
{
    auto it = m_out.find(key);
    if (it == m_out.end() || !m_socket)
    {
        return;
    }
    OutStream& s = it->second;
    NS_LOG_INFO("island " << m_islandId << " RTO on round " << s.round << " stream to "
                          << s.dest);
    for (uint32_t r : s.state.PendingReceivers())
    {
        IslandHeader h;
        h.type = IslandHeader::POLL;
        h.island = static_cast<uint16_t>(m_islandId);
        h.origin = static_cast<uint16_t>(m_islandId);
        h.round = s.round;
        h.count = s.state.Count();
        h.timestamp = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
        SendControl(h, Create<Packet>(), m_directory.at(r));
    }
    s.backoff = std::min<uint32_t>(s.backoff * 2, 64);
    ArmRto(key);
}

void
TrainingIsland::FinishStream(uint64_t key)
{
    auto it = m_out.find(key);
    if (it == m_out.end())
    {
        return;
    }
    ReleaseStream(it->second);
    it->second.sendEvent.Cancel();
    it->second.rtoEvent.Cancel();
    m_out.erase(it);
}

void
TrainingIsland::SendControl(const IslandHeader& h, Ptr<Packet> payload, Ipv4Address to)
{
    payload->AddHeader(h);
    m_socket->SendTo(payload, 0, InetSocketAddress(to, m_port));
}

void
TrainingIsland::HandleRead(Ptr<Socket> socket)
{
    Ptr<Packet> packet;
    Address from;
    while ((packet = socket->RecvFrom(from)))
    {
        if (packet->GetSize() < IslandHeader::SERIALIZED_SIZE)
        {
            continue;
        }
        IslandHeader h;
        packet->RemoveHeader(h);
        switch (h.type)
        {
        case IslandHeader::DATA:
            HandleData(h, packet);
            break;
        case IslandHeader::ACK:
            HandleAck(h, packet);
            break;
        case IslandHeader::POLL:
            HandlePoll(h);
            break;
        default:
            NS_LOG_WARN("island " << m_islandId << ": unexpected packet type "
                                  << static_cast<int>(h.type));
        }
    }
}

void
TrainingIsland::HandleData(const IslandHeader& h, Ptr<Packet> packet)
{
    if (h.origin == m_islandId || h.count == 0 || h.seq >= h.count)
    {
        return; // our own multicast copy, or garbage
    }
    InStream& in = m_in[Key(h.round, h.origin)];
    in.state.SetCount(h.count);
    bool isNew = in.state.Add(h.seq);
    uint32_t payload = packet->GetSize();
    if (isNew)
    {
        ++in.sinceAck;
        m_segmentReceived(h.round, h.origin, h.seq, payload, packet);
    }
    bool complete = in.state.Complete();
    bool last = h.seq + 1 == h.count;
    if (!isNew || complete || last || in.sinceAck >= m_ackInterval ||
        (h.flags & IslandHeader::FLAG_RETRANSMISSION))
    {
        SendAck(h.round, h.origin, in, h.timestamp, last);
    }
    if (complete && !in.notified)
    {
        in.notified = true;
        m_modelReceived(h.round, h.origin);
        if (h.round == m_round)
        {
            CheckRoundComplete();
        }
    }
}

void
TrainingIsland::SendAck(uint32_t round, uint32_t origin, InStream& in, uint64_t echo, bool full)
{
    in.sinceAck = 0;
    uint32_t upTo = full ? in.state.Count() : in.state.Highest();
    auto missing = in.state.Missing(upTo, m_maxNackRanges);
    IslandHeader h;
    h.type = IslandHeader::ACK;
    h.island = static_cast<uint16_t>(m_islandId);
    h.origin = static_cast<uint16_t>(origin);
    h.extra = static_cast<uint16_t>(missing.size());
    h.round = round;
    h.seq = in.state.Cumulative();
    h.count = in.state.Count();
    h.timestamp = echo;
    std::vector<uint8_t> buf(missing.size() * 8);
    for (std::size_t i = 0; i < missing.size(); ++i)
    {
        for (int b = 0; b < 4; ++b)
        {
            buf[8 * i + b] = static_cast<uint8_t>(missing[i].first >> (24 - 8 * b));
            buf[8 * i + 4 + b] = static_cast<uint8_t>(missing[i].second >> (24 - 8 * b));
        }
    }
    SendControl(h, Create<Packet>(buf.data(), buf.size()), m_directory.at(origin));
}

void
TrainingIsland::HandleAck(const IslandHeader& h, Ptr<Packet> packet)
{
    // Acks name the stream by (round, our island) and the acknowledging island; a unicast
    // stream is tagged by its peer, a multicast stream by GROUP_TAG.
    auto it = m_out.find(Key(h.round, h.island));
    if (it == m_out.end())
    {
        it = m_out.find(Key(h.round, GROUP_TAG));
    }
    if (it == m_out.end())
    {
        return; // already complete
    }
    uint64_t key = it->first;
    OutStream& s = it->second;
    std::vector<uint8_t> buf(packet->GetSize());
    packet->CopyData(buf.data(), buf.size());
    std::vector<OutgoingTransfer::Range> nacks;
    for (std::size_t i = 0; i < h.extra && 8 * i + 8 <= buf.size(); ++i)
    {
        uint32_t first = 0;
        uint32_t length = 0;
        for (int b = 0; b < 4; ++b)
        {
            first = (first << 8) | buf[8 * i + b];
            length = (length << 8) | buf[8 * i + 4 + b];
        }
        nacks.emplace_back(first, length);
    }
    double now = Simulator::Now().GetSeconds();
    if (h.timestamp > 0)
    {
        double sample = now - static_cast<double>(h.timestamp) * 1e-9;
        if (sample > 0)
        {
            s.srtt = 0.875 * s.srtt + 0.125 * sample;
        }
    }
    bool progress = s.state.OnAck(h.island, h.seq, nacks, now, 1.2 * s.srtt);
    if (progress)
    {
        s.backoff = 1;
    }
    if (s.state.Complete())
    {
        FinishStream(key);
        return;
    }
    if (s.state.HasQueuedRetransmissions() && !s.sendEvent.IsRunning() && s.rateBps > 0)
    {
        s.sendEvent = Simulator::ScheduleNow(&TrainingIsland::SendNext, this, key);
    }
    if (s.state.AllNewSent() && progress)
    {
        ArmRto(key);
    }
}

void
TrainingIsland::HandlePoll(const IslandHeader& h)
{
    if (h.count == 0)
    {
        return;
    }
    InStream& in = m_in[Key(h.round, h.origin)];
    in.state.SetCount(h.count);
    SendAck(h.round, h.origin, in, h.timestamp, true);
}

} // namespace ns3
