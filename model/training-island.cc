/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-island.h"

#include "ideal-transport.h"
#include "wire-format.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

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
            .AddAttribute("AggregatorTimeout",
                          "Aggregation: no new sum for this long while contributions are "
                          "outstanding means the FPGA failed; fall back to multicast.",
                          TimeValue(Seconds(defaults.aggregationTimeoutS)),
                          MakeTimeAccessor(&TrainingIsland::m_aggregatorTimeout),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("AggregatorTimeoutRepairs",
                          "Aggregation: the FPGA counts as failed only after at least this "
                          "many repair round trips of the member's path without a new sum (a "
                          "sum request and its answer, with margin, as the transport measures "
                          "it), if longer than AggregatorTimeout: on a far lossy path a "
                          "repair may need a few. 0: AggregatorTimeout alone.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&TrainingIsland::m_aggregatorTimeoutRepairs),
                          MakeUintegerChecker<uint32_t>(0, 1000))
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
                            "The island holds every peer's model (or the sum) of the round.",
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
                            "A whole message (a peer's model or chunk, or all sums) arrived.",
                            MakeTraceSourceAccessor(&TrainingIsland::m_modelReceived),
                            "ns3::TrainingIsland::ModelReceivedTracedCallback")
            .AddTraceSource("ValuesChecked",
                            "CheckValues: a received model's values (or a sum) were verified.",
                            MakeTraceSourceAccessor(&TrainingIsland::m_valuesCheckedTrace),
                            "ns3::TrainingIsland::ValuesCheckedTracedCallback")
            .AddTraceSource("FellBack",
                            "Aggregation: the clique's FPGA failed and the island summed the "
                            "members' multicast models itself in this round.",
                            MakeTraceSourceAccessor(&TrainingIsland::m_fellBack),
                            "ns3::TrainingIsland::FellBackTracedCallback")
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
    for (auto& [round, ex] : m_exchanges)
    {
        ex->Dispose();
    }
    m_exchanges.clear();
    m_usage = nullptr;
    m_learner = nullptr;
    if (m_unicast)
    {
        m_unicast->Dispose();
    }
    if (m_group && m_group != m_unicast)
    {
        m_group->Dispose();
    }
    m_unicast = nullptr;
    m_group = nullptr;
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
    if (m_running)
    {
        PushGroupDevices();
    }
}

void
TrainingIsland::PushGroupDevices()
{
    // After a reroute the multicast trees branch differently at the source: open streams
    // follow.
    for (const auto& p : m_plan)
    {
        if (!p.group.IsAny() && p.group.IsMulticast())
        {
            for (auto& t : {m_unicast, m_group})
            {
                if (t)
                {
                    t->SetGroupDevices(p.group, p.groupDevices);
                }
            }
        }
    }
}

const std::vector<IslandRoundPlan>&
TrainingIsland::GetPlan() const
{
    return m_plan;
}

void
TrainingIsland::SetTransports(Ptr<IslandTransport> unicast, Ptr<IslandTransport> group)
{
    m_unicast = unicast;
    m_group = group ? group : unicast;
}

Ptr<IslandTransport>
TrainingIsland::GetUnicastTransport() const
{
    return m_unicast;
}

Ptr<IslandTransport>
TrainingIsland::GetGroupTransport() const
{
    return m_group;
}

void
TrainingIsland::SetUsageFunction(UsageFunction usage)
{
    m_usage = std::move(usage);
}

void
TrainingIsland::SetLearner(std::shared_ptr<IslandLearner> learner)
{
    m_learner = learner;
}

