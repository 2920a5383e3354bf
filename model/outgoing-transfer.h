/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_OUTGOING_TRANSFER_H
#define INTELLIGENT_NETWORK_OUTGOING_TRANSFER_H

#include <cstdint>
#include <deque>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Sender state of one model transfer to one or more receivers. Pure C++.
 *
 * Segments go out in order; receivers' acks (cumulative + NACK ranges) queue lost segments for
 * retransmission, which takes priority over new segments. Every ack says which packet made the
 * receiver send it (its send time, echoed); packets of a stream follow one path in order, so a
 * segment still missing at the receiver is lost if it was last sent before that packet, and
 * may still be in flight otherwise. Only the former is re-queued: no timer guesses, no
 * duplicate when a NACK crosses a retransmission. The transfer is complete when every receiver
 * has acknowledged every segment.
 */
class OutgoingTransfer
{
  public:
    using Range = std::pair<uint32_t, uint32_t>; ///< (first, length)

    OutgoingTransfer(uint32_t count, const std::vector<uint32_t>& receivers);

    uint32_t Count() const;
    /// Redundant repair: a segment resent for the (k+1)-th time goes out in min(2^k, \p max)
    /// back-to-back copies (first resend: one copy; second: two; ...), so that a loss
    /// generation at the tail rarely needs another round trip. 1 (default): plain ARQ.
    void SetMaxRepairCopies(uint32_t max);
    /// Every resend goes out in at least this many copies (at most the maximum): a path's
    /// measured loss asks for redundancy from the first resend.
    void SetMinRepairCopies(uint32_t min);
    /// Whether NACKed segments (and, at a timeout, segments known lost) are queued for
    /// resending (default). Off under parity repair (ParityRepair, blocks of \p block
    /// segments): segments of blocks sent in full are not queued, the caller repairs the losses
    /// it reads from MissingIn() with parity segments instead; segments of the block still
    /// being sent are (a code needs the whole block, and a sender whose window is full would
    /// otherwise never complete it). A tail probe is still queued on request.
    void SetQueueOnNack(bool queue, uint32_t block = 1);
    /// Segments of [first, end) that \p receiver's acks say it still misses (only meaningful
    /// below Described(receiver)).
    uint32_t MissingIn(uint32_t receiver, uint32_t first, uint32_t end) const;
    /// How far the acks of \p receiver describe the stream (every segment below is either
    /// acknowledged or NACKed).
    uint32_t Described(uint32_t receiver) const;
    /// The segment to send now (retransmissions first, then, if \p allowNew, the next new
    /// one); false if none is due.
    bool Next(double now, uint32_t& seq, bool& retransmission, bool allowNew = true);
    /// The next segment never sent (Count() when all were sent).
    uint32_t NextNew() const;
    /// Process an ack from \p receiver, sent on receipt of a packet sent at \p echo: NACKed
    /// segments last sent before \p echo are queued again. \p known: the ack describes
    /// segments [cumulative, known) completely (every one it does not NACK has arrived: a
    /// selective ack); 0: nothing beyond the cumulative ack. Returns true if it made
    /// progress (the cumulative ack advanced or segments newly known to have arrived).
    bool OnAck(uint32_t receiver,
               uint32_t cumulative,
               const std::vector<Range>& nacks,
               double echo,
               uint32_t known = 0);
    /// Timeout recovery: queues every segment some receiver is known to miss (NACKed, not
    /// selectively acked since) that was last sent before \p sentBefore (its retransmission
    /// was lost too, or is overdue). Returns how many were queued.
    uint32_t QueueKnownLost(double sentBefore);
    /// Tail-loss probe: queues the last segment for resending if some receiver has not
    /// reported it received (and it is not queued already). Returns true if queued.
    bool QueueTailProbe();
    /// True if some pending receiver has not reported on segments it may lack (sent segments
    /// beyond what its acks describe): only a poll can tell.
    bool HasUnreported() const;
    /// Every segment has been sent at least once.
    bool AllNewSent() const;
    /// Every receiver has every segment.
    bool Complete() const;
    bool HasQueuedRetransmissions() const;
    /// Segments queued for retransmission now.
    std::size_t QueuedRetransmissions() const;
    /// The highest segment the last OnAck queued for retransmission (-1: none).
    int64_t LastQueuedHighest() const;
    /// Receivers that have not acknowledged everything yet.
    std::vector<uint32_t> PendingReceivers() const;
    /// Segments sent again so far.
    uint64_t Retransmissions() const;
    /// When segment \p seq was last sent (-infinity if never).
    double SentAt(uint32_t seq) const;
    /// True if segment \p seq has been sent more than once (Karn: no RTT sample from it).
    bool WasRetransmitted(uint32_t seq) const;

  private:
    /// True if \p receiver still needs segment \p seq (as far as its acks tell).
    bool Needs(uint32_t receiver, uint32_t seq) const;
    /// True if \p seq may be queued for resending (see SetQueueOnNack).
    bool Resendable(uint64_t seq) const;

    // What Next reads and writes for every segment sent comes first, in the object's first
    // 128 bytes (on a 64-island run the senders' state is cold between segments).
    uint32_t m_count;
    uint32_t m_nextNew = 0;
    uint32_t m_copiesLeft = 0; ///< further copies of m_copySeq to send now
    uint32_t m_copySeq = 0;
    uint64_t m_retransmissions = 0;
    std::vector<double> m_lastSent;
    std::deque<uint32_t> m_retransmit;

    std::map<uint32_t, uint32_t> m_cumulative; ///< receiver -> cumulative ack
    /// receiver -> segments known to have arrived (selective acks), and how far its acks
    /// describe the stream (segments beyond: not reported on).
    std::map<uint32_t, std::vector<bool>> m_got;
    std::map<uint32_t, uint32_t> m_known;
    std::vector<bool> m_queued;
    std::vector<bool> m_resent;
    std::vector<uint8_t> m_repairRounds; ///< times each segment was taken for resending
    uint32_t m_maxCopies = 1;
    uint32_t m_minCopies = 1;
    bool m_queueOnNack = true;
    uint32_t m_block = 1;
    int64_t m_lastQueuedHighest = -1;
};

} // namespace ns3

#endif
