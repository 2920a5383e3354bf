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
 * retransmission, which takes priority over new segments. A NACKed segment is re-queued only
 * if it was last sent at least a guard time ago (about one round trip), so a NACK that crossed
 * the retransmission in flight does not trigger a duplicate. The transfer is complete when
 * every receiver has acknowledged every segment.
 */
class OutgoingTransfer
{
  public:
    using Range = std::pair<uint32_t, uint32_t>; ///< (first, length)

    OutgoingTransfer(uint32_t count, const std::vector<uint32_t>& receivers);

    uint32_t Count() const;
    /// The segment to send now (retransmissions first, then, if \p allowNew, the next new
    /// one); false if none is due.
    bool Next(double now, uint32_t& seq, bool& retransmission, bool allowNew = true);
    /// The next segment never sent (Count() when all were sent).
    uint32_t NextNew() const;
    /// Process an ack from \p receiver. Returns true if it made progress.
    bool OnAck(uint32_t receiver,
               uint32_t cumulative,
               const std::vector<Range>& nacks,
               double now,
               double guardS);
    /// Every segment has been sent at least once.
    bool AllNewSent() const;
    /// Every receiver has every segment.
    bool Complete() const;
    bool HasQueuedRetransmissions() const;
    /// Receivers that have not acknowledged everything yet.
    std::vector<uint32_t> PendingReceivers() const;
    /// Segments sent again so far.
    uint64_t Retransmissions() const;

  private:
    uint32_t m_count;
    uint32_t m_nextNew = 0;
    std::map<uint32_t, uint32_t> m_cumulative; ///< receiver -> cumulative ack
    std::deque<uint32_t> m_retransmit;
    std::vector<bool> m_queued;
    std::vector<double> m_lastSent;
    uint64_t m_retransmissions = 0;
};

} // namespace ns3

#endif
