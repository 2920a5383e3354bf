/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_INCOMING_TRANSFER_H
#define INTELLIGENT_NETWORK_INCOMING_TRANSFER_H

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Receiver state of one model transfer: which segments arrived. Pure C++.
 *
 * Received segments are kept as disjoint intervals, so acks and gap lists cost O(gaps), not
 * O(segments), even for models of millions of segments.
 */
class IncomingTransfer
{
  public:
    using Range = std::pair<uint32_t, uint32_t>; ///< (first, length)

    explicit IncomingTransfer(uint32_t count = 0);

    /// Set the number of segments (learned from the first packet); must not change later.
    void SetCount(uint32_t count);
    uint32_t Count() const;

    /// Record segment \p seq; true if it was new. Throws std::out_of_range if seq >= Count().
    bool Add(uint32_t seq);
    bool Has(uint32_t seq) const;
    bool Complete() const;
    /// Segments received (distinct).
    uint32_t Received() const;
    /// First missing segment (== Count() when complete).
    uint32_t Cumulative() const;
    /// One past the highest segment seen.
    uint32_t Highest() const;
    /// Missing ranges in [Cumulative(), upTo), at most \p maxRanges of them, in order.
    std::vector<Range> Missing(uint32_t upTo, std::size_t maxRanges) const;

  private:
    uint32_t m_count;
    uint32_t m_received = 0;
    uint32_t m_highest = 0;
    std::map<uint32_t, uint32_t> m_intervals; ///< start -> end (exclusive) of received runs
};

} // namespace ns3

#endif
