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

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief The island's UDP protocol without the oracle: every stream runs an end-to-end,
 * loss- and ECN-driven congestion window (`--transport=cc`).
 *
 * Each stream (unicast model, multicast model, contribution stream) keeps a
 * CongestionWindow in segments: slow start, then CUBIC (default) or Reno growth; a new
 * message to the same destination starts from the window the last one ended with
 * (WarmWindow, as a persistent connection keeps its window); a segment detected lost
 * (a NACK for a segment sent before the packet that triggered it) or an ECN congestion mark
 * echoed by a receiver (CE on a data packet, or on a sum) multiplies it by beta, once per
 * window of data; a timeout restarts from the floor. A stream may have at most the window in flight
 * (segments sent beyond the slowest receiver's highest one), and paces its segments at
 * PacingGain x window / SRTT (at most SendRate, the host's line rate), so no stream keeps
 * sending at a fixed rate into a full queue.
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
    void OnFeedback(Stream& s, const Feedback& fb) override;
    void OnTimeout(Stream& s) override;
    double Rto(const Stream& s) const override;
    uint32_t DefaultAckInterval() const override;

  private:
    struct State
    {
        CongestionWindow window;
        uint32_t delivered = 0; ///< Slowest receiver's highest segment at the last feedback.
        /// Most segments in flight at a send attempt since the last feedback (window
        /// validation: the window grows only while it is what limits the stream).
        mutable uint32_t maxInFlight = 0;
    };

    void UpdateRate(Stream& s);
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
    std::map<uint64_t, CongestionWindow> m_warmWindows; ///< destination -> last window
    std::map<uint64_t, State> m_state;
    uint64_t m_reductions = 0;
    uint64_t m_ecnReductions = 0;
    TracedCallback<uint32_t> m_ecnReductionTrace;
    TracedCallback<uint32_t, uint16_t, double> m_windowTrace;
};

} // namespace ns3

#endif