void
TrainingIsland::SetRttHints(const std::map<uint32_t, Time>& hints)
{
    m_rttHints = hints;
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

uint64_t
TrainingIsland::GetRetransmissions() const
{
    uint64_t n = m_unicast ? m_unicast->GetRetransmissions() : 0;
    if (m_group && m_group != m_unicast)
    {
        n += m_group->GetRetransmissions();
    }
    return n;
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
    uint64_t n = m_overflows;
    if (m_unicast)
    {
        n += m_unicast->GetEncodeOverflows();
    }
    if (m_group && m_group != m_unicast)
    {
        n += m_group->GetEncodeOverflows();
    }
    return n;
}

const std::set<uint32_t>&
TrainingIsland::GetFallbackRounds() const
{
    return m_fallbackRounds;
}

void
TrainingIsland::RefreshStreams()
{
    if (m_unicast)
    {
        m_unicast->RefreshStreams();
    }
    if (m_group && m_group != m_unicast)
    {
        m_group->RefreshStreams();
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

void
TrainingIsland::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_plan.empty(), "TrainingIsland " << m_islandId << ": no round plan set");
    NS_ABORT_MSG_IF(m_islandId >= m_directory.size(),
                    "TrainingIsland " << m_islandId << ": not in the island directory");
    uint32_t values = ValueCount();
    NS_ABORT_MSG_IF(static_cast<uint64_t>(values) * 8 > m_modelBytes,
                    "TrainingIsland " << m_islandId << ": " << values
                                      << " values do not fit a model of " << m_modelBytes
                                      << " bytes");
    if (!m_unicast)
    {
        SetTransports(CreateObject<IdealTransport>(), nullptr);
    }
    std::vector<Ptr<IslandTransport>> transports{m_unicast};
    if (m_group != m_unicast)
    {
        transports.push_back(m_group);
    }
    for (auto& t : transports)
    {
        t->Setup(GetNode(), m_islandId, m_directory);
        t->SetSegmentSize(m_segmentSize);
        t->SetFixedPointBits(m_fixedPointBits);
        t->SetRttHints(m_rttHints);
        t->SetCallbacks(
            [this](uint32_t round, uint32_t origin, uint16_t tag, uint8_t type, uint8_t flags) {
                return Accept(round, origin, tag, type, flags);
            },
            [this](const InMessage& m) { Deliver(m); },
            [this](uint32_t round, uint16_t tag, uint32_t seq, uint32_t bytes, bool retx) {
                m_segmentSent(round, m_islandId, seq, bytes, retx);
                // The exchange's send queues move on when a message has been handed over.
                auto ex = m_exchanges.find(round);
                if (ex != m_exchanges.end())
                {
                    ex->second->NotifySent(tag, bytes, retx);
                }
            },
            [this](uint32_t round, uint32_t origin, uint32_t seq, uint32_t bytes,
                   Ptr<const Packet> p) { m_segmentReceived(round, origin, seq, bytes, p); });
        t->Start();
    }
    m_running = true;
    PushGroupDevices();
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
    m_running = false;
    m_computeEvent.Cancel();
    for (auto& [round, ex] : m_exchanges)
    {
        ex->Abort();
    }
    if (m_unicast)
    {
        m_unicast->Stop();
    }
    if (m_group && m_group != m_unicast)
    {
        m_group->Stop();
    }
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
    auto values = std::make_shared<std::vector<double>>();
    if (m_learner)
    {
        m_learner->LocalSteps(round, m_localSteps);
        *values = m_learner->Parameters();
        NS_ABORT_MSG_IF(values->size() != ValueCount(),
                        "TrainingIsland: learner returned a vector of the wrong size");
    }
    else if (m_checkValues > 0)
    {
        values->resize(m_checkValues);
        for (uint32_t j = 0; j < m_checkValues; ++j)
        {
            (*values)[j] = CheckValue(m_islandId, round, j);
        }
    }
    m_computeFinished(round);

    ExchangeContext ctx;
    ctx.island = m_islandId;
    ctx.round = round;
    ctx.plan = plan;
    ctx.unicast = m_unicast;
    ctx.group = m_group;
    ctx.values = values->empty() ? nullptr : values;
    ctx.valueCount = ValueCount();
    ctx.modelBytes = m_modelBytes;
    ctx.segmentSize = m_segmentSize;
    ctx.fixedPointBits = m_fixedPointBits;
    ctx.aggregationPort = m_aggregationPort;
    ctx.aggregationSlots = m_aggregationSlots;
    ctx.aggregatorTimeout = m_aggregatorTimeout;
    ctx.aggregatorTimeoutRepairs = m_aggregatorTimeoutRepairs;
    ctx.directory = m_directory;
    UsageFunction usage = m_usage;
    IslandRoundPlan planCopy = plan;
    ctx.usage = [usage, planCopy](uint32_t destTag) {
        return usage ? usage(planCopy, destTag) : FlowUsage();
    };
    ctx.aggregatorDead = [this](uint32_t agg) { return m_deadAggregators.count(agg) > 0; };
    ctx.markAggregatorDead = [this](uint32_t agg) { m_deadAggregators.insert(agg); };
    ctx.done = [this, round]() { ExchangeDone(round); };
    Ptr<Exchange> ex = Exchange::Create(plan.clique < 0 ? ExchangePattern::ALL_TO_ALL
                                                        : plan.pattern);
    ex->SetContext(std::move(ctx));
    m_exchanges[round] = ex;
    for (const auto& [origin, tag, flags] : m_earlyFlags[round])
    {
        ex->OnSegment(origin, tag, flags);
    }
    m_earlyFlags.erase(round);
    ex->Start();
    auto early = m_early.find(round);
    if (early != m_early.end())
    {
        std::vector<InMessage> pending = std::move(early->second);
        m_early.erase(early);
        for (const auto& m : pending)
        {
            ex->Receive(m);
        }
    }
    if (ex->IsComplete())
    {
        ExchangeDone(round);
    }
}

void
TrainingIsland::ExchangeDone(uint32_t round)
{
    if (!m_exchanging || round != m_round || !m_running)
    {
        return;
    }
    auto it = m_exchanges.find(round);
    if (it == m_exchanges.end() || !it->second->IsComplete())
    {
        return;
    }
    // Finish in a fresh event: the exchange may be in the middle of handling a message.
    m_exchanging = false;
    Simulator::ScheduleNow(&TrainingIsland::FinishRound, this, round);
}

void
TrainingIsland::FinishRound(uint32_t round)
{
    ExchangeResult result = m_exchanges.at(round)->TakeResult();
    Merge(round, result);
    m_completed = round + 1;
    NS_LOG_INFO("island " << m_islandId << " finished round " << round << " at "
                          << Simulator::Now().As(Time::S));
    m_roundFinished(round, m_roundStart, Simulator::Now());
    Prune(round);
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
TrainingIsland::Prune(uint32_t round)
{
    // Keep the exchanges of the last rounds: a peer may still need them (an FPGA fallback
    // after this island finished, retransmissions).
    while (!m_exchanges.empty() && m_exchanges.begin()->first + 2 < round)
    {
        m_exchanges.begin()->second->Dispose();
        m_exchanges.erase(m_exchanges.begin());
    }
}

void
TrainingIsland::Merge(uint32_t round, ExchangeResult& result)
{
    const IslandRoundPlan& plan = PlanOf(round);
    m_overflows += result.overflows;
    if (result.fellBack)
    {
        m_fallbackRounds.insert(round);
        m_fellBack(round, plan.aggregator);
    }
    if (plan.peers.empty())
    {
        return;
    }
    if (result.isSum)
    {
        // A fallback's sum comes from the peers' models: verify them too.
        for (std::size_t i = 0; i < result.models.size(); ++i)
        {
            CheckModel(round, result.origins[i], result.models[i]);
        }
        CheckSum(round, result);
        if (m_learner)
        {
            m_learner->SynchronizeSum(round, result.sum, result.members);
        }
        return;
    }
    for (std::size_t i = 0; i < result.models.size(); ++i)
    {
        CheckModel(round, result.origins[i], result.models[i]);
    }
    if (m_learner)
    {
        m_learner->Synchronize(round, result.models);
    }
}

void
TrainingIsland::CheckModel(uint32_t round, uint32_t origin, const std::vector<double>& values)
{
    if (m_learner || m_checkValues == 0)
    {
        return;
    }
    uint32_t mismatches = 0;
    for (uint32_t j = 0; j < m_checkValues; ++j)
    {
        mismatches += j < values.size() && values[j] == CheckValue(origin, round, j) ? 0 : 1;
    }
    m_valuesChecked += m_checkValues;
    m_valueMismatches += mismatches;
    m_valuesCheckedTrace(round, origin, m_checkValues, mismatches);
}

void
TrainingIsland::CheckSum(uint32_t round, const ExchangeResult& result)
{
    if (m_learner || m_checkValues == 0)
    {
        return;
    }
    const IslandRoundPlan& plan = PlanOf(round);
    std::vector<uint32_t> members = plan.peers;
    members.push_back(m_islandId);
    FixedPoint fp(static_cast<int>(m_fixedPointBits));
    uint32_t mismatches = 0;
    for (uint32_t j = 0; j < m_checkValues; ++j)
    {
        bool ok = j < result.sum.size();
        if (ok && result.fixedPoint)
        {
            // The exact fixed-point sum of every member's contribution.
            int64_t total = 0;
            bool overflow = false;
            for (uint32_t m : members)
            {
                total += fp.Encode(CheckValue(m, round, j), overflow);
            }
            ok = result.sum[j] == fp.Decode(total);
        }
        else if (ok)
        {
            // Floating-point sums in the pattern's order: equal to the exact sum to rounding.
            double total = 0;
            for (uint32_t m : members)
            {
                total += CheckValue(m, round, j);
            }
            ok = std::abs(result.sum[j] - total) <= 1e-9;
        }
        mismatches += ok ? 0 : 1;
    }
    m_valuesChecked += m_checkValues;
    m_valueMismatches += mismatches;
    m_valuesCheckedTrace(round, plan.aggregator, m_checkValues, mismatches);
}

bool
TrainingIsland::Accept(uint32_t round, uint32_t origin, uint16_t tag, uint8_t type, uint8_t flags)
{
    if (m_plan.empty())
    {
        return false;
    }
    auto it = m_exchanges.find(round);
    bool accepted = false;
    if (it != m_exchanges.end())
    {
        accepted = it->second->Accepts(origin, tag, type, flags);
        if (accepted && flags)
        {
            it->second->OnSegment(origin, tag, flags);
        }
        return accepted;
    }
    // A round not started yet: judge by its plan (the exchange will be created later).
    const IslandRoundPlan& plan = PlanOf(round);
    const auto& peers = plan.peers;
    accepted = type == IslandHeader::DATA &&
               std::find(peers.begin(), peers.end(), origin) != peers.end();
    if (accepted && (flags & IslandHeader::FLAG_FALLBACK) && round >= m_completed)
    {
        auto& pending = m_earlyFlags[round];
        if (pending.empty())
        {
            pending.emplace_back(origin, tag, flags);
        }
    }
    return accepted && round >= m_completed;
}

void
TrainingIsland::Deliver(const InMessage& message)
{
    m_modelReceived(message.round, message.origin);
    auto it = m_exchanges.find(message.round);
    if (it != m_exchanges.end())
    {
        it->second->Receive(message);
        return;
    }
    if (message.round >= m_completed)
    {
        m_early[message.round].push_back(message);
    }
}

} // namespace ns3
