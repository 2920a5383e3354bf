/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_CONGESTION_WINDOW_H
#define INTELLIGENT_NETWORK_CONGESTION_WINDOW_H

#include <cstdint>
#include <string>

namespace ns3
{

/// Knobs of CongestionWindow (windows in segments).
struct CongestionWindowConfig
{
    /// Window growth in congestion avoidance: "cubic" (RFC 8312) or "reno" (RFC 5681 AIMD).
    std::string algorithm = "cubic";
    double initialWindow = 10; ///< Segments in flight before any feedback (RFC 6928).
    double minWindow = 2;      ///< Floor after a reduction.
    /// Multiplicative decrease on a congestion event (0 = the algorithm's: cubic 0.7,
    /// reno 0.5).
    double beta = 0;
    double cubicC = 0.4;           ///< CUBIC's scaling constant (RFC 8312: 0.4).
    double initialSsthresh = 1e12; ///< Slow-start threshold before the first signal.

    /// Throws std::invalid_argument naming the bad field.
    void Validate() const;
    /// The decrease factor in effect.
    double Beta() const;
};

/**
 * \ingroup intelligent-network
 * \brief A loss/ECN-driven congestion window in segments: slow start, then CUBIC or Reno
 * congestion avoidance, multiplicative decrease. Pure C++.
 *
 * Slow start adds one segment per segment acknowledged (doubling per round trip) up to the
 * slow-start threshold. Congestion avoidance grows the window like CUBIC (RFC 8312: W(t) =
 * C (t - K)^3 + Wmax, with its TCP-friendly region) or like Reno (one segment per round trip).
 * A congestion event -- a segment detected lost, or an ECN congestion mark echoed by a
 * receiver -- multiplies the window by beta and sets the threshold there, once per window of
 * data: losses and marks of segments sent before the last reduction (sequence below the
 * recovery point) belong to the same event (RFC 6582 / RFC 3168's CWR). A
 * timeout sets the threshold to half the window and restarts from the floor.
 */
class CongestionWindow
{
  public:
    explicit CongestionWindow(const CongestionWindowConfig& config = {});

    /// Segments allowed in flight.
    double Window() const;
    double Ssthresh() const;
    bool InSlowStart() const;
    /// Congestion events (reductions, timeouts included) so far.
    uint64_t Reductions() const;

    /// \p segments newly acknowledged at \p now (seconds), smoothed round trip \p srtt.
    void OnAcked(uint32_t segments, double now, double srtt);
    /// Segment \p seq was detected lost; \p nextNew is the next segment never sent. Returns
    /// true if it reduced the window (false: part of an event already answered).
    bool OnLoss(uint32_t seq, uint32_t nextNew, double now);
    /// An ECN congestion mark on segment \p markedSeq was echoed; \p nextNew is the next
    /// segment never sent. Reduces the window once per window of data (TCP's CWR): marks on
    /// segments sent before the last reduction are part of the event already answered.
    /// Returns true if it reduced the window.
    bool OnMark(uint32_t markedSeq, uint32_t nextNew, double now);
    /// The retransmission timer expired.
    void OnTimeout(uint32_t nextNew, double now);
    /// A new transfer continues from this window (sequence numbers start again at 0).
    void Restart();
    /**
     * A new transfer continues from this window, validated: the window becomes
     * min(window, max(initial window, \p validated)), from which it slow-starts back
     * towards the old window (threshold at least 3/4 of it, as Linux's tcp_cwnd_restart),
     * instead of starting with a window it never measured under the current competition
     * (RFC 7661's concern). \p validated is what the last transfer's mean rate implies (its segments / duration x
     * SRTT): the window it ended with may have grown into capacity that other streams, now
     * restarting too, had left. Sequence numbers start again at 0.
     */
    void Resume(double validated);

  private:
    void Reduce(uint32_t nextNew, double now);

    CongestionWindowConfig m_config;
    double m_window;
    double m_ssthresh;
    /// Losses and marks of segments below this belong to the last event.
    uint32_t m_recoverySeq = 0;
    uint64_t m_reductions = 0;
    // CUBIC state
    double m_wMax = 0;
    double m_epochStart = -1;
    double m_k = 0;
    double m_wEst = 0;
};

} // namespace ns3

#endif
