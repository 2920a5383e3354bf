/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-transport.h"

#include "wire-format.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/string.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcTransport");
NS_OBJECT_ENSURE_REGISTERED(CcTransport);

TypeId
CcTransport::GetTypeId()
{
    static const CongestionWindowConfig defaults;
    static TypeId tid =
        TypeId("ns3::CcTransport")
            .SetParent<UdpTransport>()
            .SetGroupName("IntelligentNetwork")
            .AddConstructor<CcTransport>()
            .AddAttribute("SendRate",
                          "The host's line rate: no stream paces faster (wire rate).",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&CcTransport::m_sendRate),
                          MakeDataRateChecker())
            .AddAttribute("InitialWindow",
                          "Segments in flight before any feedback (RFC 6928: 10).",
                          DoubleValue(defaults.initialWindow),
                          MakeDoubleAccessor(&CcTransport::m_initialWindow),
                          MakeDoubleChecker<double>(1, 1e9))
            .AddAttribute("MinWindow",
                          "Floor of the window after a reduction, segments.",
                          DoubleValue(defaults.minWindow),
                          MakeDoubleAccessor(&CcTransport::m_minWindow),
                          MakeDoubleChecker<double>(1, 1e9))
            .AddAttribute("Beta",
                          "Multiplicative decrease on a congestion event (0: the "
                          "algorithm's own, 0.7 for cubic, 0.5 for reno).",
                          DoubleValue(defaults.beta),
                          MakeDoubleAccessor(&CcTransport::m_beta),
                          MakeDoubleChecker<double>(0, 0.99))
            .AddAttribute("Algorithm",
                          "Window growth in congestion avoidance: cubic (RFC 8312) or reno "
                          "(one segment per round trip).",
                          StringValue(defaults.algorithm),
                          MakeStringAccessor(&CcTransport::m_algorithm),
                          MakeStringChecker())
            .AddAttribute("WarmWindow",
                          "A new message to a destination starts from the window the last "
                          "one to it ended with (as a persistent connection would); false: "
                          "every message starts from InitialWindow.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CcTransport::m_warm),
                          MakeBooleanChecker())
            .AddAttribute("WindowValidation",
                          "Grow the window only while it limits the stream (RFC 7661): since "
                          "the last feedback at least window - 1 segments in flight (half the "
                          "window in slow start). false: every acknowledged segment grows it.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CcTransport::m_validate),
                          MakeBooleanChecker())
            .AddAttribute("ResumeFromMeanRate",
                          "A warm window resumes from min(its last window, the window the last "
                          "message's mean rate implies), slow-starting back towards the old "
                          "one; false: from the last window unchanged.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CcTransport::m_resumeMean),
                          MakeBooleanChecker())
            .AddAttribute("PacingGain",
                          "Pacing rate = PacingGain x window / SRTT in congestion avoidance.",
                          DoubleValue(1.25),
                          MakeDoubleAccessor(&CcTransport::m_pacingGain),
                          MakeDoubleChecker<double>(1, 10))
            .AddAttribute("SlowStartGain",
                          "Pacing rate = SlowStartGain x window / SRTT in slow start.",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&CcTransport::m_slowStartGain),
                          MakeDoubleChecker<double>(1, 10))
            .AddTraceSource("CongestionWindow",
                            "A stream's congestion window changed.",
                            MakeTraceSourceAccessor(&CcTransport::m_windowTrace),
                            "ns3::CcTransport::WindowTracedCallback")
            .AddTraceSource("EcnReduction",
                            "A congestion mark reduced a stream's window (once per window of "
                            "data; argument: the stream's round).",
                            MakeTraceSourceAccessor(&CcTransport::m_ecnReductionTrace),
                            "ns3::UdpTransport::RoundTracedCallback");
    return tid;
}

CcTransport::CcTransport() = default;

CcTransport::~CcTransport() = default;

uint64_t
CcTransport::GetReductions() const
{
    return m_reductions;
}

uint64_t
CcTransport::GetEcnReductions() const
{
    return m_ecnReductions;
}

uint32_t
CcTransport::Delivered(const Stream& s) const
{
    return s.state.NextNew() - InFlight(s);
}

uint64_t
CcTransport::WarmKey(const Stream& s)
{
    // A peer island, an aggregator, or a multicast group (one per source tree).
    return s.msg.dest.IsMulticast() ? (uint64_t{1} << 32) | s.msg.dest.Get() : s.destTag;
}

uint64_t
CcTransport::Key(const Stream& s) const
{
    // The messages of one round to one destination share a window. WarmWindow false: every
    // message is a connection of its own (from InitialWindow).
    return m_warm ? (uint64_t{s.msg.round} << 34) | WarmKey(s) : (uint64_t{1} << 63) | s.handle;
}

uint32_t
CcTransport::Global(const State& st, const Connection& c, uint32_t seq)
{
    return seq < st.global.size() ? st.global[seq] : c.sent;
}

