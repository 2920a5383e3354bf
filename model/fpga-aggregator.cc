/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fpga-aggregator.h"

#include "network-capabilities.h"
#include "repair-copies.h"
#include "wire-format.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/socket.h"
#include "ns3/simulator.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FpgaAggregator");

NS_OBJECT_ENSURE_REGISTERED(FpgaAggregator);

TypeId
FpgaAggregator::GetTypeId()
{
    static const NetworkCapabilities defaults; // one source of the FPGA defaults
    static TypeId tid =
        TypeId("ns3::FpgaAggregator")
            .SetParent<Application>()
            .SetGroupName("IntelligentNetwork")
            .AddConstructor<FpgaAggregator>()
            .AddAttribute("Port",
                          "UDP port of the aggregation service.",
                          UintegerValue(WireFormat::kAggregationPort),
                          MakeUintegerAccessor(&FpgaAggregator::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("IslandPort",
                          "UDP port of the islands (for resent sums and resend requests).",
                          UintegerValue(WireFormat::kIslandPort),
                          MakeUintegerAccessor(&FpgaAggregator::m_islandPort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Tag",
                          "Id of this service in packet headers (TrainingIsland::AGGREGATOR_TAG "
                          "+ device node).",
                          UintegerValue(0x8000),
                          MakeUintegerAccessor(&FpgaAggregator::m_tag),
                          MakeUintegerChecker<uint32_t>(0x8000, 0xFFFE))
            .AddAttribute("Throughput",
                          "Rate at which the FPGA processes contributions (their wire bits).",
                          DataRateValue(DataRate(static_cast<uint64_t>(
                              defaults.fpgaThroughputBps))),
                          MakeDataRateAccessor(&FpgaAggregator::m_throughput),
                          MakeDataRateChecker())
            .AddAttribute("PipelineLatency",
                          "Delay from a segment's last contribution processed to its sum sent.",
                          TimeValue(Seconds(defaults.fpgaLatencyS)),
                          MakeTimeAccessor(&FpgaAggregator::m_latency),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Slots",
                          "Slots in the pool of each clique.",
                          UintegerValue(defaults.aggregationSlots),
                          MakeUintegerAccessor(&FpgaAggregator::m_slots),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Timeout",
                          "Straggler timeout of a slot waiting for missing contributions.",
                          TimeValue(Seconds(defaults.aggregationTimeoutS)),
                          MakeTimeAccessor(&FpgaAggregator::m_timeout),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("MaxResendRequests",
                          "Times a slot asks its missing members to resend (one Timeout apart) "
                          "before the FPGA gives it up: members that get no sum fall back to "
                          "multicast on their own, so the requests are bounded.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&FpgaAggregator::m_maxResendRequests),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("MaxInputRequests",
                          "Early requests for one missing input of one segment (a gap, a "
                          "member's end-of-stream marker, a member asking for the sum): asked "
                          "again every round trip to the input while it is missing, at most "
                          "this many times (then the straggler timeout takes over).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FpgaAggregator::m_maxInputRequests),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("EndMarkers",
                          "Root: header-only end-of-sums markers multicast back to back after "
                          "a clique's last sum (FLAG_TAIL): a member missing a sum then asks "
                          "for it at once (0: none; members ask once their sums stall).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&FpgaAggregator::m_endMarkers),
                          MakeUintegerChecker<uint32_t>(0, 64))
            .AddAttribute("EgressQueue",
                          "Local flow control of what the FPGA sends by unicast (resend "
                          "requests, partial sums, sums sent again, their copies): a packet "
                          "leaves while the egress queue of the device it leaves by holds less "
                          "than this fraction of its capacity, else it waits in order (the FPGA "
                          "does not drop its own packets). 1: none (a burst larger than the "
                          "queue's free space is dropped there).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&FpgaAggregator::m_egressQueue),
                          MakeDoubleChecker<double>(0.01, 1))
            .AddAttribute("Ecn",
                          "Sums and partial sums are ECN-capable (ECT(0)) and the FPGA echoes "
                          "congestion marks (CE on a contribution, or a child's echo) on the "
                          "slot's sum. ScenarioHelper sets it from ns3::UdpTransport::Ecn.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FpgaAggregator::m_ecn),
                          MakeBooleanChecker())
            .AddTraceSource("SlotCompleted",
                            "A segment's sum is complete.",
                            MakeTraceSourceAccessor(&FpgaAggregator::m_slotCompleted),
                            "ns3::FpgaAggregator::SlotCompletedTracedCallback")
            .AddTraceSource("Timeout",
                            "A slot waited longer than Timeout for missing members.",
                            MakeTraceSourceAccessor(&FpgaAggregator::m_timeoutTrace),
                            "ns3::FpgaAggregator::TimeoutTracedCallback");
    return tid;
}

FpgaAggregator::FpgaAggregator() = default;
FpgaAggregator::~FpgaAggregator() = default;

void
FpgaAggregator::DoDispose()
{
    m_socket = nullptr;
    m_multicast.Close();
    m_pacer.Clear();
    m_queues.clear();
    Application::DoDispose();
}

void
FpgaAggregator::AddClique(const AggregatorClique& clique)
{
    std::size_t inputs = clique.members.size() + clique.children.size();
    NS_ABORT_MSG_IF(inputs < 1 || inputs > 64,
                    "FpgaAggregator: a clique needs 1 to 64 inputs (members and child FPGAs)");
    NS_ABORT_MSG_IF(clique.children.size() != clique.childAddresses.size(),
                    "FpgaAggregator: one address per child FPGA");
    m_cliques[clique.cliqueKey] = clique;
}

void
FpgaAggregator::SetDirectory(const std::vector<Ipv4Address>& addresses)
{
    m_directory = addresses;
}

void
FpgaAggregator::Fail()
{
    NS_LOG_INFO("FPGA " << m_tag << " fails at " << Simulator::Now().As(Time::S));
    m_failed = true;
}

bool
FpgaAggregator::IsFailed() const
{
    return m_failed;
}

uint32_t
FpgaAggregator::GetTag() const
{
    return m_tag;
}

Time
FpgaAggregator::GetBusyTime() const
{
    return m_busy;
}

uint64_t
FpgaAggregator::GetContributions() const
{
    return m_contributions;
}

uint64_t
FpgaAggregator::GetEcnEchoes() const
{
    return m_ecnEchoes;
}

uint64_t
FpgaAggregator::GetResults() const
{
    return m_results;
}

uint64_t
FpgaAggregator::GetPartials() const
{
    return m_partials;
}

uint64_t
FpgaAggregator::Key(uint32_t round, uint16_t clique)
{
    return (static_cast<uint64_t>(round) << 16) | clique;
}

void
FpgaAggregator::StartApplication()
{
    if (!m_socket)
    {
        m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
        NS_ABORT_MSG_IF(m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                        "FpgaAggregator: cannot bind port " << m_port);
        m_socket->SetRecvCallback(MakeCallback(&FpgaAggregator::HandleRead, this));
        m_socket->SetIpRecvTos(true);
        // Sums are ECN-capable (ECT(0)): a marking queue on their way marks them instead of
        // dropping them, and the members' congestion control hears of it. The TOS goes in
        // each destination address (SumAddress): ns-3 3.37's UdpSocketImpl::SendTo ignores
        // Socket::SetIpTos.
        m_multicast.SetNode(GetNode());
        m_multicast.SetIpTos(m_ecn ? 0x02 : 0);
        m_pacer.SetNode(GetNode(), m_egressQueue);
    }
}

void
FpgaAggregator::StopApplication()
{
    if (m_socket)
    {
        m_socket->Close();
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket = nullptr;
    }
    m_pacer.Clear();
    m_multicast.Close();
}

void
FpgaAggregator::HandleRead(Ptr<Socket> socket)
{
    Ptr<Packet> packet;
    Address from;
    while ((packet = socket->RecvFrom(from)))
    {
        SocketIpTosTag tos;
        bool ce = packet->RemovePacketTag(tos) && (tos.GetTos() & 0x03) == 0x03;
        if (m_failed || packet->GetSize() < IslandHeader::SERIALIZED_SIZE)
        {
            continue;
        }
        IslandHeader h;
        packet->RemoveHeader(h);
        auto cit = m_cliques.find(h.extra);
        if (h.type == IslandHeader::RESEND && cit != m_cliques.end())
        {
            HandleRequest(h);
            continue;
        }
        if (h.type != IslandHeader::CONTRIBUTION || cit == m_cliques.end() || h.count == 0 ||
            h.seq >= h.count)
        {
            NS_LOG_WARN("FpgaAggregator " << m_tag << ": unexpected packet " << h);
            continue;
        }
        const AggregatorClique& clique = cit->second;
        // Inputs: the direct members, then the child FPGAs.
        uint32_t inputs = static_cast<uint32_t>(clique.members.size() + clique.children.size());
        uint32_t member = inputs;
        auto mit = std::find(clique.members.begin(), clique.members.end(), h.island);
        auto chit = std::find(clique.children.begin(), clique.children.end(), h.island);
        if (mit != clique.members.end())
        {
            member = static_cast<uint32_t>(mit - clique.members.begin());
        }
        else if (chit != clique.children.end())
        {
            member = static_cast<uint32_t>(clique.members.size() +
                                           (chit - clique.children.begin()));
        }
        else
        {
            NS_LOG_WARN("FpgaAggregator " << m_tag << ": " << h.island
                                          << " is no input of clique " << h.extra);
            continue;
        }
        const bool fromChild = member >= clique.members.size();
        uint64_t key = Key(h.round, h.extra);
        auto qit = m_queues.find(key);
        if (qit == m_queues.end())
        {
            // Free the slots of this clique's occurrences before the previous one: an input
            // contributing now has finished the previous occurrence, which needed every
            // member's contributions, so every member has finished the ones before it.
            uint64_t previous = 0;
            for (const auto& [k, old] : m_queues)
            {
                if ((k & 0xFFFF) == h.extra && k < key)
                {
                    previous = std::max(previous, k);
                }
            }
            for (auto& [k, old] : m_queues)
            {
                if ((k & 0xFFFF) == h.extra && k < previous)
                {
                    old.queue->Retire();
                }
            }
            QueueState st;
            st.queue = CreateObject<AggregationQueue>();
            st.queue->Setup(inputs, clique.slots > 0 ? clique.slots : m_slots, h.count);
            st.freshHighest.assign(inputs, -1);
            st.freshCount.assign(inputs, 0);
            st.lostCount.assign(inputs, 0);
            st.inputDelay.assign(inputs, 0.0);
            st.queue->TraceConnectWithoutContext(
                "SlotCompleted",
                Callback<void, uint32_t, Time>([this, h](uint32_t seq, Time wait) {
                    m_slotCompleted(h.round, h.extra, seq, wait);
                }));
            qit = m_queues.emplace(key, st).first;
        }
        QueueState& st = qit->second;
        if (ce || (fromChild && (h.flags & IslandHeader::FLAG_ECN_ECHO)))
        {
            // Echoed on the slot's sum: every member's congestion window hears of it (ATP).
            // A child FPGA's partial sum carries the marks of its subtree up (trees).
            st.marked.insert(h.seq);
        }
        if (!fromChild && (h.flags & IslandHeader::FLAG_TAIL))
        {
            // A member's end-of-stream marker (header only, after its last new contribution
            // on the same path): every contribution of that member not counted by now was
            // lost on the way, the last ones included: ask for them at once.
            if (member < st.freshHighest.size())
            {
                int64_t& highest = st.freshHighest[member];
                int64_t last = std::min<int64_t>(h.seq, static_cast<int64_t>(h.count) - 1);
                int64_t from = std::max<int64_t>(highest + 1, last - 4095);
                for (int64_t g = from; g <= last; ++g)
                {
                    if (!st.queue->Contributed(member, static_cast<uint32_t>(g)))
                    {
                        ++st.gapRequests;
                        ++st.lostCount[member];
                        AskEarly(st, clique, h.round, h.extra, static_cast<uint32_t>(g), h.count,
                                 member);
                    }
                }
                highest = std::max(highest, last);
            }
            continue;
        }
        if (h.seq + 1 == h.count)
        {
            st.lastPayloadBytes = packet->GetSize(); // a model's last segment may be partial
        }
        else if (h.seq == 0 || st.payloadBytes == 0)
        {
            st.payloadBytes = std::max(st.payloadBytes, packet->GetSize());
        }
        if (h.timestamp > 0 && member < st.inputDelay.size())
        {
            st.inputDelay[member] =
                std::max(st.inputDelay[member],
                         Simulator::Now().GetSeconds() - static_cast<double>(h.timestamp) * 1e-9);
        }
        if (!fromChild && !(h.flags & IslandHeader::FLAG_RETRANSMISSION) &&
            member < st.freshHighest.size())
        {
            // Loss detection at the first FPGA: the member's earlier segments not counted by
            // now were lost on the way (its stream is in order on one path).
            int64_t& highest = st.freshHighest[member];
            ++st.freshCount[member];
            if (static_cast<int64_t>(h.seq) > highest)
            {
                int64_t from = std::max<int64_t>(highest + 1, static_cast<int64_t>(h.seq) - 4096);
                for (int64_t g = from; g < static_cast<int64_t>(h.seq); ++g)
                {
                    if (!st.queue->Contributed(member, static_cast<uint32_t>(g)))
                    {
                        ++st.gapRequests;
                        ++st.lostCount[member];
                        AskEarly(st, clique, h.round, h.extra, static_cast<uint32_t>(g), h.count,
                                 member);
                    }
                }
                highest = h.seq;
            }
        }
        std::vector<int32_t> lanes;
        if (h.flags & IslandHeader::FLAG_VALUES)
        {
            lanes.resize(packet->GetSize() / 4);
            packet->CopyData(reinterpret_cast<uint8_t*>(lanes.data()), lanes.size() * 4);
        }
        // The FPGA processes contributions one after the other at its throughput.
        ++m_contributions;
        Time now = Simulator::Now();
        Time start = std::max(now, m_busyUntil);
        Time service = Seconds(WireFormat::WireBytes(packet->GetSize()) * 8.0 /
                               static_cast<double>(m_throughput.GetBitRate()));
        m_busyUntil = start + service;
        m_busy += service;
        Time ready = m_busyUntil + m_latency - now;
        // A child FPGA's partial sum that overflowed, or a member's value that saturated.
        bool overflowed = (h.flags & IslandHeader::FLAG_OVERFLOW) != 0;
        auto outcome = st.queue->Contribute(member, h.seq, lanes, now, overflowed);
        if (h.flags & IslandHeader::FLAG_RETRANSMISSION)
        {
            NS_LOG_LOGIC("FPGA " << m_tag << ": resent input " << member << " of segment "
                                 << h.seq << ": outcome " << outcome);
        }
        switch (outcome)
        {
        case AggregationQueue::ADDED:
            if (st.queue->Missing(h.seq).size() + 1 == inputs)
            {
                SetTimeout(h.round, h.extra, h.seq, 0u);
            }
            break;
        case AggregationQueue::COMPLETED:
            Simulator::Schedule(ready, [this, h]() {
                EmitResult(h.round, h.extra, h.seq, h.count, false, 0, 1);
            });
            break;
        case AggregationQueue::ALREADY_SUMMED:
            // A copy of an input already summed (its first copy was late, not lost): dropped.
            // A member resends a contribution only when an FPGA asks for it, and asks for a
            // missing sum with a header-only request (HandleRequest): a duplicate is no request
            // for the sum, and answering it would resend sums nobody lost.
        case AggregationQueue::DUPLICATE:
        case AggregationQueue::STALE:
            break;
        }
    }
}

void
FpgaAggregator::SendHeader(IslandHeader h, Ipv4Address to, uint16_t port, bool stamp)
{
    if (stamp)
    {
        h.timestamp = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
    }
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    m_pacer.Send(m_socket, p, InetSocketAddress(to, port), stamp);
}

void
FpgaAggregator::HandleRequest(const IslandHeader& h)
{
    const AggregatorClique& clique = m_cliques.at(h.extra);
    auto qit = m_queues.find(Key(h.round, h.extra));
    if (qit == m_queues.end() || h.count == 0 || h.seq >= h.count)
    {
        return;
    }
    QueueState& st = qit->second;
    NS_LOG_LOGIC("FPGA " << m_tag << ": request " << h << ", summed here "
                         << st.queue->HasResult(h.seq));
    if (clique.parent != 0 && h.island == clique.parent)
    {
        // The parent's slot waits for our partial sum: send it again if we have it (if not,
        // our own recovery is running) and it left before the request could have seen it
        // (one that left later crossed the request: in flight, not lost).
        double askedAt = static_cast<double>(h.timestamp) * 1e-9;
        double crossed = askedAt - std::max(0.0, Simulator::Now().GetSeconds() - askedAt);
        if (st.queue->HasResult(h.seq) &&
            (h.seq >= st.partialAt.size() || st.partialAt[h.seq] < crossed))
        {
            uint32_t copies = RepairCopies(st, h.seq, clique.parent, crossed);
            if (copies > 0)
            {
                ++st.resent;
                EmitResult(h.round, h.extra, h.seq, h.count, true, 0, copies);
            }
        }
        return;
    }
    // A member misses the clique's sum of seq: the request comes from a child FPGA on the
    // member's behalf (origin), or from the member itself (a header-only request).
    uint32_t input = 0;
    auto mit = std::find(clique.members.begin(), clique.members.end(), h.island);
    auto cit = std::find(clique.children.begin(), clique.children.end(), h.island);
    if (mit != clique.members.end() && h.origin == h.island)
    {
        input = static_cast<uint32_t>(mit - clique.members.begin());
    }
    else if (cit != clique.children.end())
    {
        input = static_cast<uint32_t>(clique.members.size() + (cit - clique.children.begin()));
    }
    else
    {
        return;
    }
    if (std::find(clique.allMembers.begin(), clique.allMembers.end(), h.origin) ==
        clique.allMembers.end())
    {
        return;
    }
    if (st.queue->HasResult(h.seq))
    {
        if (clique.parent == 0)
        {
            double askedAt = static_cast<double>(h.timestamp) * 1e-9;
            double crossed = askedAt - std::max(0.0, Simulator::Now().GetSeconds() - askedAt);
            uint32_t copies = RepairCopies(st, h.seq, h.origin, crossed);
            NS_LOG_LOGIC("FPGA " << m_tag << " (root): sum " << h.seq << " for " << h.origin
                                 << ": " << copies << " copies");
            if (copies > 0)
            {
                ++st.resent;
                EmitResult(h.round, h.extra, h.seq, h.count, true, h.origin, copies);
            }
        }
        else
        {
            // Passed up with the member's own timestamp: the root tells from it whether the
            // member could have seen the sum when it asked.
            IslandHeader r = h;
            r.island = static_cast<uint16_t>(m_tag);
            SendHeader(r, clique.parentAddress, m_port, false);
        }
        return;
    }
    // Not summed here yet: a member misses the sum because an input of this slot is missing
    // (lost on the way, or a child FPGA's partial sum lost or still waiting itself). Ask the
    // missing inputs now rather than at the straggler timeout, each at most once per quarter
    // timeout: a member ignores a request that crossed its own copy, a child FPGA one it
    // cannot answer yet or whose partial sum it sent after the request left. A request passed
    // up by a child FPGA proves that the child summed the segment (it passes requests up only
    // then): if its partial sum is missing here, it was lost, and the child can answer.
    const bool fromChild = input >= clique.members.size();
    if (!st.queue->IsPending(h.seq))
    {
        if (!st.queue->Contributed(input, h.seq))
        {
            AskEarly(st, clique, h.round, h.extra, h.seq, h.count, input, fromChild);
        }
        return;
    }
    for (uint32_t m : st.queue->Missing(h.seq))
    {
        // Another member whose first transmissions have not passed seq here yet is not known
        // to have lost it: its contribution may still be on the way (a farther or slower
        // member; its stream is in order on one path). Asking it would make it take a late
        // segment for a lost one, resend it and halve its congestion window: the slowest
        // member of a clique, asked on every sum the near members missed, never left its
        // first window (3x3-rotating, SEO+SIN+TYO under cc: SIN's window stayed near 9
        // segments, the round took 14.7 s against 0.17 s ideal). Its losses are found by the
        // gap its next segment opens, its end-of-stream marker, or the straggler timeout.
        if (m != input && m < clique.members.size() && m < st.freshHighest.size() &&
            st.freshHighest[m] < static_cast<int64_t>(h.seq))
        {
            continue;
        }
        AskEarly(st, clique, h.round, h.extra, h.seq, h.count, m, fromChild && m == input);
    }
}

void
FpgaAggregator::AskEarly(QueueState& st,
                         const AggregatorClique& c,
                         uint32_t round,
                         uint16_t clique,
                         uint32_t seq,
                         uint32_t count,
                         uint32_t input,
                         bool answerable)
{
    QueueState::Asked& a = st.asked[(static_cast<uint64_t>(seq) << 7) | input];
    double again = m_timeout.GetSeconds() / 4;
    if (input < st.inputDelay.size() && st.inputDelay[input] > 0)
    {
        again = std::min(again, 2.5 * st.inputDelay[input] + 1e-3);
    }
    const Time now = Simulator::Now();
    if (answerable && input >= c.members.size())
    {
        // A child FPGA that summed the segment: asked on its own budget. Requests made while
        // it was still waiting itself (it ignores them) must not use up the requests it could
        // answer: on the all-in-one tree at 5% loss a member next to the root asked for its
        // delayed sums every 5 ms, the root passed each on to its child FPGA, the child's 8
        // requests were spent before it had the partial sum, and when that partial sum was
        // lost only the root's straggler timeout asked again, 0.5 s later.
        if ((!a.answerableAt.IsZero() && now - a.answerableAt < Seconds(again)) ||
            a.answerable >= m_maxInputRequests)
        {
            return;
        }
        a.answerableAt = now;
        a.at = now;
        ++a.answerable;
        AskInput(c, round, clique, seq, count, input, RequestCopies(st, input, a.answerable));
        return;
    }
    if ((!a.at.IsZero() && now - a.at < Seconds(again)) || a.times >= m_maxInputRequests)
    {
        return;
    }
    a.at = now;
    ++a.times;
    AskInput(c, round, clique, seq, count, input, RequestCopies(st, input, a.times));
    // A member is asked again after a round trip to it if its copy has not come by then
    // (the request or the resend was lost): recovery does not wait for the straggler
    // timeout. (A child FPGA may still be waiting itself: it is asked again when a member
    // asks for the sum, or at the timeout.)
    if (input >= c.members.size())
    {
        return;
    }
    Simulator::Schedule(Seconds(again), &FpgaAggregator::AskAgain, this, round, clique, seq,
                        count, input);
}

void
FpgaAggregator::AskAgain(uint32_t round,
                         uint16_t clique,
                         uint32_t seq,
                         uint32_t count,
                         uint32_t input)
{
    auto qit = m_queues.find(Key(round, clique));
    if (qit == m_queues.end() || m_failed || !m_socket)
    {
        return;
    }
    QueueState& st = qit->second;
    if (st.queue->HasResult(seq) || st.queue->Contributed(input, seq))
    {
        return;
    }
    AskEarly(st, m_cliques.at(clique), round, clique, seq, count, input);
}

uint32_t
FpgaAggregator::RequestCopies(const QueueState& st, uint32_t input, uint32_t k) const
{
    uint32_t copies = k >= 3 ? 4 : (k == 2 ? 2 : 1);
    if (input < st.freshCount.size())
    {
        // The request crosses the member's path the other way: as lossy as its
        // contributions. Header only: copies until all are lost with probability 0.1%.
        copies = std::max(copies, RepairCopiesFor(static_cast<uint32_t>(st.lostCount[input]),
                                             static_cast<uint32_t>(st.lostCount[input] +
                                                                   st.freshCount[input]),
                                             1e-3, 6));
    }
    return copies;
}

void
FpgaAggregator::AskInput(const AggregatorClique& c,
                         uint32_t round,
                         uint16_t clique,
                         uint32_t seq,
                         uint32_t count,
                         uint32_t input,
                         uint32_t copies)
{
    NS_LOG_LOGIC("FPGA " << m_tag << " asks input " << input << " for segment " << seq << " ("
                         << copies << " copies)");
    IslandHeader h;
    h.type = IslandHeader::RESEND;
    h.origin = static_cast<uint16_t>(m_tag);
    h.extra = clique;
    h.round = round;
    h.seq = seq;
    h.count = count;
    if (input < c.members.size())
    {
        // The member's stream knows the clique's service by the root's tag.
        h.island = static_cast<uint16_t>(ServiceTag(c));
        for (uint32_t i = 0; i < std::max<uint32_t>(1, copies); ++i)
        {
            SendHeader(h, m_directory.at(c.members[input]), m_islandPort);
        }
    }
    else
    {
        h.island = static_cast<uint16_t>(m_tag);
        for (uint32_t i = 0; i < std::max<uint32_t>(1, copies); ++i)
        {
            SendHeader(h, c.childAddresses.at(input - c.members.size()), m_port);
        }
    }
}

uint32_t
FpgaAggregator::RepairCopies(QueueState& st, uint32_t seq, uint32_t receiver, double crossed)
{
    auto& [k, last] = st.resends[(static_cast<uint64_t>(seq) << 16) | (receiver & 0xFFFF)];
    double sent = seq < st.sentAt.size() ? st.sentAt[seq] : -1.0;
    if (crossed < std::max(sent, k > 0 ? last : -1.0))
    {
        // The request left before our last copy of this sum could have reached the receiver
        // (the first one, or a resend; requests asked again come in copies): not a loss.
        return 0;
    }
    uint32_t copies = k >= 3 ? 8 : (1u << k);
    if (k == 0)
    {
        ++st.repairedFor[receiver];
    }
    // From the first resend, as many copies as the receiver's measured loss of sums needs
    // for one of them to arrive (95%): every lost resend costs the receiver a round trip.
    copies = std::max(copies, RepairCopiesFor(st.repairedFor[receiver],
                                         static_cast<uint32_t>(st.queue->GetCompleted()), 0.05,
                                         8));
    ++k;
    last = Simulator::Now().GetSeconds();
    return copies;
}

void
FpgaAggregator::EmitResult(uint32_t round,
                           uint16_t clique,
                           uint32_t seq,
                           uint32_t count,
                           bool resend,
                           uint32_t member,
                           uint32_t copies)
{
    auto qit = m_queues.find(Key(round, clique));
    if (qit == m_queues.end() || !m_socket || m_failed)
    {
        return;
    }
    QueueState& st = qit->second;
    if (!st.queue->HasResult(seq))
    {
        return; // the slot was reused or retired meanwhile
    }
    const std::vector<int32_t>& sum = st.queue->Result(seq);
    // The sum of segment seq has the size of its contributions: the last one is partial
    // unless the model is a multiple of the segment size.
    uint32_t payload =
        seq + 1 == count && st.lastPayloadBytes > 0 ? st.lastPayloadBytes : st.payloadBytes;
    Ptr<Packet> p;
    if (sum.empty())
    {
        p = Create<Packet>(payload);
    }
    else
    {
        std::vector<uint8_t> buf(std::max<std::size_t>(payload, sum.size() * 4), 0);
        std::memcpy(buf.data(), sum.data(), sum.size() * 4);
        p = Create<Packet>(buf.data(), buf.size());
    }
    const AggregatorClique& c = m_cliques.at(clique);
    const bool root = c.parent == 0;
    IslandHeader h;
    h.type = root ? IslandHeader::RESULT : IslandHeader::CONTRIBUTION;
    h.flags = (sum.empty() ? 0 : IslandHeader::FLAG_VALUES) |
              (st.queue->Overflowed(seq) ? IslandHeader::FLAG_OVERFLOW : 0) |
              (resend ? IslandHeader::FLAG_RETRANSMISSION : 0);
    if (st.marked.erase(seq) > 0)
    {
        h.flags |= IslandHeader::FLAG_ECN_ECHO;
        ++m_ecnEchoes;
    }
    h.island = static_cast<uint16_t>(root ? ServiceTag(c) : m_tag);
    h.origin = static_cast<uint16_t>(m_tag);
    h.extra = clique;
    h.round = round;
    h.seq = seq;
    h.count = count;
    h.timestamp = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
    p->AddHeader(h);
    if (!root)
    {
        // One partial sum per segment up the tree edge (again only when the parent asks).
        if (st.partialAt.size() < count)
        {
            st.partialAt.resize(count, -1.0);
        }
        st.partialAt[seq] = Simulator::Now().GetSeconds();
        if (!resend)
        {
            if (st.sentAt.size() < count)
            {
                st.sentAt.resize(count, -1.0);
            }
            st.sentAt[seq] = Simulator::Now().GetSeconds();
        }
        for (uint32_t i = 0; i < std::max<uint32_t>(1, copies); ++i)
        {
            ++m_partials;
            m_pacer.Send(m_socket, i + 1 < copies ? p->Copy() : p,
                         SumAddress(c.parentAddress, m_port), true);
        }
        return;
    }
    if (resend)
    {
        for (uint32_t i = 0; i < std::max<uint32_t>(1, copies); ++i)
        {
            ++m_results;
            m_pacer.Send(m_socket, i + 1 < copies ? p->Copy() : p,
                         SumAddress(m_directory.at(member), m_islandPort), true);
        }
        return;
    }
    ++m_results;
    if (st.sentAt.size() < count)
    {
        st.sentAt.resize(count, -1.0);
    }
    if (st.sentAt[seq] < 0)
    {
        ++st.sumsSent;
    }
    st.sentAt[seq] = Simulator::Now().GetSeconds();
    m_multicast.Send(p, c.group, m_islandPort, c.groupDevices);
    if (!st.endSent && st.sumsSent >= count)
    {
        // End of sums: a header-only marker after the clique's last sum, down the same tree
        // (in order on every path), in copies: a member missing a sum when it arrives lost
        // it, the last ones too, and asks at once (no other sum would reveal a lost tail).
        st.endSent = true;
        IslandHeader e = h;
        e.flags = IslandHeader::FLAG_TAIL;
        for (uint32_t i = 0; i < m_endMarkers; ++i)
        {
            Ptr<Packet> marker = Create<Packet>();
            marker->AddHeader(e);
            m_multicast.Send(marker, c.group, m_islandPort, c.groupDevices);
        }
    }
}

InetSocketAddress
FpgaAggregator::SumAddress(Ipv4Address to, uint16_t port) const
{
    InetSocketAddress address(to, port);
    address.SetTos(m_ecn ? 0x02 : 0); // ECT(0): sums are data, not control
    return address;
}

uint32_t
FpgaAggregator::ServiceTag(const AggregatorClique& c) const
{
    return c.serviceTag != 0 ? c.serviceTag : m_tag;
}

void
FpgaAggregator::CheckTimeout(uint32_t round, uint16_t clique, uint32_t seq, uint32_t requests)
{
    auto qit = m_queues.find(Key(round, clique));
    if (qit == m_queues.end() || !qit->second.queue->IsPending(seq) || !m_socket || m_failed)
    {
        return;
    }
    if (requests >= m_maxResendRequests)
    {
        // Given up: the members that still wait fall back to multicast after their own
        // timeout, and those that fell back will not contribute again.
        NS_LOG_INFO("FpgaAggregator " << m_tag << ": slot " << seq << " of round " << round
                                      << " given up after " << requests << " resend requests");
        return;
    }
    QueueState& st = qit->second;
    std::vector<uint32_t> missing = st.queue->Missing(seq);
    ++st.timeouts;
    m_timeoutTrace(round, clique, seq, static_cast<uint32_t>(missing.size()));
    const AggregatorClique& c = m_cliques.at(clique);
    for (uint32_t m : missing)
    {
        NS_LOG_LOGIC("FPGA " << m_tag << ": slot " << seq << " of round " << round
                             << " timed out, input " << m << " missing");
        AskInput(c, round, clique, seq, st.queue->GetCount(), m);
    }
    SetTimeout(round, clique, seq, requests + 1);
}

void
FpgaAggregator::SetTimeout(uint32_t round, uint16_t clique, uint32_t seq, uint32_t requests)
{
    // One event per (round, clique) queue instead of one per segment: every segment's check
    // is Timeout after it was set, so they fall due in the order they were set. One event per
    // segment kept a whole model's worth of checks (12,208 per FPGA at 100 MB in 8 KB
    // segments, 0.5 s ahead) in the simulator's event set, and every insertion paid for them.
    auto qit = m_queues.find(Key(round, clique));
    if (qit == m_queues.end())
    {
        return;
    }
    QueueState& st = qit->second;
    st.due.push_back(QueueState::Due{Simulator::Now() + m_timeout, seq, requests});
    if (!st.draining && !st.dueEvent.IsRunning())
    {
        st.dueEvent =
            Simulator::Schedule(m_timeout, &FpgaAggregator::OnTimeouts, this, round, clique);
    }
}

void
FpgaAggregator::OnTimeouts(uint32_t round, uint16_t clique)
{
    auto qit = m_queues.find(Key(round, clique));
    if (qit == m_queues.end())
    {
        return;
    }
    QueueState& st = qit->second; // CheckTimeout may add to st.due, never removes a queue
    const Time now = Simulator::Now();
    st.draining = true;
    while (!st.due.empty() && st.due.front().at <= now)
    {
        QueueState::Due d = st.due.front();
        st.due.pop_front();
        CheckTimeout(round, clique, d.seq, d.requests);
    }
    st.draining = false;
    if (!st.due.empty())
    {
        st.dueEvent = Simulator::Schedule(st.due.front().at - now, &FpgaAggregator::OnTimeouts,
                                          this, round, clique);
    }
}

std::vector<AggregationStats>
FpgaAggregator::GetStats() const
{
    std::vector<AggregationStats> out;
    for (const auto& [key, st] : m_queues)
    {
        const AggregationQueue& q = *st.queue;
        out.push_back(AggregationStats{static_cast<uint32_t>(key >> 16),
                                       static_cast<uint16_t>(key & 0xFFFF),
                                       q.GetMembers(),
                                       q.GetCompleted(),
                                       q.GetTotalWait(),
                                       q.GetMaxWait(),
                                       q.GetMaxSlotsInUse(),
                                       st.timeouts,
                                       q.GetDuplicates(),
                                       q.GetStale(),
                                       st.resent,
                                       q.GetOverflows()});
    }
    return out;
}

} // namespace ns3
