/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "outgoing-transfer.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ns3
{

OutgoingTransfer::OutgoingTransfer(uint32_t count, const std::vector<uint32_t>& receivers)
    : m_count(count),
      m_lastSent(count, -std::numeric_limits<double>::infinity()),
      m_queued(count, false),
      m_resent(count, false),
      m_repairRounds(count, 0)
{
    if (count == 0 || receivers.empty())
    {
        throw std::invalid_argument("outgoing transfer needs segments and receivers");
    }
    for (uint32_t r : receivers)
    {
        m_cumulative[r] = 0;
        m_got[r].assign(count, false);
        m_known[r] = 0;
    }
}

uint32_t
OutgoingTransfer::Count() const
{
    return m_count;
}

uint32_t
OutgoingTransfer::NextNew() const
{
    return m_nextNew;
}

void
OutgoingTransfer::SetMaxRepairCopies(uint32_t max)
{
    m_maxCopies = std::max<uint32_t>(1, max);
}

void
OutgoingTransfer::SetMinRepairCopies(uint32_t min)
{
    m_minCopies = std::max<uint32_t>(1, min);
}

void
OutgoingTransfer::SetQueueOnNack(bool queue, uint32_t block)
{
    m_queueOnNack = queue;
    m_block = std::max<uint32_t>(1, block);
}

bool
OutgoingTransfer::Resendable(uint64_t seq) const
{
    if (m_queueOnNack)
    {
        return true;
    }
    uint64_t end = (seq / m_block + 1) * m_block;
    return end > m_nextNew && m_nextNew < m_count; // its block is still being sent
}

uint32_t
OutgoingTransfer::MissingIn(uint32_t receiver, uint32_t first, uint32_t end) const
{
    auto it = m_cumulative.find(receiver);
    if (it == m_cumulative.end())
    {
        return 0;
    }
    uint32_t missing = 0;
    for (uint32_t s = std::max(first, it->second); s < std::min(end, m_count); ++s)
    {
        missing += m_got.at(receiver)[s] ? 0 : 1;
    }
    return missing;
}

uint32_t
OutgoingTransfer::Described(uint32_t receiver) const
{
    auto it = m_cumulative.find(receiver);
    if (it == m_cumulative.end())
    {
        return 0;
    }
    return std::max(it->second, m_known.at(receiver));
}

bool
OutgoingTransfer::Next(double now, uint32_t& seq, bool& retransmission, bool allowNew)
{
    if (m_copiesLeft > 0)
    {
        --m_copiesLeft;
        seq = m_copySeq;
        retransmission = true;
        m_lastSent[seq] = now;
        ++m_retransmissions;
        return true;
    }
    while (!m_retransmit.empty())
    {
        uint32_t s = m_retransmit.front();
        m_retransmit.pop_front();
        m_queued[s] = false;
        // Skip segments every receiver has acknowledged meanwhile.
        bool needed = false;
        for (const auto& [r, cum] : m_cumulative)
        {
            needed = needed || Needs(r, s);
        }
        if (!needed)
        {
            continue;
        }
        seq = s;
        retransmission = true;
        m_lastSent[s] = now;
        m_resent[s] = true;
        ++m_retransmissions;
        uint32_t rounds = m_repairRounds[s];
        m_repairRounds[s] = static_cast<uint8_t>(std::min<uint32_t>(rounds + 1, 255));
        uint32_t copies = rounds >= 31 ? m_maxCopies : std::min(m_maxCopies, 1u << rounds);
        copies = std::max(copies, std::min(m_minCopies, m_maxCopies));
        m_copiesLeft = copies - 1;
        m_copySeq = s;
        return true;
    }
    if (allowNew && m_nextNew < m_count)
    {
        seq = m_nextNew++;
        retransmission = false;
        m_lastSent[seq] = now;
        return true;
    }
    return false;
}

bool
OutgoingTransfer::OnAck(uint32_t receiver,
                        uint32_t cumulative,
                        const std::vector<Range>& nacks,
                        double echo,
                        uint32_t known)
{
    m_lastQueuedHighest = -1;
    auto it = m_cumulative.find(receiver);
    if (it == m_cumulative.end())
    {
        return false;
    }
    bool progress = false;
    cumulative = std::min(cumulative, m_count);
    if (cumulative > it->second)
    {
        it->second = cumulative;
        progress = true;
    }
    // Selective acks: in [cumulative, known), what is not NACKed has arrived.
    std::vector<bool>& got = m_got.at(receiver);
    uint32_t& reported = m_known.at(receiver);
    known = std::min(std::max(known, cumulative), m_nextNew);
    reported = std::max(reported, known);
    std::size_t next = 0;
    for (uint32_t s = it->second; s < known; ++s)
    {
        while (next < nacks.size() &&
               static_cast<uint64_t>(nacks[next].first) + nacks[next].second <= s)
        {
            ++next;
        }
        bool nacked = next < nacks.size() && nacks[next].first <= s;
        if (!nacked && !got[s])
        {
            got[s] = true;
            progress = true;
        }
    }
    for (const auto& [first, length] : nacks)
    {
        uint64_t end = std::min<uint64_t>(static_cast<uint64_t>(first) + length, m_nextNew);
        for (uint64_t s = std::max(first, it->second); s < end; ++s)
        {
            if (!m_queued[s] && !got[s] && m_lastSent[s] < echo && Resendable(s))
            {
                m_queued[s] = true;
                m_retransmit.push_back(static_cast<uint32_t>(s));
                m_lastQueuedHighest = std::max<int64_t>(m_lastQueuedHighest, s);
            }
        }
    }
    return progress;
}

bool
OutgoingTransfer::Needs(uint32_t receiver, uint32_t seq) const
{
    return m_cumulative.at(receiver) <= seq && !m_got.at(receiver)[seq];
}

uint32_t
OutgoingTransfer::QueueKnownLost(double sentBefore)
{
    m_lastQueuedHighest = -1;
    uint32_t queued = 0;
    for (const auto& [r, cum] : m_cumulative)
    {
        for (uint32_t s = cum; s < std::min(m_known.at(r), m_nextNew); ++s)
        {
            if (!m_queued[s] && Needs(r, s) && m_lastSent[s] < sentBefore && Resendable(s))
            {
                m_queued[s] = true;
                m_retransmit.push_back(s);
                m_lastQueuedHighest = std::max<int64_t>(m_lastQueuedHighest, s);
                ++queued;
            }
        }
    }
    return queued;
}

bool
OutgoingTransfer::QueueTailProbe()
{
    m_lastQueuedHighest = -1;
    uint32_t last = m_count - 1;
    if (m_nextNew < m_count || m_queued[last])
    {
        return false;
    }
    for (const auto& [r, cum] : m_cumulative)
    {
        if (Needs(r, last))
        {
            m_queued[last] = true;
            m_retransmit.push_back(last);
            m_lastQueuedHighest = last;
            return true;
        }
    }
    return false;
}

bool
OutgoingTransfer::HasUnreported() const
{
    for (const auto& [r, cum] : m_cumulative)
    {
        if (cum < m_count && m_known.at(r) < m_nextNew)
        {
            return true;
        }
    }
    return false;
}

bool
OutgoingTransfer::AllNewSent() const
{
    return m_nextNew >= m_count;
}

bool
OutgoingTransfer::Complete() const
{
    for (const auto& [r, cum] : m_cumulative)
    {
        if (cum < m_count)
        {
            return false;
        }
    }
    return true;
}

int64_t
OutgoingTransfer::LastQueuedHighest() const
{
    return m_lastQueuedHighest;
}

std::size_t
OutgoingTransfer::QueuedRetransmissions() const
{
    return m_retransmit.size() + m_copiesLeft;
}

bool
OutgoingTransfer::HasQueuedRetransmissions() const
{
    return !m_retransmit.empty() || m_copiesLeft > 0;
}

std::vector<uint32_t>
OutgoingTransfer::PendingReceivers() const
{
    std::vector<uint32_t> out;
    for (const auto& [r, cum] : m_cumulative)
    {
        if (cum < m_count)
        {
            out.push_back(r);
        }
    }
    return out;
}

uint64_t
OutgoingTransfer::Retransmissions() const
{
    return m_retransmissions;
}

double
OutgoingTransfer::SentAt(uint32_t seq) const
{
    return m_lastSent.at(seq);
}

bool
OutgoingTransfer::WasRetransmitted(uint32_t seq) const
{
    return m_resent.at(seq);
}

} // namespace ns3