uint32_t
CcTransport::ConnectionInFlight(const Connection& c) const
{
    uint32_t n = 0;
    for (uint64_t h : c.streams)
    {
        auto it = const_cast<CcTransport*>(this)->Streams().find(h);
        if (it != const_cast<CcTransport*>(this)->Streams().end())
        {
            n += InFlight(it->second);
        }
    }
    return n;
}

void
CcTransport::ResumeWindow(Connection& c, uint64_t delivered, double srtt)
{
    // The next message to this destination starts from the window this busy period's mean
    // rate implies (segments delivered / duration x SRTT), at most the window it ended with:
    // streams that finish last grow into the capacity the others left, and restarting
    // every stream of the next round at such windows at once overflowed the queues
    // (nine-city all-in-one, 100 MB, 64 KB segments, 100-packet queues: unicast resent
    // 2096 MB and aggregation 247 MB in the second round, none of that in the first). The
    // busy period is every message of a round to the destination back to back (the chunks
    // of a collective): one short message's mean rate would be its own slow start.
    double duration = Simulator::Now().GetSeconds() - c.busySince;
    double validated = duration > 0 ? delivered / duration * srtt : 0;
    if (m_resumeMean)
    {
        c.window.Resume(validated);
    }
    else
    {
        c.window.Restart();
    }
}

void
CcTransport::OnOpen(Stream& s)
{
    uint64_t key = Key(s);
    auto [it, fresh] = m_connections.try_emplace(key);
    Connection& c = it->second;
    if (fresh)
    {
        // A busy period starts: the first message of a round to this destination, or one
        // after a pause. It continues from the window the last busy period to the destination
        // resumed from (as a persistent connection keeps its window), or a fresh one.
        auto warm = m_warmWindows.find(WarmKey(s));
        if (m_warm && warm != m_warmWindows.end())
        {
            c.window = warm->second;
            c.window.Restart();
        }
        else
        {
            CongestionWindowConfig config;
            config.algorithm = m_algorithm;
            config.initialWindow = m_initialWindow;
            config.minWindow = std::min(m_minWindow, m_initialWindow);
            config.beta = m_beta;
            c.window = CongestionWindow(config);
        }
        c.busySince = Simulator::Now().GetSeconds();
    }
    c.streams.push_back(s.handle);
    m_state.emplace(s.handle, State{key, 0, {}});
    // The new stream takes its share of the pacing rate; the others keep sending (a sibling
    // may be inside its own SendNext here: no wake, only the next gap changes).
    UpdateRates(c, false);
    SetRate(s.handle, s.rateBps);
}

void
CcTransport::OnClose(Stream& s)
{
    auto it = m_state.find(s.handle);
    if (it == m_state.end())
    {
        return;
    }
    auto ci = m_connections.find(it->second.key);
    m_state.erase(it);
    if (ci == m_connections.end())
    {
        return;
    }
    Connection& c = ci->second;
    c.busyDelivered += Delivered(s);
    c.streams.erase(std::remove(c.streams.begin(), c.streams.end(), s.handle), c.streams.end());
    if (!c.streams.empty())
    {
        return; // the window lives on with the other messages to this destination
    }
    if (m_warm)
    {
        ResumeWindow(c, c.busyDelivered, c.srtt > 0 ? c.srtt : s.srtt);
        m_warmWindows.insert_or_assign(WarmKey(s), c.window);
    }
    m_connections.erase(ci);
}

bool
CcTransport::WindowOpen(const Stream& s) const
{
    auto it = m_state.find(s.handle);
    if (it == m_state.end())
    {
        return true;
    }
    const Connection& c = m_connections.at(it->second.key);
    uint32_t inFlight = ConnectionInFlight(c);
    c.maxInFlight = std::max(c.maxInFlight, inFlight);
    return inFlight < c.window.Window();
}

void
CcTransport::OnSegmentSent(Stream& s, uint32_t seq, bool retransmission)
{
    auto it = m_state.find(s.handle);
    if (retransmission || it == m_state.end())
    {
        return;
    }
    Connection& c = m_connections.at(it->second.key);
    std::vector<uint32_t>& global = it->second.global;
    if (seq >= global.size())
    {
        global.resize(seq + 1, c.sent);
        global[seq] = c.sent++;
    }
}

void
CcTransport::OnAllNewSent(Stream& s)
{
    auto it = m_state.find(s.handle);
    if (it != m_state.end())
    {
        // Its share of the pacing rate goes to the others still sending (called from this
        // stream's SendNext: no wake).
        UpdateRates(m_connections.at(it->second.key), false);
    }
}

