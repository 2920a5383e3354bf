/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "incoming-transfer.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

IncomingTransfer::IncomingTransfer(uint32_t count)
    : m_count(count)
{
}

void
IncomingTransfer::SetCount(uint32_t count)
{
    if (m_count != 0 && m_count != count)
    {
        throw std::invalid_argument("incoming transfer: segment count changed from " +
                                    std::to_string(m_count) + " to " + std::to_string(count));
    }
    m_count = count;
}

uint32_t
IncomingTransfer::Count() const
{
    return m_count;
}

bool
IncomingTransfer::Has(uint32_t seq) const
{
    auto it = m_intervals.upper_bound(seq);
    if (it == m_intervals.begin())
    {
        return false;
    }
    --it;
    return seq < it->second;
}

bool
IncomingTransfer::Add(uint32_t seq)
{
    if (seq >= m_count)
    {
        throw std::out_of_range("incoming transfer: segment " + std::to_string(seq) +
                                " beyond count " + std::to_string(m_count));
    }
    if (Has(seq))
    {
        return false;
    }
    ++m_received;
    m_highest = std::max(m_highest, seq + 1);
    uint32_t start = seq;
    uint32_t end = seq + 1;
    // Merge with a run ending at seq.
    auto next = m_intervals.upper_bound(seq);
    if (next != m_intervals.begin())
    {
        auto prev = std::prev(next);
        if (prev->second == seq)
        {
            start = prev->first;
            m_intervals.erase(prev);
        }
    }
    // Merge with a run starting at seq + 1.
    if (next != m_intervals.end() && next->first == end)
    {
        end = next->second;
        m_intervals.erase(next);
    }
    m_intervals[start] = end;
    return true;
}

bool
IncomingTransfer::Complete() const
{
    return m_count > 0 && m_received == m_count;
}

uint32_t
IncomingTransfer::Received() const
{
    return m_received;
}

uint32_t
IncomingTransfer::Cumulative() const
{
    if (m_intervals.empty() || m_intervals.begin()->first != 0)
    {
        return 0;
    }
    return m_intervals.begin()->second;
}

uint32_t
IncomingTransfer::Highest() const
{
    return m_highest;
}

std::vector<IncomingTransfer::Range>
IncomingTransfer::Missing(uint32_t upTo, std::size_t maxRanges) const
{
    std::vector<Range> out;
    upTo = std::min(upTo, m_count);
    uint32_t at = 0;
    for (auto it = m_intervals.begin(); it != m_intervals.end() && out.size() < maxRanges; ++it)
    {
        if (it->first >= upTo)
        {
            break;
        }
        if (it->first > at)
        {
            out.emplace_back(at, it->first - at);
        }
        at = it->second;
    }
    if (at < upTo && out.size() < maxRanges)
    {
        out.emplace_back(at, upTo - at);
    }
    return out;
}

} // namespace ns3
