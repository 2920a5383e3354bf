/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_ISLAND_TRANSPORT_H
#define INTELLIGENT_NETWORK_ISLAND_TRANSPORT_H

#include "island-header.h"
#include "max-min-allocator.h"

#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/// The real values a message carries at the start of its payload (a slice of a vector).
struct MessageValues
{
    std::shared_ptr<const std::vector<double>> data; ///< Source vector (shared, not copied).
    uint64_t offset = 0;                             ///< First value carried.
    uint32_t count = 0;                              ///< Values carried.
    bool fixedPoint = false; ///< int32 fixed point (aggregation) instead of IEEE doubles.
};

/**
 * \brief One message an island hands to its transport: a model, a chunk of one, or a
 * contribution stream to an FPGA aggregation service.
 *
 * A message is identified by (round, sender, tag) on the wire. DATA messages go to one island
 * (unicast) or to a multicast group (\c receivers are the group's member islands, which
 * acknowledge). A CONTRIBUTION message goes to an FPGA service (\c dest); its "acks" are the
 * RESULT segments (the sums) that come back by multicast.
 */
struct OutMessage
{
    uint32_t round = 0;
    uint16_t tag = 0;                  ///< Message id within (round, sender); 0 = a whole model.
    uint8_t type = IslandHeader::DATA; ///< DATA or CONTRIBUTION.
    /// Islands that must receive it (DATA); for a CONTRIBUTION the aggregator's tag.
    std::vector<uint32_t> receivers;
    Ipv4Address dest;                   ///< Island address, multicast group or FPGA service.
    uint16_t port = 0;                  ///< Destination port (0: the islands' port).
    std::vector<uint32_t> groupDevices; ///< Multicast: this node's devices the tree leaves by.
    uint64_t bytes = 0;                 ///< Modelled payload bytes.
    MessageValues values;               ///< Real values at the start of the payload.
    uint8_t flags = 0;                  ///< Extra header flags of every segment (FLAG_FALLBACK).
    uint16_t cliqueKey = 0;             ///< CONTRIBUTION: the clique at the aggregator.
    uint32_t window = 0;                ///< CONTRIBUTION: slots (outstanding contributions).
    /// Ideal pacing only: what the stream consumes per unit rate, re-evaluated after a reroute.
    std::function<FlowUsage()> usage;
    /// Ideal pacing only: streams with the same non-empty key are one flow (aggregation).
    std::string share;
    Time rttHint; ///< Round-trip estimate before the first sample (0: transport default).
};

/// A message (or the clique's sums) that arrived completely.
struct InMessage
{
    uint32_t round = 0;
    uint16_t tag = 0;
    uint32_t origin = 0;   ///< Sending island, or the aggregator's tag for sums.
    uint8_t type = 0;      ///< DATA or RESULT.
    uint8_t flags = 0;     ///< OR of the flags of its segments.
    uint64_t bytes = 0;    ///< Payload bytes received (each segment once).
    uint32_t overflows = 0; ///< RESULT: segments whose fixed-point sum overflowed.
    std::vector<double> values; ///< Values decoded from FLAG_VALUES segments (may be longer
                                ///< than what was sent: the receiver truncates).
};

/**
 * \ingroup intelligent-network
 * \brief How an island moves its messages: the transport under every exchange pattern.
 *
 * Three transports implement it: IdealTransport (UDP paced at the rates a central allocator
 * assigns: the idealised, network-assisted bound), CcTransport (the same UDP protocol with an
 * end-to-end congestion control per stream, no oracle) and TcpTransport (ns-3's TCP for
 * unicast messages). Exchange patterns (Exchange subclasses) only call Send/Cancel and receive
 * complete messages through the Deliver callback; which incoming messages are wanted is asked
 * through the Accept callback (so that acks are sent only for the island's own cliques).
 */
class IslandTransport : public Object
{
  public:
    /// (round, origin, tag, type, flags) -> whether the island wants this message.
    using AcceptCallback = std::function<bool(uint32_t, uint32_t, uint16_t, uint8_t, uint8_t)>;
    using DeliverCallback = std::function<void(const InMessage&)>;
    /// Per segment sent: round, tag, seq, payload bytes, retransmission.
    using SentCallback = std::function<void(uint32_t, uint16_t, uint32_t, uint32_t, bool)>;
    /// Per new segment received: round, origin, seq, payload bytes, payload packet.
    using ReceivedCallback =
        std::function<void(uint32_t, uint32_t, uint32_t, uint32_t, Ptr<const Packet>)>;

    static TypeId GetTypeId();
    IslandTransport();
    ~IslandTransport() override;

    /// Island \p islandId on \p node; \p directory maps island ids to addresses.
    virtual void Setup(Ptr<Node> node,
                       uint32_t islandId,
                       const std::vector<Ipv4Address>& directory);
    void SetCallbacks(AcceptCallback accept,
                      DeliverCallback deliver,
                      SentCallback sent,
                      ReceivedCallback received);
    /// Model bytes per segment and fixed-point fraction bits used to encode values.
    void SetSegmentSize(uint32_t bytes);
    void SetFixedPointBits(uint32_t bits);
    /// Round-trip estimate per peer island / aggregator tag before any sample.
    void SetRttHints(const std::map<uint32_t, Time>& hints);

    virtual void Start() = 0;
    virtual void Stop() = 0;
    /// Start sending \p message; returns a handle for Cancel/LastProgress.
    virtual uint64_t Send(const OutMessage& message) = 0;
    /// Stop sending (and retransmitting) a message.
    virtual void Cancel(uint64_t handle) = 0;
    /// True if it carries multicast and contribution messages (UDP transports).
    virtual bool SupportsGroups() const = 0;
    /// Routes changed: re-evaluate what open streams use (ideal pacing).
    virtual void RefreshStreams();
    /// The devices this node's copies of \p group leave by changed (a reroute): open and
    /// later streams to the group use \p devices.
    virtual void SetGroupDevices(Ipv4Address group, const std::vector<uint32_t>& devices);
    /// When the message last made progress (an ack or a sum arrived), or its start.
    virtual Time LastProgress(uint64_t handle) const = 0;
    /// How long one repair of the message takes at most when nothing is lost: a request for
    /// a missing piece and its answer, with margin (contributions: a sum request's round
    /// trip); zero if unknown. Watchdogs wait several of these before giving up on a peer
    /// that is still answering.
    virtual Time RecoveryRoundTrip(uint64_t handle) const;

    /// Segments (or, for TCP, bytes) sent again so far.
    virtual uint64_t GetRetransmissions() const = 0;
    /// Values that did not fit the fixed point when encoded.
    uint64_t GetEncodeOverflows() const;

  protected:
    void DoDispose() override;

    /// Round-trip hint for a stream to \p receivers (the largest), or \p fallback.
    Time HintFor(const std::vector<uint32_t>& receivers, Time fallback) const;

    Ptr<Node> m_node;
    uint32_t m_islandId = 0;
    std::vector<Ipv4Address> m_directory;
    uint32_t m_segmentSize = 8192;
    uint32_t m_fixedPointBits = 16;
    std::map<uint32_t, Time> m_rttHints;
    AcceptCallback m_accept;
    DeliverCallback m_deliver;
    SentCallback m_sent;
    ReceivedCallback m_received;
    uint64_t m_encodeOverflows = 0;
};

} // namespace ns3

#endif