void
CcTransport::UpdateRates(Connection& c, bool wake)
{
    auto& streams = Streams();
    uint32_t sending = 0;
    for (uint64_t h : c.streams)
    {
        auto it = streams.find(h);
        sending += it != streams.end() && !it->second.released ? 1 : 0;
    }
    double segmentBits = static_cast<double>(WireFormat::WireBytes(m_segmentSize)) * 8.0;
    double gain = c.window.InSlowStart() ? m_slowStartGain : m_pacingGain;
    for (uint64_t h : c.streams)
    {
        auto it = streams.find(h);
        if (it == streams.end())
        {
            continue;
        }
        Stream& s = it->second;
        double srtt = c.srtt > 0 ? c.srtt : s.srtt;
        double rate = gain * c.window.Window() * segmentBits / std::max(srtt, 1e-6);
        // Streams still sending new segments split the rate; one past its last new segment
        // (retransmissions only) keeps the whole rate for them.
        if (!s.released && sending > 1)
        {
            rate /= sending;
        }
        rate = std::min(rate, static_cast<double>(m_sendRate.GetBitRate()));
        NS_LOG_DEBUG("island " << m_islandId << " round " << s.msg.round << " to " << s.destTag
                               << ": window " << c.window.Window() << " in flight "
                               << ConnectionInFlight(c) << " srtt " << srtt << " rate "
                               << rate / 1e9 << " Gbps");
        if (wake)
        {
            SetRate(h, rate);
        }
        else
        {
            s.rateBps = rate;
        }
    }
}

void
CcTransport::OnFeedback(Stream& s, const Feedback& fb)
{
    State& st = m_state.at(s.handle);
    Connection& c = m_connections.at(st.key);
    uint32_t delivered = Delivered(s);
    double now = Simulator::Now().GetSeconds();
    double before = c.window.Window();
    c.srtt = s.srtt;
    if (delivered > st.delivered)
    {
        // Window validation (RFC 7661, Linux's tcp_is_cwnd_limited): grow only if the window
        // limited the connection since the last feedback (slow start: at least half of it in
        // flight). Streams held back by something else (the host's queue, the aggregator's
        // slot pool, the end of their messages) do not learn a window they never used.
        double w = c.window.Window();
        bool limited = c.window.InSlowStart() ? 2.0 * c.maxInFlight >= w
                                              : c.maxInFlight + 1.0 >= w;
        if (limited || !m_validate)
        {
            c.window.OnAcked(delivered - st.delivered, now, s.srtt);
        }
        st.delivered = delivered;
        c.maxInFlight = ConnectionInFlight(c);
    }
    bool lossCut = false;
    bool markCut = false;
    if (fb.lostHighest >= 0)
    {
        lossCut = c.window.OnLoss(Global(st, c, static_cast<uint32_t>(fb.lostHighest)), c.sent,
                                  now);
    }
    if (fb.ecn)
    {
        // Once per window of data (CWR): marks on segments sent before the last reduction,
        // this feedback's loss included, are the event already answered.
        markCut = c.window.OnMark(Global(st, c, fb.markedSeq), c.sent, now);
    }
    if (lossCut || markCut)
    {
        ++m_reductions;
        NS_LOG_LOGIC("island " << m_islandId << " round " << s.msg.round << " tag " << s.msg.tag
                               << ": " << (markCut ? "mark" : "loss") << ", window "
                               << c.window.Window());
    }
    if (markCut)
    {
        ++m_ecnReductions;
        m_ecnReductionTrace(s.msg.round);
    }
    if (c.window.Window() != before)
    {
        m_windowTrace(s.msg.round, s.msg.tag, c.window.Window());
    }
    // Every stream of the connection: the window (or room in it) changed for all of them.
    UpdateRates(c, true);
}

void
CcTransport::OnTimeout(Stream& s)
{
    auto it = m_state.find(s.handle);
    if (it == m_state.end())
    {
        return;
    }
    Connection& c = m_connections.at(it->second.key);
    double now = Simulator::Now().GetSeconds();
    // Nothing of this stream in flight (held back by the segments of the other messages to
    // its destination, in the shared window), or acks for another of them keep coming (as
    // TCP restarts its timer on every ack of the connection): no sign that the path went
    // silent. A message alone on its connection times out as before.
    bool siblingAcked = false;
    for (uint64_t h : c.streams)
    {
        auto o = Streams().find(h);
        if (h != s.handle && o != Streams().end() &&
            now - o->second.lastProgress.GetSeconds() < Rto(s))
        {
            siblingAcked = true;
        }
    }
    if (c.streams.size() > 1 && (InFlight(s) == 0 || siblingAcked))
    {
        UpdateRates(c, true);
        return;
    }
    c.window.OnTimeout(c.sent, now);
    ++m_reductions;
    m_windowTrace(s.msg.round, s.msg.tag, c.window.Window());
    UpdateRates(c, true);
}

uint32_t
CcTransport::DefaultAckInterval() const
{
    return 2; // as TCP's delayed ack: the window needs a steady ack clock
}

double
CcTransport::Rto(const Stream& s) const
{
    return std::max(m_minRto.GetSeconds(), s.srtt + 4 * s.rttvar) * s.backoff;
}

} // namespace ns3
