/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-queue.h"

#include "fixed-point.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AggregationQueue");
NS_OBJECT_ENSURE_REGISTERED(AggregationQueue);

TypeId
AggregationQueue::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AggregationQueue")
            .SetParent<Object>()
            .SetGroupName("IntelligentNetwork")
            .AddConstructor<AggregationQueue>()
            .AddTraceSource("SlotCompleted",
                            "A segment's sum is complete: segment, time it waited in its slot.",
                            MakeTraceSourceAccessor(&AggregationQueue::m_slotCompleted),
                            "ns3::AggregationQueue::SlotCompletedTracedCallback")
            .AddTraceSource("Duplicate",
                            "A contribution was counted already: segment, member.",
                            MakeTraceSourceAccessor(&AggregationQueue::m_duplicate),
                            "ns3::AggregationQueue::DuplicateTracedCallback")
            .AddTraceSource("Overflow",
                            "A segment's int32 sum overflowed: segment.",
                            MakeTraceSourceAccessor(&AggregationQueue::m_overflow),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

AggregationQueue::AggregationQueue() = default;
AggregationQueue::~AggregationQueue() = default;

void
AggregationQueue::Setup(uint32_t members, uint32_t slots, uint32_t count)
{
    NS_ABORT_MSG_IF(members == 0 || members > 64, "AggregationQueue: 1 to 64 members");
    NS_ABORT_MSG_IF(slots == 0 || count == 0, "AggregationQueue: slots and segments needed");
    m_members = members;
    m_slotCount = slots;
    m_count = count;
    m_slots.assign(std::min(slots, count), Slot{});
}

const AggregationQueue::Slot&
AggregationQueue::SlotOf(uint32_t seq) const
{
    static const Slot retired;
    return m_slots.empty() ? retired : m_slots.at(seq % m_slotCount);
}

void
AggregationQueue::Retire()
{
    m_slots.clear();
    m_slots.shrink_to_fit();
    m_inUse = 0;
}

AggregationQueue::Outcome
AggregationQueue::Contribute(uint32_t member,
                             uint32_t seq,
                             const std::vector<int32_t>& lanes,
                             Time now,
                             bool overflowed)
{
    NS_ABORT_MSG_IF(member >= m_members || seq >= m_count, "AggregationQueue: bad contribution");
    if (m_slots.empty())
    {
        ++m_stale; // retired
        return STALE;
    }
    Slot& s = m_slots[seq % m_slotCount];
    uint64_t bit = uint64_t(1) << member;
    if (s.seq == static_cast<int64_t>(seq))
    {
        if (s.mask & bit)
        {
            ++m_duplicates;
            m_duplicate(seq, member);
            return DUPLICATE;
        }
    }
    else if (s.doneSeq == static_cast<int64_t>(seq))
    {
        return ALREADY_SUMMED;
    }
    else if (s.seq < 0 && static_cast<int64_t>(seq) > s.doneSeq)
    {
        s.seq = seq;
        s.mask = 0;
        s.got = 0;
        s.sum.clear();
        s.overflow = false;
        s.first = now;
        ++m_inUse;
        m_maxInUse = std::max(m_maxInUse, m_inUse);
    }
    else
    {
        ++m_stale;
        return STALE;
    }
    s.mask |= bit;
    ++s.got;
    s.overflow = s.overflow || overflowed;
    if (!lanes.empty())
    {
        if (s.sum.empty())
        {
            s.sum = lanes;
        }
        else
        {
            for (std::size_t i = 0; i < lanes.size() && i < s.sum.size(); ++i)
            {
                if (!FixedPoint::AddChecked(s.sum[i], lanes[i]))
                {
                    s.overflow = true;
                }
            }
        }
    }
    if (s.got < m_members)
    {
        return ADDED;
    }
    double wait = (now - s.first).GetSeconds();
    m_totalWait += wait;
    m_maxWait = std::max(m_maxWait, wait);
    ++m_completed;
    --m_inUse;
    if (s.overflow)
    {
        ++m_overflows;
        m_overflow(seq);
    }
    s.doneSeq = s.seq;
    s.doneSum.swap(s.sum);
    s.doneOverflow = s.overflow;
    s.seq = -1;
    m_slotCompleted(seq, now - s.first);
    return COMPLETED;
}

const std::vector<int32_t>&
AggregationQueue::Result(uint32_t seq) const
{
    const Slot& s = SlotOf(seq);
    NS_ABORT_MSG_IF(s.doneSeq != static_cast<int64_t>(seq), "AggregationQueue: no result");
    return s.doneSum;
}

bool
AggregationQueue::HasResult(uint32_t seq) const
{
    return !m_slots.empty() && SlotOf(seq).doneSeq == static_cast<int64_t>(seq);
}

bool
AggregationQueue::Overflowed(uint32_t seq) const
{
    const Slot& s = SlotOf(seq);
    return s.doneSeq == static_cast<int64_t>(seq) && s.doneOverflow;
}

bool
AggregationQueue::IsPending(uint32_t seq) const
{
    return SlotOf(seq).seq == static_cast<int64_t>(seq);
}

bool
AggregationQueue::Contributed(uint32_t member, uint32_t seq) const
{
    if (m_slots.empty() || member >= m_members || seq >= m_count)
    {
        return true;
    }
    const Slot& s = SlotOf(seq);
    if (s.seq == static_cast<int64_t>(seq))
    {
        return (s.mask & (uint64_t(1) << member)) != 0;
    }
    return s.doneSeq >= static_cast<int64_t>(seq) || s.seq > static_cast<int64_t>(seq);
}

std::vector<uint32_t>
AggregationQueue::Missing(uint32_t seq) const
{
    std::vector<uint32_t> out;
    const Slot& s = SlotOf(seq);
    if (s.seq != static_cast<int64_t>(seq))
    {
        return out;
    }
    for (uint32_t m = 0; m < m_members; ++m)
    {
        if (!(s.mask & (uint64_t(1) << m)))
        {
            out.push_back(m);
        }
    }
    return out;
}

uint32_t
AggregationQueue::GetMembers() const
{
    return m_members;
}

uint32_t
AggregationQueue::GetCount() const
{
    return m_count;
}

uint32_t
AggregationQueue::GetSlots() const
{
    return m_slotCount;
}

uint64_t
AggregationQueue::GetCompleted() const
{
    return m_completed;
}

uint32_t
AggregationQueue::GetSlotsInUse() const
{
    return m_inUse;
}

uint32_t
AggregationQueue::GetMaxSlotsInUse() const
{
    return m_maxInUse;
}

double
AggregationQueue::GetTotalWait() const
{
    return m_totalWait;
}

double
AggregationQueue::GetMaxWait() const
{
    return m_maxWait;
}

uint64_t
AggregationQueue::GetDuplicates() const
{
    return m_duplicates;
}

uint64_t
AggregationQueue::GetStale() const
{
    return m_stale;
}

uint64_t
AggregationQueue::GetOverflows() const
{
    return m_overflows;
}

} // namespace ns3
