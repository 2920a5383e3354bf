/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_CC_TRANSPORT_H
#define INTELLIGENT_NETWORK_CC_TRANSPORT_H

#include "congestion-window.h"
#include "udp-transport.h"

#include "ns3/data-rate.h"
#include "ns3/traced-callback.h"

#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief The island's UDP protocol without the oracle: every stream runs an end-to-end,
 * loss- and ECN-driven congestion window (`--transport=cc`).
 *
 * Each stream (unicast model, multicast model, contribution stream) keeps a
 * CongestionWindow in segments: slow start, then CUBIC (default) or Reno growth. With
 * WarmWindow (default) the window belongs to the destination, not to one message: the
 * messages of a round to a peer (an aggregator, a multicast group) share one window, as the
 * messages of a persistent TCP connection do; their segments in flight count together
 * against it, their acks grow it, a loss or mark on any of them cuts it once, and a message
 * that starts while others to the same peer are in flight (the chunks of a pipelined
 * collective) continues with the window as it is. When the last of them closes, the next
 * message to the peer (the next round's) resumes from the window validated by the mean rate
 * of that busy period (CongestionWindow::Resume). A segment detected lost
 * (a NACK for a segment sent before the packet that triggered it) or an ECN congestion mark
 * echoed by a receiver (CE on a data packet, or on a sum) multiplies it by beta, once per
 * window of data; a timeout restarts from the floor. A peer's messages may have at most the
 * window in flight together (segments sent beyond the slowest receiver's highest one), and
 * pace their segments at PacingGain x window / SRTT (at most SendRate, the host's line rate),
 * split evenly among those still sending new segments, so no stream keeps sending at a fixed
 * rate into a full queue.
 * - multicast: in flight is counted against the slowest receiver and every receiver's loss
 *   or mark reduces the window, so the rate follows the slowest receiver (as NORM's and
 *   TFMCC's current-limiting receiver does);
 * - aggregation: the slot window is the congestion window (as ATP does): at most
 *   min(slots, window) contributions outstanding, a missing sum is a loss, an FPGA echoes a
 *   mark on any contribution of a slot in its sum.
 * Receivers ack every AckInterval segments (default 2 here, as TCP's delayed ack) and at
 * once on a mark. The poll timeout is RFC 6298's: SRTT + 4 RTTVAR (at least MinRto), backed
 * off exponentially.
 */
class CcTransport : public UdpTransport
{
  public:
    static TypeId GetTypeId();
    CcTransport();
    ~CcTransport() override;

    /// Congestion events (window reductions) over all streams so far.
    uint64_t GetReductions() const;
    /// Window reductions an ECN mark caused (at most one per window of data), all streams.
    uint64_t GetEcnReductions() const;

    /// Signature of the CongestionWindow trace: round, tag, new window (segments).
    typedef void (*WindowTracedCallback)(uint32_t round, uint16_t tag, double window);

  protected:
    void OnOpen(Stream& s) override;
    void OnClose(Stream& s) override;
    bool WindowOpen(const Stream& s) const override;
    void OnAllNewSent(Stream& s) override;
    void OnSegmentSent(Stream& s, uint32_t seq, bool retransmission) override;
    void OnFeedback(Stream& s, const Feedback& fb) override;
    void OnTimeout(Stream& s) override;
    double Rto(const Stream& s) const override;
    uint32_t DefaultAckInterval() const override;

  private:
    /// The window towards one destination (WarmKey) in one round, shared by every message
    /// of the round to it (a busy period: from the first message's opening to the last one's
    /// closing).
    struct Connection
    {
        CongestionWindow window;
        std::vector<uint64_t> streams; ///< Open streams (handles) using the window.
        /// New segments the connection sent in this busy period: a connection-wide sequence
        /// (the window's recovery point counts in it).
        uint32_t sent = 0;
        /// Most segments in flight (all its streams) at a send attempt since the last
        /// feedback (window validation: the window grows only while it limits the streams).
        mutable uint32_t maxInFlight = 0;
        double busySince = 0;       ///< When the first of the open streams opened.
        uint64_t busyDelivered = 0; ///< Segments the closed streams of this busy period sent.
        double srtt = 0;            ///< SRTT of the stream that last heard feedback (0: none).
    };
    struct State
    {
        uint64_t key = 0;
        uint32_t delivered = 0; ///< Slowest receiver's highest segment at the last feedback.
        std::vector<uint32_t> global; ///< Segment -> connection sequence of its first sending.
    };

    /// End the busy period of \p c (\p delivered segments): the window resumes from what its
    /// mean rate validates (ResumeFromMeanRate).
    void ResumeWindow(Connection& c, uint64_t delivered, double srtt);
    /// Set the pacing rate of every stream of \p c; \p wake: resume them (SetRate).
    void UpdateRates(Connection& c, bool wake);
    /// Segments in flight over all streams of \p c.
    uint32_t ConnectionInFlight(const Connection& c) const;
    /// The connection sequence of segment \p seq of the stream of \p st.
    static uint32_t Global(const State& st, const Connection& c, uint32_t seq);
    uint64_t Key(const Stream& s) const;
    static uint64_t WarmKey(const Stream& s);
    uint32_t Delivered(const Stream& s) const;

    DataRate m_sendRate;
    double m_pacingGain;
    double m_slowStartGain;
    double m_initialWindow;
    double m_minWindow;
    double m_beta;
    std::string m_algorithm;
    bool m_warm;
    bool m_validate;
    bool m_resumeMean;
    std::map<uint64_t, Connection> m_connections; ///< Key() -> the open messages' window
    /// WarmKey() -> the window the last busy period to it resumed from.
    std::map<uint64_t, CongestionWindow> m_warmWindows;
    std::map<uint64_t, State> m_state;             ///< open stream (handle) -> its state
    uint64_t m_reductions = 0;
    uint64_t m_ecnReductions = 0;
    TracedCallback<uint32_t> m_ecnReductionTrace;
    TracedCallback<uint32_t, uint16_t, double> m_windowTrace;
};

} // namespace ns3

#endif
