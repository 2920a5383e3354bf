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

void
CcTransport::OnOpen(Stream& s)
{
    CongestionWindowConfig config;
    config.algorithm = m_algorithm;
    config.initialWindow = m_initialWindow;
    config.minWindow = std::min(m_minWindow, m_initialWindow);
    config.beta = m_beta;
    CongestionWindow window(config);
    auto warm = m_warmWindows.find(WarmKey(s));
    if (m_warm && warm != m_warmWindows.end())
    {
        window = warm->second;
        window.Restart();
    }
    m_state.emplace(s.handle, State{window, 0, 0});
    UpdateRate(s);
}

void
CcTransport::OnClose(Stream& s)
{
    auto it = m_state.find(s.handle);
    if (it != m_state.end())
    {
        // The next message to this destination starts from the window this one's mean rate
        // implies (segments delivered / duration x SRTT), at most the window it ended with:
        // streams that finish last grow into the capacity the others left, and restarting
        // every stream of the next round at such windows at once overflowed the queues
        // (nine-city all-in-one, 100 MB, 64 KB segments, 100-packet queues: unicast resent
        // 2096 MB and aggregation 247 MB in the second round, none of that in the first).
        CongestionWindow& w = it->second.window;
        double duration = (Simulator::Now() - s.opened).GetSeconds();
        double validated = duration > 0 ? Delivered(s) / duration * s.srtt : 0;
        if (m_resumeMean)
        {
            w.Resume(validated);
        }
        m_warmWindows.insert_or_assign(WarmKey(s), w);
        m_state.erase(it);
    }
}

bool
CcTransport::WindowOpen(const Stream& s) const
{
    auto it = m_state.find(s.handle);
    if (it == m_state.end())
    {
        return true;
    }
    uint32_t inFlight = InFlight(s);
    it->second.maxInFlight = std::max(it->second.maxInFlight, inFlight);
    return inFlight < it->second.window.Window();
}

void
CcTransport::UpdateRate(Stream& s)
{
    const CongestionWindow& w = m_state.at(s.handle).window;
    double segmentBits = static_cast<double>(WireFormat::WireBytes(m_segmentSize)) * 8.0;
    double gain = w.InSlowStart() ? m_slowStartGain : m_pacingGain;
    double rate = gain * w.Window() * segmentBits / std::max(s.srtt, 1e-6);
    rate = std::min(rate, static_cast<double>(m_sendRate.GetBitRate()));
    NS_LOG_DEBUG("island " << m_islandId << " round " << s.msg.round << " to " << s.destTag
                           << ": window " << w.Window() << " in flight " << InFlight(s)
                           << " srtt " << s.srtt << " rate " << rate / 1e9 << " Gbps");
    SetRate(s.handle, rate);
}

void
CcTransport::OnFeedback(Stream& s, const Feedback& fb)
{
    State& st = m_state.at(s.handle);
    uint32_t delivered = Delivered(s);
    double now = Simulator::Now().GetSeconds();
    double before = st.window.Window();
    if (delivered > st.delivered)
    {
        // Window validation (RFC 7661, Linux's tcp_is_cwnd_limited): grow only if the window
        // limited the stream since the last feedback (slow start: at least half of it in
        // flight). A stream held back by something else (the host's queue, the aggregator's
        // slot pool, the end of its message) does not learn a window it never used.
        double w = st.window.Window();
        bool limited = st.window.InSlowStart() ? 2.0 * st.maxInFlight >= w
                                               : st.maxInFlight + 1.0 >= w;
        if (limited || !m_validate)
        {
            st.window.OnAcked(delivered - st.delivered, now, s.srtt);
        }
        st.delivered = delivered;
        st.maxInFlight = InFlight(s);
    }
    bool lossCut = false;
    bool markCut = false;
    if (fb.lostHighest >= 0)
    {
        lossCut = st.window.OnLoss(static_cast<uint32_t>(fb.lostHighest), s.state.NextNew(), now);
    }
    if (fb.ecn)
    {
        // Once per window of data (CWR): marks on segments sent before the last reduction,
        // this feedback's loss included, are the event already answered.
        markCut = st.window.OnMark(fb.markedSeq, s.state.NextNew(), now);
    }
    if (lossCut || markCut)
    {
        ++m_reductions;
        NS_LOG_LOGIC("island " << m_islandId << " round " << s.msg.round << " tag " << s.msg.tag
                               << ": " << (markCut ? "mark" : "loss") << ", window "
                               << st.window.Window());
    }
    if (markCut)
    {
        ++m_ecnReductions;
        m_ecnReductionTrace(s.msg.round);
    }
    if (st.window.Window() != before)
    {
        m_windowTrace(s.msg.round, s.msg.tag, st.window.Window());
    }
    UpdateRate(s);
}

void
CcTransport::OnTimeout(Stream& s)
{
    auto it = m_state.find(s.handle);
    if (it == m_state.end())
    {
        return;
    }
    it->second.window.OnTimeout(s.state.NextNew(), Simulator::Now().GetSeconds());
    ++m_reductions;
    m_windowTrace(s.msg.round, s.msg.tag, it->second.window.Window());
    UpdateRate(s);
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
