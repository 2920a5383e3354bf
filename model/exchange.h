/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_EXCHANGE_H
#define INTELLIGENT_NETWORK_EXCHANGE_H

#include "exchange-pattern.h"
#include "island-transport.h"

#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \brief What one island does in one round of the schedule's period: its clique, the
 * clique's exchange pattern and the structure the pattern needs (from TrafficPlanner).
 */
struct IslandRoundPlan
{
    int32_t clique = -1;    ///< Index of its clique in the round; -1 = sits out.
    uint16_t cliqueKey = 0; ///< Network-wide id of the clique (period round, clique).
    ExchangePattern pattern = ExchangePattern::ALL_TO_ALL;
    std::vector<uint32_t> peers;   ///< The other members (island ids), in the pattern's order.
    std::vector<uint32_t> targets; ///< Islands it sends its model to (all-to-all, multicast).
    /// Members (island ids, this island included) in the pattern's order: the ring order, the
    /// parameter server first, the tree's member order.
    std::vector<uint32_t> members;
    Ipv4Address group;                  ///< Multicast: its own group (one per source).
    std::vector<uint32_t> groupDevices; ///< Multicast: devices of this node the tree leaves by.
    uint32_t aggregator = 0;            ///< Aggregation: tag of the FPGA service it sends to.
    Ipv4Address aggregatorAddress;      ///< Aggregation: where its contributions go (the first
                                        ///< FPGA of its clique's tree on its path).
    /// Aggregation: slots of the clique's pools (outstanding contributions); 0 = the island's
    /// AggregationSlots.
    uint32_t aggregationWindow = 0;
    std::vector<std::vector<int32_t>> trees; ///< TREE: parent (index into members) per tree.
    double chunkBytes = 0;                   ///< TREE: pipelining chunk, payload bytes.
};

/// What a finished exchange hands to the island for the merge.
struct ExchangeResult
{
    bool isSum = false; ///< A sum over all members (else the peers' models).
    std::vector<uint32_t> origins;           ///< Whose model each of \c models is.
    std::vector<std::vector<double>> models; ///< The peers' vectors (models; a fallback's sum
                                             ///< also hands over the models it summed).
    std::vector<double> sum;                  ///< Sum: over all members, this island included.
    uint32_t members = 0;                     ///< Sum: how many vectors it adds up.
    bool fixedPoint = false; ///< Sum: exact int32 fixed point (aggregation) or doubles.
    bool fellBack = false;   ///< Aggregation: the FPGA failed; members summed themselves.
    uint64_t overflows = 0;  ///< Segments whose fixed-point sum overflowed.
};

/// Everything an exchange needs from its island (no back-reference to the application).
struct ExchangeContext
{
    uint32_t island = 0;
    uint32_t round = 0;
    IslandRoundPlan plan;
    Ptr<IslandTransport> unicast; ///< Carries unicast messages.
    Ptr<IslandTransport> group;   ///< Carries multicast and contribution messages.
    /// The island's values of this round (null: opaque bytes only).
    std::shared_ptr<const std::vector<double>> values;
    uint32_t valueCount = 0; ///< Values every member carries (0: none).
    uint64_t modelBytes = 0;
    uint32_t segmentSize = 0;
    uint32_t fixedPointBits = 16;
    uint16_t aggregationPort = 0;
    uint32_t aggregationSlots = 1;
    Time aggregatorTimeout;
    uint32_t aggregatorTimeoutRepairs = 0; ///< See TrainingIsland::AggregatorTimeoutRepairs.
    std::vector<Ipv4Address> directory; ///< Island addresses by id.
    /// Ideal pacing: what a stream from this island to \p destTag (peer id, GROUP_TAG or
    /// aggregator tag) uses, through the current routes.
    std::function<FlowUsage(uint32_t destTag)> usage;
    /// The island's memory of failed FPGAs (shared by its rounds).
    std::function<bool(uint32_t aggregator)> aggregatorDead;
    std::function<void(uint32_t aggregator)> markAggregatorDead;
    std::function<void()> done; ///< Called once, when the exchange is complete.
};

/**
 * \ingroup intelligent-network
 * \brief One island's part of one clique's exchange in one round (abstract).
 *
 * Each ExchangePattern is one subclass in its own file (AllToAllExchange, MulticastExchange,
 * AggregationExchange, RingExchange, TreeExchange, ParameterServerExchange). TrainingIsland
 * creates one per round with Create(), gives it its context, Start()s it when the compute is
 * done and forwards the messages of that round (Receive); the exchange sends through the
 * transports and calls context.done once it holds what the island merges (Result()).
 */
class Exchange : public Object
{
  public:
    static TypeId GetTypeId();
    Exchange();
    ~Exchange() override;

    /// The exchange class of \p pattern.
    static Ptr<Exchange> Create(ExchangePattern pattern);

    void SetContext(ExchangeContext context);
    const ExchangeContext& Context() const;

