/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_AGGREGATION_QUEUE_H
#define INTELLIGENT_NETWORK_AGGREGATION_QUEUE_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief The slot pool of an in-network aggregator for one clique and round (SwitchML style).
 *
 * Segment seq of every member is summed in slot seq mod Slots. A slot completes when every
 * member's contribution for its current segment has arrived; the int32 lanes are summed with
 * overflow detection. The completed sum is kept in the slot's shadow copy until the slot is
 * reused, so a member that missed the result gets it again when it resends its contribution.
 * Members never use a slot before the sum of its previous segment came back (back-pressure),
 * so a contribution for a slot still busy with an older segment cannot happen in a correct
 * protocol; it is dropped and counted as stale.
 */
class AggregationQueue : public Object
{
  public:
    /// What happened to a contribution.
    enum Outcome
    {
        ADDED,          ///< Counted; the slot waits for other members.
        COMPLETED,      ///< It was the last one: the sum is ready (Result()).
        DUPLICATE,      ///< This member's contribution to the segment was already counted.
        ALREADY_SUMMED, ///< The segment's sum is in the shadow copy: resend it to the member.
        STALE           ///< Too old, or for a busy slot: dropped.
    };

    /// Signature of SlotCompleted: segment, wait in the slot.
    typedef void (*SlotCompletedTracedCallback)(uint32_t seq, Time wait);
    /// Signature of Duplicate: segment, member.
    typedef void (*DuplicateTracedCallback)(uint32_t seq, uint32_t member);

    static TypeId GetTypeId();
    AggregationQueue();
    ~AggregationQueue() override;

    /// \p members contributors, \p slots slots, \p count segments in the model.
    void Setup(uint32_t members, uint32_t slots, uint32_t count);

    /// Member \p member (0-based) contributes segment \p seq with int32 \p lanes (may be empty);
    /// \p overflowed: the lanes are a partial sum that already overflowed (aggregation trees).
    Outcome Contribute(uint32_t member,
                       uint32_t seq,
                       const std::vector<int32_t>& lanes,
                       Time now,
                       bool overflowed = false);
    /// The sum of a completed segment still held in its slot's shadow copy.
    const std::vector<int32_t>& Result(uint32_t seq) const;
    /// True if the sum of segment \p seq is complete and still in its slot's shadow copy.
    bool HasResult(uint32_t seq) const;
    /// True if the completed segment's sum overflowed int32 in some lane.
    bool Overflowed(uint32_t seq) const;
    /// True while segment \p seq is being aggregated.
    bool IsPending(uint32_t seq) const;
    /// Members that have not contributed to pending segment \p seq.
    std::vector<uint32_t> Missing(uint32_t seq) const;
    /// True if member \p member's contribution to segment \p seq is counted (or no longer
    /// needed: the segment was summed, its slot moved on to a later segment, or the queue was
    /// retired); false if the segment still needs it (pending without it, or not started).
    bool Contributed(uint32_t member, uint32_t seq) const;

    /// Free the slots (late contributions become stale); statistics remain.
    void Retire();

    uint32_t GetMembers() const;
    uint32_t GetSlots() const;
    uint32_t GetCount() const; ///< Segments in the model.
    uint64_t GetCompleted() const;
    uint32_t GetSlotsInUse() const;
    uint32_t GetMaxSlotsInUse() const;
    double GetTotalWait() const; ///< Sum over completed segments of (complete - first arrival).
    double GetMaxWait() const;
    uint64_t GetDuplicates() const;
    uint64_t GetStale() const;
    uint64_t GetOverflows() const;

  private:
    struct Slot
    {
        int64_t seq = -1; ///< Segment being aggregated, -1 when free.
        uint64_t mask = 0;
        uint32_t got = 0;
        std::vector<int32_t> sum;
        bool overflow = false;
        Time first;
        int64_t doneSeq = -1; ///< Last completed segment (shadow copy).
        std::vector<int32_t> doneSum;
        bool doneOverflow = false;
    };

    const Slot& SlotOf(uint32_t seq) const;

    uint32_t m_members = 0;
    uint32_t m_slotCount = 1;
    uint32_t m_count = 0;
    std::vector<Slot> m_slots;
    uint64_t m_completed = 0;
    uint32_t m_inUse = 0;
    uint32_t m_maxInUse = 0;
    double m_totalWait = 0;
    double m_maxWait = 0;
    uint64_t m_duplicates = 0;
    uint64_t m_stale = 0;
    uint64_t m_overflows = 0;

    TracedCallback<uint32_t, Time> m_slotCompleted;
    TracedCallback<uint32_t, uint32_t> m_duplicate;
    TracedCallback<uint32_t> m_overflow;
};

} // namespace ns3

#endif
