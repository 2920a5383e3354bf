/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-island.h"

#include "wire-format.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingIsland");
NS_OBJECT_ENSURE_REGISTERED(TrainingIsland);

TypeId
TrainingIsland::GetTypeId()
{
    static const NetworkCapabilities defaults; // one source of the FPGA defaults
    static TypeId tid =
        TypeId("ns3::TrainingIsland")
            .SetParent<Application>()
            .SetGroupName("IntelligentNetwork")
            .AddConstructor<TrainingIsland>()
            .AddAttribute("IslandId",
                          "Id of this island (its index in the directory and the graph).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TrainingIsland::m_islandId),
                          MakeUintegerChecker<uint32_t>(0, AGGREGATOR_TAG - 1))
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
                          MakeUintegerChecker<uint32_t>(8, 65507 - IslandHeader::SERIALIZED_SIZE))
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
                          UintegerValue(WireFormat::kIslandPort),
                          MakeUintegerAccessor(&TrainingIsland::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("AggregationPort",
                          "UDP port of the FPGA aggregation service.",
                          UintegerValue(WireFormat::kAggregationPort),
                          MakeUintegerAccessor(&TrainingIsland::m_aggregationPort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("AggregationSlots",
                          "Aggregation: slots of the FPGA pool, i.e. contributions a member "
                          "may have outstanding.",
                          UintegerValue(defaults.aggregationSlots),
                          MakeUintegerAccessor(&TrainingIsland::m_aggregationSlots),
                          MakeUintegerChecker<uint32_t>(1))
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
            .AddAttribute("AggregatorTimeout",
                          "Aggregation: no new sum for this long while contributions are "
                          "outstanding means the FPGA failed; fall back to multicast.",
                          TimeValue(Seconds(defaults.aggregationTimeoutS)),
                          MakeTimeAccessor(&TrainingIsland::m_aggregatorTimeout),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("CheckValues",
                          "Without a learner: carry this many deterministic test values per "
                          "model and verify every received value or sum (0: opaque bytes).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TrainingIsland::m_checkValues),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FixedPointBits",
                          "Fraction bits of the int32 fixed-point values sent for aggregation.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&TrainingIsland::m_fixedPointBits),
                          MakeUintegerChecker<uint32_t>(0, 30))
            .AddTraceSource("RoundStarted",
                            "A round started (compute begins).",
                            MakeTraceSourceAccessor(&TrainingIsland::m_roundStarted),
                            "ns3::TrainingIsland::RoundTracedCallback")
            .AddTraceSource("ComputeFinished",
                            "The round's local steps finished; the exchange begins.",
                            MakeTraceSourceAccessor(&TrainingIsland::m_computeFinished),
                            "ns3::TrainingIsland::RoundTracedCallback")
            .AddTraceSource("RoundFinished",
                            "The island holds every peer's model (or every sum) of the round.",
                            MakeTraceSourceAccessor(&TrainingIsland::m_roundFinished),
                            "ns3::TrainingIsland::RoundFinishedTracedCallback")
            .AddTraceSource("SegmentSent",
                            "A segment left the island.",
                            MakeTraceSourceAccessor(&TrainingIsland::m_segmentSent),
                            "ns3::TrainingIsland::SegmentSentTracedCallback")
            .AddTraceSource("SegmentReceived",
                            "A new (not duplicate) segment or sum arrived.",
                            MakeTraceSourceAccessor(&TrainingIsland::m_segmentReceived),
                            "ns3::TrainingIsland::SegmentReceivedTracedCallback")
            .AddTraceSource("ModelReceived",
                            "A peer's whole model (or all sums) of a round arrived.",
                            MakeTraceSourceAccessor(&TrainingIsland::m_modelReceived),
                            "ns3::TrainingIsland::ModelReceivedTracedCallback")
            .AddTraceSource("ValuesChecked",
                            "CheckValues: a received model's values (or sums) were verified.",
                            MakeTraceSourceAccessor(&TrainingIsland::m_valuesCheckedTrace),
                            "ns3::TrainingIsland::ValuesCheckedTracedCallback")
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
    m_learner = nullptr;
    m_socket = nullptr;
    m_multicast.Close();
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

const std::vector<IslandRoundPlan>&
TrainingIsland::GetPlan() const
{
    return m_plan;
}

void
TrainingIsland::SetRateController(Ptr<RateController> controller, UsageFunction usage)
{
    m_controller = controller;
    m_usage = usage;
}

void
TrainingIsland::SetLearner(std::shared_ptr<IslandLearner> learner)
{
    m_learner = learner;
}

void
TrainingIsland::SetRttHint(Time rtt)
{
    m_initialRtt = rtt;
}

void
TrainingIsland::SetRttHints(const std::map<uint32_t, Time>& hints)
{
    m_rttHints = hints;
}

void
TrainingIsland::RttSample(OutStream& s, double sample)
{
    if (!(sample > 0))
    {
        return;
    }
    if (!s.sampled)
    {
        s.srtt = sample;
        s.rttvar = sample / 2;
        s.sampled = true;
        return;
    }
    s.rttvar = 0.75 * s.rttvar + 0.25 * std::abs(s.srtt - sample);
    s.srtt = 0.875 * s.srtt + 0.125 * sample;
}

double
TrainingIsland::Rto(const OutStream& s) const
{
    // A tail-loss probe rather than a congestion timer: the network allocates the rates, so a
    // loss is not a congestion signal and a short, barely backed-off timeout is safe. The ack
    // of the last segment is due one round trip after it left; allow for jitter.
    return std::max(m_minRto.GetSeconds(), s.srtt + 2 * s.rttvar + 1e-3) * s.backoff;
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
TrainingIsland::GetValuesChecked() const
{
    return m_valuesChecked;
}

uint64_t
TrainingIsland::GetValueMismatches() const
{
    return m_valueMismatches;
}

uint64_t
TrainingIsland::GetOverflows() const
{
    return m_overflows;
}

const std::set<uint32_t>&
TrainingIsland::GetFallbackRounds() const
{
    return m_fallbackRounds;
}

bool
TrainingIsland::InFallback(uint32_t round) const
{
    return m_fallbackRounds.count(round) > 0;
}

void
TrainingIsland::RefreshStreams()
{
    if (!m_controller)
    {
        return;
    }
    for (auto& [key, s] : m_out)
    {
        if (!s.released)
        {
            m_controller->UpdateUsage(s.controllerId, m_usage(PlanOf(s.round), s.tag));
        }
    }
}

double
TrainingIsland::CheckValue(uint32_t island, uint32_t round, uint32_t index)
{
    // splitmix64 of (island, round, index): reproducible values in [-1, 1].
    uint64_t z = (static_cast<uint64_t>(island) << 48) ^ (static_cast<uint64_t>(round) << 32) ^
                 index;
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53 * 2.0 - 1.0;
}

uint64_t
TrainingIsland::Key(uint32_t round, uint32_t tag)
{
    return (static_cast<uint64_t>(round) << 32) | tag;
}

bool
TrainingIsland::HasStreams(uint32_t round) const
{
    auto it = m_out.lower_bound(Key(round, 0));
    return it != m_out.end() && it->second.round == round;
}

const IslandRoundPlan&
TrainingIsland::PlanOf(uint32_t round) const
{
    return m_plan.at(round % m_plan.size());
}

uint32_t
TrainingIsland::ValueCount() const
{
    return m_learner ? static_cast<uint32_t>(m_learner->Dimension()) : m_checkValues;
}

uint32_t
TrainingIsland::ValuesPerSegment(uint8_t type) const
{
    return type == IslandHeader::DATA ? m_segmentSize / 8 : m_segmentSize / 4;
}

void
TrainingIsland::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_plan.empty(), "TrainingIsland " << m_islandId << ": no round plan set");
    NS_ABORT_MSG_IF(m_islandId >= m_directory.size(),
                    "TrainingIsland " << m_islandId << ": not in the island directory");
    uint32_t values = ValueCount();
    uint32_t perSegment = m_segmentSize / 8;
    NS_ABORT_MSG_IF(values > 0 && (values + perSegment - 1) / perSegment > GetSegmentCount(),
                    "TrainingIsland " << m_islandId << ": " << values
                                      << " values do not fit a model of " << m_modelBytes
                                      << " bytes");
    if (!m_socket)
    {
        m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
        NS_ABORT_MSG_IF(m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                        "TrainingIsland " << m_islandId << ": cannot bind UDP port " << m_port);
        m_socket->SetRecvCallback(MakeCallback(&TrainingIsland::HandleRead, this));
        m_multicast.SetNode(GetNode());
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
    m_multicast.Close();
}

void
TrainingIsland::StartRound(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    m_round = round;
    m_roundStart = Simulator::Now();
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
    if (round < m_rounds)
    {
        StartRound(round);
    }
}

void
TrainingIsland::ComputeDone(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    m_exchanging = true;
    const IslandRoundPlan& plan = PlanOf(round);
    if (m_learner)
    {
        m_learner->LocalSteps(round, m_localSteps);
        m_sendValues[round] = m_learner->Parameters();
        NS_ABORT_MSG_IF(m_sendValues[round].size() != ValueCount(),
                        "TrainingIsland: learner returned a vector of the wrong size");
    }
    else if (m_checkValues > 0)
    {
        std::vector<double>& v = m_sendValues[round];
        v.resize(m_checkValues);
        for (uint32_t j = 0; j < m_checkValues; ++j)
        {
            v[j] = CheckValue(m_islandId, round, j);
        }
    }
    // Keep the values of the last rounds: a peer may ask for them again (FPGA fallback).
    while (!m_sendValues.empty() && m_sendValues.begin()->first + 2 < round)
    {
        m_sendValues.erase(m_sendValues.begin());
    }
    m_computeFinished(round);
    switch (plan.pattern)
    {
    case ExchangePattern::ALL_TO_ALL:
        for (uint32_t target : plan.targets)
        {
            OpenStream(round, target, m_directory.at(target), m_port, IslandHeader::DATA,
                       {target});
        }
        break;
    case ExchangePattern::MULTICAST:
        if (!plan.targets.empty())
        {
            OpenStream(round, GROUP_TAG, plan.group, m_port, IslandHeader::DATA, plan.targets);
        }
        break;
    case ExchangePattern::AGGREGATION:
        if (plan.peers.empty())
        {
            break;
        }
        if (m_deadAggregators.count(plan.aggregator))
        {
            StartFallback(round);
            break;
        }
        OpenStream(round, plan.aggregator, plan.aggregatorAddress, m_aggregationPort,
                   IslandHeader::CONTRIBUTION, {plan.aggregator});
        m_lastSum[round] = Simulator::Now();
        Simulator::Schedule(m_aggregatorTimeout, &TrainingIsland::WatchAggregator, this, round);
        break;
    default:
        NS_ABORT_MSG("TrainingIsland: pattern " << PatternName(plan.pattern) << " not supported");
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
    if (plan.pattern == ExchangePattern::AGGREGATION && !plan.peers.empty() && !InFallback(m_round))
    {
        auto it = m_in.find(Key(m_round, plan.aggregator));
        if (it == m_in.end() || !it->second.state.Complete())
        {
            return;
        }
    }
    else
    {
        for (uint32_t peer : plan.peers)
        {
            auto it = m_in.find(Key(m_round, peer));
            if (it == m_in.end() || !it->second.state.Complete())
            {
                return;
            }
        }
    }
    m_exchanging = false;
    uint32_t round = m_round;
    Synchronize(round);
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
TrainingIsland::Synchronize(uint32_t round)
{
    const IslandRoundPlan& plan = PlanOf(round);
    if (plan.peers.empty())
    {
        return;
    }
    if (plan.pattern == ExchangePattern::AGGREGATION)
    {
        std::vector<double> sum;
        if (InFallback(round))
        {
            sum = FallbackSum(round);
            CheckValues(round, plan.aggregator, sum, true);
        }
        else
        {
            sum = std::move(m_in[Key(round, plan.aggregator)].values);
        }
        if (m_learner)
        {
            m_learner->SynchronizeSum(round, sum, static_cast<uint32_t>(plan.peers.size() + 1));
        }
        m_in[Key(round, plan.aggregator)].values = std::vector<double>();
        return;
    }
    std::vector<std::vector<double>> vectors;
    for (uint32_t peer : plan.peers)
    {
        InStream& in = m_in[Key(round, peer)];
        vectors.push_back(std::move(in.values));
        in.values = std::vector<double>();
    }
    if (m_learner)
    {
        m_learner->Synchronize(round, vectors);
    }
}

void
TrainingIsland::OpenStream(uint32_t round,
                           uint32_t tag,
                           Ipv4Address dest,
                           uint16_t port,
                           uint8_t type,
                           const std::vector<uint32_t>& receivers)
{
    uint64_t key = Key(round, tag);
    NS_ABORT_MSG_IF(m_out.count(key), "TrainingIsland: stream opened twice");
    const IslandRoundPlan& plan = PlanOf(round);
    double hint = 0;
    for (uint32_t r : receivers)
    {
        auto h = m_rttHints.find(r);
        hint = std::max(hint, (h == m_rttHints.end() ? m_initialRtt : h->second).GetSeconds());
    }
    OutStream s{round,
                tag,
                dest,
                port,
                type,
                plan.cliqueKey,
                OutgoingTransfer(GetSegmentCount(), receivers),
                0.0,
                0,
                false,
                EventId(),
                EventId(),
                hint,
                hint / 2,
                false,
                1,
                0};
    auto it = m_out.emplace(key, std::move(s)).first;
    if (m_controller)
    {
        auto setRate = MakeCallback(&TrainingIsland::SetStreamRate, this).Bind(key);
        FlowUsage usage = m_usage(plan, tag);
        if (type == IslandHeader::CONTRIBUTION)
        {
            // The members of an aggregation form one flow of the fluid model.
            std::string share = "aggregation/" + std::to_string(round) + "/" +
                                std::to_string(plan.cliqueKey);
            it->second.controllerId = m_controller->RegisterShared(share, usage, setRate);
        }
        else
        {
            it->second.controllerId = m_controller->Register(usage, setRate);
        }
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
    it->second.rateBps = rate;
    Resume(key);
}

void
TrainingIsland::Resume(uint64_t key)
{
    auto it = m_out.find(key);
    if (it == m_out.end())
    {
        return;
    }
    OutStream& s = it->second;
    if (s.rateBps > 0 && !s.sendEvent.IsRunning())
    {
        s.sendEvent = Simulator::ScheduleNow(&TrainingIsland::SendNext, this, key);
    }
}

bool
TrainingIsland::WindowAllows(const OutStream& s) const
{
    if (s.type != IslandHeader::CONTRIBUTION)
    {
        return true;
    }
    uint32_t next = s.state.NextNew();
    if (next >= s.state.Count() || next < m_aggregationSlots)
    {
        return true;
    }
    // Slot next % slots is free once the sum of its previous segment came back.
    auto it = m_in.find(Key(s.round, s.tag));
    return it != m_in.end() && it->second.state.Has(next - m_aggregationSlots);
}

Ptr<Packet>
TrainingIsland::MakePayload(const OutStream& s, uint32_t seq)
{
    uint32_t payload = GetSegmentPayload(seq);
    auto vit = m_sendValues.find(s.round);
    uint32_t perSegment = ValuesPerSegment(s.type);
    uint64_t first = static_cast<uint64_t>(seq) * perSegment;
    if (vit == m_sendValues.end() || first >= vit->second.size())
    {
        return Create<Packet>(payload);
    }
    const std::vector<double>& values = vit->second;
    uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(perSegment, values.size() - first));
    std::vector<uint8_t> buf(payload, 0);
    if (s.type == IslandHeader::DATA)
    {
        std::memcpy(buf.data(), values.data() + first, n * sizeof(double));
    }
    else
    {
        FixedPoint fp(static_cast<int>(m_fixedPointBits));
        for (uint32_t i = 0; i < n; ++i)
        {
            bool overflow = false;
            int32_t q = fp.Encode(values[first + i], overflow);
            m_overflows += overflow ? 1 : 0;
            std::memcpy(buf.data() + 4 * i, &q, 4);
        }
    }
    return Create<Packet>(buf.data(), payload);
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
    if (!s.state.Next(now, seq, retx, WindowAllows(s)))
    {
        if (s.state.AllNewSent())
        {
            ReleaseStream(s);
            ArmRto(key);
        }
        return; // idle, or blocked by the slot window until a sum returns
    }
    Ptr<Packet> p = MakePayload(s, seq);
    uint32_t payload = p->GetSize();
    IslandHeader h;
    h.type = s.type;
    h.flags = s.flags | (retx ? IslandHeader::FLAG_RETRANSMISSION : 0);
    if (static_cast<uint64_t>(seq) * ValuesPerSegment(s.type) < ValueCount())
    {
        h.flags |= IslandHeader::FLAG_VALUES;
    }
    h.island = static_cast<uint16_t>(m_islandId);
    h.origin = static_cast<uint16_t>(m_islandId);
    h.extra = s.cliqueKey;
    h.round = s.round;
    h.seq = seq;
    h.count = s.state.Count();
    h.timestamp = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
    p->AddHeader(h);
    if (s.dest.IsMulticast())
    {
        m_multicast.Send(p, s.dest, s.port, PlanOf(s.round).groupDevices);
    }
    else
    {
        m_socket->SendTo(p, 0, InetSocketAddress(s.dest, s.port));
    }
    if (retx)
    {
        ++m_retransmissions;
        NS_LOG_LOGIC("island " << m_islandId << " resends segment " << seq << " of round "
                               << s.round << " to " << s.dest);
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
    s.rtoEvent.Cancel();
    s.rtoEvent = Simulator::Schedule(Seconds(Rto(s)), &TrainingIsland::OnRto, this, key);
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
    if (s.type == IslandHeader::CONTRIBUTION)
    {
        // No sums for a while: resend the contributions whose sums are missing.
        auto in = m_in.find(Key(s.round, s.tag));
        IncomingTransfer none(s.state.Count());
        const IncomingTransfer& got = in == m_in.end() ? none : in->second.state;
        s.state.OnAck(s.tag, got.Cumulative(), got.Missing(s.state.Count(), m_maxNackRanges),
                      Simulator::Now().GetSeconds());
        Resume(key);
    }
    else
    {
        for (uint32_t r : s.state.PendingReceivers())
        {
            IslandHeader h;
            h.type = IslandHeader::POLL;
            h.island = static_cast<uint16_t>(m_islandId);
            h.origin = static_cast<uint16_t>(m_islandId);
            h.round = s.round;
            h.count = s.state.Count();
            h.timestamp = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
            SendControl(h, Create<Packet>(), m_directory.at(r), m_port);
        }
    }
    s.backoff = std::min<uint32_t>(s.backoff * 2, 4);
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
TrainingIsland::SendControl(const IslandHeader& h,
                            Ptr<Packet> payload,
                            Ipv4Address to,
                            uint16_t port)
{
    payload->AddHeader(h);
    m_socket->SendTo(payload, 0, InetSocketAddress(to, port));
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
        case IslandHeader::RESULT:
            HandleResult(h, packet);
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
        default:
            NS_LOG_WARN("island " << m_islandId << ": unexpected packet type "
                                  << static_cast<int>(h.type));
        }
    }
}

void
TrainingIsland::StoreValues(InStream& in, const IslandHeader& h, Ptr<Packet> packet)
{
    if (!(h.flags & IslandHeader::FLAG_VALUES))
    {
        return;
    }
    uint32_t total = ValueCount();
    uint32_t perSegment = ValuesPerSegment(h.type);
    uint64_t first = static_cast<uint64_t>(h.seq) * perSegment;
    if (first >= total)
    {
        return;
    }
    uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(perSegment, total - first));
    in.values.resize(total, 0.0);
    std::vector<uint8_t> buf(packet->GetSize());
    packet->CopyData(buf.data(), buf.size());
    if (h.type == IslandHeader::DATA)
    {
        n = std::min<uint32_t>(n, static_cast<uint32_t>(buf.size() / 8));
        std::memcpy(in.values.data() + first, buf.data(), n * sizeof(double));
    }
    else
    {
        FixedPoint fp(static_cast<int>(m_fixedPointBits));
        n = std::min<uint32_t>(n, static_cast<uint32_t>(buf.size() / 4));
        for (uint32_t i = 0; i < n; ++i)
        {
            int32_t q;
            std::memcpy(&q, buf.data() + 4 * i, 4);
            in.values[first + i] = fp.Decode(q);
        }
    }
}

void
TrainingIsland::CheckValues(uint32_t round,
                            uint32_t origin,
                            const std::vector<double>& values,
                            bool sum)
{
    if (m_learner || m_checkValues == 0)
    {
        return;
    }
    const IslandRoundPlan& plan = PlanOf(round);
    FixedPoint fp(static_cast<int>(m_fixedPointBits));
    uint32_t mismatches = 0;
    for (uint32_t j = 0; j < m_checkValues; ++j)
    {
        double expected;
        if (sum)
        {
            // The exact fixed-point sum of every member's contribution.
            int64_t total = 0;
            bool overflow = false;
            total += fp.Encode(CheckValue(m_islandId, round, j), overflow);
            for (uint32_t peer : plan.peers)
            {
                total += fp.Encode(CheckValue(peer, round, j), overflow);
            }
            expected = fp.Decode(total);
        }
        else
        {
            expected = CheckValue(origin, round, j);
        }
        mismatches += j < values.size() && values[j] == expected ? 0 : 1;
    }
    m_valuesChecked += m_checkValues;
    m_valueMismatches += mismatches;
    m_valuesCheckedTrace(round, origin, m_checkValues, mismatches);
}

std::vector<double>
TrainingIsland::FallbackSum(uint32_t round)
{
    // What the FPGA would have computed: the int32 sum of every member's fixed-point values.
    const IslandRoundPlan& plan = PlanOf(round);
    FixedPoint fp(static_cast<int>(m_fixedPointBits));
    uint32_t n = ValueCount();
    std::vector<int32_t> acc(n, 0);
    bool overflow = false;
    auto add = [&](const std::vector<double>& v) {
        for (uint32_t j = 0; j < n && j < v.size(); ++j)
        {
            bool o = false;
            overflow = !FixedPoint::AddChecked(acc[j], fp.Encode(v[j], o)) || o || overflow;
        }
    };
    add(m_sendValues[round]);
    for (uint32_t peer : plan.peers)
    {
        add(m_in[Key(round, peer)].values);
    }
    m_overflows += overflow ? 1 : 0;
    std::vector<double> sum(n);
    for (uint32_t j = 0; j < n; ++j)
    {
        sum[j] = fp.Decode(acc[j]);
    }
    return sum;
}

void
TrainingIsland::WatchAggregator(uint32_t round)
{
    const IslandRoundPlan& plan = PlanOf(round);
    auto in = m_in.find(Key(round, plan.aggregator));
    bool done = in != m_in.end() && in->second.state.Complete();
    if (done || InFallback(round) || !m_socket)
    {
        return;
    }
    Time idle = Simulator::Now() - m_lastSum[round];
    if (idle < m_aggregatorTimeout)
    {
        Simulator::Schedule(m_aggregatorTimeout - idle, &TrainingIsland::WatchAggregator, this,
                            round);
        return;
    }
    NS_LOG_INFO("island " << m_islandId << ": no sum from FPGA " << plan.aggregator << " for "
                          << idle.As(Time::MS) << " in round " << round
                          << ": falling back to multicast");
    m_deadAggregators.insert(plan.aggregator);
    StartFallback(round);
}

void
TrainingIsland::StartFallback(uint32_t round)
{
    if (InFallback(round))
    {
        return;
    }
    m_fallbackRounds.insert(round);
    const IslandRoundPlan& plan = PlanOf(round);
    FinishStream(Key(round, plan.aggregator));
    if (!m_sendValues.count(round) && !m_learner && m_checkValues > 0)
    {
        std::vector<double>& v = m_sendValues[round];
        for (uint32_t j = 0; j < m_checkValues; ++j)
        {
            v.push_back(CheckValue(m_islandId, round, j));
        }
    }
    NS_ABORT_MSG_IF(plan.group.IsAny() || plan.groupDevices.empty(),
                    "TrainingIsland " << m_islandId << ": no multicast group to fall back on");
    OpenStream(round, GROUP_TAG, plan.group, m_port, IslandHeader::DATA, plan.peers);
    m_out.at(Key(round, GROUP_TAG)).flags = IslandHeader::FLAG_FALLBACK;
    if (round == m_round)
    {
        CheckRoundComplete();
    }
}

void
TrainingIsland::HandleData(const IslandHeader& h, Ptr<Packet> packet)
{
    const auto& peers = PlanOf(h.round).peers;
    if (h.count == 0 || h.seq >= h.count ||
        std::find(peers.begin(), peers.end(), h.origin) == peers.end())
    {
        return; // not a model this island waits for (e.g. transit multicast), or garbage
    }
    if ((h.flags & IslandHeader::FLAG_FALLBACK) &&
        PlanOf(h.round).pattern == ExchangePattern::AGGREGATION)
    {
        StartFallback(h.round); // a peer gave up on the FPGA: send it our model too
    }
    InStream& in = m_in[Key(h.round, h.origin)];
    in.state.SetCount(h.count);
    bool isNew = in.state.Add(h.seq);
    uint32_t payload = packet->GetSize();
    if (isNew)
    {
        ++in.sinceAck;
        StoreValues(in, h, packet);
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
        CheckValues(h.round, h.origin, in.values, false);
        m_modelReceived(h.round, h.origin);
        if (h.round == m_round)
        {
            CheckRoundComplete();
        }
    }
}

void
TrainingIsland::HandleResult(const IslandHeader& h, Ptr<Packet> packet)
{
    const IslandRoundPlan& plan = PlanOf(h.round);
    if (plan.pattern != ExchangePattern::AGGREGATION || h.island != plan.aggregator ||
        h.extra != plan.cliqueKey || h.count == 0 || h.seq >= h.count || plan.peers.empty())
    {
        return; // e.g. the sums of another clique the same FPGA serves, passing through
    }
    uint64_t key = Key(h.round, plan.aggregator);
    InStream& in = m_in[key];
    in.state.SetCount(h.count);
    bool fresh = in.state.Add(h.seq);
    if (fresh)
    {
        m_lastSum[h.round] = Simulator::Now();
        StoreValues(in, h, packet);
        m_overflows += (h.flags & IslandHeader::FLAG_OVERFLOW) ? 1 : 0;
        m_segmentReceived(h.round, h.island, h.seq, packet->GetSize(), packet);
    }
    // A sum acknowledges this island's contribution; missing sums below the highest one
    // received make it resend those contributions (after a round trip).
    auto it = m_out.find(key);
    if (it != m_out.end())
    {
        OutStream& s = it->second;
        double now = Simulator::Now().GetSeconds();
        if (fresh && !s.state.WasRetransmitted(h.seq))
        {
            RttSample(s, now - s.state.SentAt(h.seq));
        }
        // Sums come back in segment order unless something was lost (every member's
        // contributions travel in order and the FPGA serves them in order): a missing sum
        // below this one means a lost contribution or sum, if the contribution was sent before.
        bool progress = s.state.OnAck(plan.aggregator, in.state.Cumulative(),
                                      in.state.Missing(in.state.Highest(), m_maxNackRanges),
                                      s.state.SentAt(h.seq));
        if (progress)
        {
            s.backoff = 1;
        }
        if (s.state.Complete())
        {
            FinishStream(key);
        }
        else
        {
            Resume(key);
            if (s.state.AllNewSent() && progress)
            {
                ArmRto(key);
            }
        }
    }
    if (in.state.Complete() && !in.notified)
    {
        in.notified = true;
        CheckValues(h.round, h.island, in.values, true);
        m_modelReceived(h.round, h.island);
        if (h.round == m_round)
        {
            CheckRoundComplete();
        }
    }
}

void
TrainingIsland::HandleResend(const IslandHeader& h)
{
    auto it = m_out.find(Key(h.round, h.island));
    if (it == m_out.end() || h.seq >= it->second.state.Count() ||
        h.extra != it->second.cliqueKey)
    {
        return;
    }
    it->second.state.OnAck(h.island, 0, {{h.seq, 1}}, Simulator::Now().GetSeconds());
    Resume(it->first);
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
    SendControl(h, Create<Packet>(buf.data(), buf.size()), m_directory.at(origin), m_port);
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
        RttSample(s, now - static_cast<double>(h.timestamp) * 1e-9);
    }
    bool progress = s.state.OnAck(h.island, h.seq, nacks, static_cast<double>(h.timestamp) * 1e-9);
    if (progress)
    {
        s.backoff = 1;
    }
    if (s.state.Complete())
    {
        FinishStream(key);
        return;
    }
    if (s.state.HasQueuedRetransmissions())
    {
        Resume(key);
    }
    if (s.state.AllNewSent() && progress)
    {
        ArmRto(key);
    }
}

void
TrainingIsland::HandlePoll(const IslandHeader& h)
{
    const auto& peers = PlanOf(h.round).peers;
    if (h.count == 0 || std::find(peers.begin(), peers.end(), h.origin) == peers.end())
    {
        return;
    }
    InStream& in = m_in[Key(h.round, h.origin)];
    in.state.SetCount(h.count);
    SendAck(h.round, h.origin, in, h.timestamp, true);
}

} // namespace ns3