    /// The compute is done: start sending.
    virtual void Start() = 0;
    /// A complete message of this round arrived.
    virtual void Receive(const InMessage& message) = 0;
    /// A segment of this round from \p origin with \p flags is arriving (before it is
    /// complete); e.g. a peer's fallback from a failed FPGA.
    virtual void OnSegment(uint32_t origin, uint16_t tag, uint8_t flags);
    /// True if this island wants message (origin, tag, type) of this round.
    virtual bool Accepts(uint32_t origin, uint16_t tag, uint8_t type, uint8_t flags) const;
    /// What the island merges (call once, after done).
    virtual ExchangeResult TakeResult() = 0;
    /// Stop sending (the application stops).
    virtual void Abort();
    /**
     * The transport handed \p bytes payload bytes of this island's message \p tag of this
     * round to the network (\p retransmission: bytes sent again). Drives the send queues of
     * Enqueue(); TrainingIsland forwards its transports' sent callbacks here.
     */
    void NotifySent(uint16_t tag, uint64_t bytes, bool retransmission);

    bool IsComplete() const;

    /// Where a piece of the model lies: its payload bytes and the values it carries.
    struct Piece
    {
        uint64_t bytes = 0;      ///< Payload bytes of its message (at least 1).
        uint64_t valueStart = 0; ///< First value index (into the model's values).
        uint64_t valueCount = 0; ///< Values it carries.
    };

    /**
     * Cut \p bytes payload bytes carrying values [\p valueStart, \p valueStart + \p values) into
     * \p n pieces as even as possible (ChunkBytes / ChunkStart). A piece is never empty and
     * always has room for its values in segments of \p segmentSize (floor(segmentSize / 8)
     * doubles each): where the even share is smaller, the piece grows to that room (only when
     * the values fill nearly the whole model).
     */
    static std::vector<Piece> Split(uint64_t bytes, uint64_t valueStart, uint64_t values,
                                    uint32_t n, uint32_t segmentSize);

  protected:
    void DoDispose() override;
    /// Payload bytes of a message carrying the whole model: ModelBytes, grown to the room the
    /// island's values need where they fill nearly all of it (Split with one piece: a segment
    /// carries floor(SegmentSize / 8) doubles, so a segment size that is not a multiple of 8
    /// leaves a few bytes of each segment unused).
    uint64_t ModelMessageBytes() const;
    /// Mark the exchange complete and tell the island (once).
    void Complete();
    /// Send a message through the unicast transport to island \p to.
    uint64_t SendTo(uint32_t to, uint16_t tag, uint64_t bytes, MessageValues values);
    /// The values slice [offset, offset + count) of \p vector.
    static MessageValues Slice(std::shared_ptr<const std::vector<double>> vector,
                               uint64_t offset,
                               uint64_t count,
                               bool fixedPoint = false);
    /// Bytes of chunk \p c of \p chunks of a \p total-byte payload (as even as possible).
    static uint64_t ChunkBytes(uint64_t total, uint32_t chunks, uint32_t c);
    /// First value index of chunk \p c of \p chunks over \p total values.
    static uint64_t ChunkStart(uint64_t total, uint32_t chunks, uint32_t c);

    /// Remember a message sent through \p transport (Abort cancels it).
    void Track(Ptr<IslandTransport> transport, uint64_t handle);

    /**
     * Send a unicast message (tag unique within the island's round) to island \p to through
     * send queue \p lane of that destination: a queue's messages leave one after the other, the
     * next as soon as every new byte of the previous one has been handed to the network (as
     * through a socket's send buffer). Chunks of a pipeline thus follow each other on a link
     * instead of sharing it and all finishing at the end; different lanes (e.g. a tree's
     * reduction and another tree's broadcast to the same neighbour) run side by side.
     */
    void Enqueue(uint32_t to, uint32_t lane, uint16_t tag, uint64_t bytes, MessageValues values);
    /// A copy of \p count values of \p source from \p offset, as a message's values.
    static MessageValues Snapshot(const std::vector<double>& source, uint64_t offset,
                                  uint64_t count);
    /// Index of this island in \p members; aborts naming the round if it is not a member.
    uint32_t MemberIndex(const std::vector<uint32_t>& members) const;

    ExchangeContext m_ctx;
    std::vector<std::pair<Ptr<IslandTransport>, uint64_t>> m_sent; ///< Messages sent.

  private:
    /// A message waiting in a send queue.
    struct Queued
    {
        uint16_t tag;
        uint64_t bytes;
        MessageValues values;
    };

    /// Send the head of every idle queue (re-entrant calls from the transport only mark).
    void Pump();

    bool m_complete = false;
    std::map<std::pair<uint32_t, uint32_t>, std::deque<Queued>> m_queues; ///< (to, lane)
    std::set<std::pair<uint32_t, uint32_t>> m_busy; ///< Queues with a message being handed over
    /// tag -> (queue, new bytes not yet handed to the network).
    std::map<uint16_t, std::pair<std::pair<uint32_t, uint32_t>, uint64_t>> m_handing;
    bool m_pumping = false;
};

} // namespace ns3

#endif
