/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_UDP_TRANSPORT_H
#define INTELLIGENT_NETWORK_UDP_TRANSPORT_H

#include "egress-pacer.h"
#include "incoming-transfer.h"
#include "island-transport.h"
#include "multicast-sender.h"
#include "outgoing-transfer.h"
#include "parity-repair.h"

#include "ns3/event-id.h"
#include "ns3/inet-socket-address.h"
#include "ns3/net-device.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief The island's UDP protocol: segmented messages with acks, NACKs and polls, unicast,
 * multicast and FPGA contributions. How fast each stream may send is left to a subclass
 * (IdealTransport: the rate a central allocator assigns; CcTransport: a congestion window).
 *
 * Reliability: receivers ack every AckInterval new segments, on the last segment, on
 * completion, on duplicates and at once on an ECN congestion mark, with a cumulative ack, the
 * highest segment seen and NACK ranges; senders retransmit NACKed segments (last sent before
 * the packet that triggered the ack, so a NACK crossing a retransmission does not resend it
 * twice) before new ones, and poll after a timeout (Rto, from the subclass). Round trips are
 * estimated per stream as in RFC 6298 (SRTT, RTTVAR) from acks echoing segment timestamps or,
 * for contributions, from sums of segments sent once (Karn's rule); before the first sample
 * from the hints the helper provides (path latencies).
 *
 * Contributions (aggregation): at most `window` contributions outstanding (a segment may use
 * slot s = seq mod window only once the sum of the slot's previous segment came back:
 * back-pressure, SwitchML style); the sums come back by multicast and double as acks; a
 * missing sum below the highest one received makes the member resend that contribution (the
 * FPGA answers a contribution it already summed with the kept sum); the FPGA's RESEND
 * requests are honoured at most MaxResendRequests times per segment.
 *
 * Multicast models (MulticastRepair=parity, the default): NACKed segments are not resent one
 * by one (one copy per receiver and loss); the sender sends parity segments of the blocks
 * receivers miss segments of (ParityRepair: an ideal erasure code over blocks of ParityBlock
 * segments, as many as the worst receiver of the block needs, raised to ParityConfidence,
 * minus those in flight). Receivers report the parity they hold per unrecovered block in
 * their acks and recover a block's missing segments once data + parity segments reach its
 * size; the payload of a recovered segment is rebuilt from the sender's block (the code's
 * arithmetic idealised; the parity packets themselves are full-size packets on the wire).
 * Unicast keeps plain resends (one receiver).
 */
class UdpTransport : public IslandTransport
{
  public:
    /// Stream tag of a multicast stream (peer ids are below it).
    static constexpr uint32_t GROUP_TAG = 0xFFFF;

    static TypeId GetTypeId();
    UdpTransport();
    ~UdpTransport() override;

    void Start() override;
    void Stop() override;
    uint64_t Send(const OutMessage& message) override;
    void Cancel(uint64_t handle) override;
    bool SupportsGroups() const override;
    Time LastProgress(uint64_t handle) const override;
    Time RecoveryRoundTrip(uint64_t handle) const override;
    uint64_t GetRetransmissions() const override;
    /// Congestion-mark echoes this island's streams heard (acks or sums with an ECN echo,
    /// sums that arrived marked), all rounds.
    uint64_t GetEcnEchoes() const;

    /// Signature of EcnEcho: the round of the stream that heard the echo.
    typedef void (*RoundTracedCallback)(uint32_t round);
    void SetGroupDevices(Ipv4Address group, const std::vector<uint32_t>& devices) override;
    /// Parity segments sent so far (MulticastRepair=parity).
    uint64_t GetParitySegments() const;
    /// Segments recovered from parity by this island as a receiver.
    uint64_t GetParityRecovered() const;

  protected:
    /// One outgoing stream.
    struct Stream
    {
        uint64_t handle = 0;
        OutMessage msg;
        uint32_t destTag = 0; ///< Peer island, GROUP_TAG or aggregator tag.
        uint16_t port = 0;
        OutgoingTransfer state{1, {0}}; ///< Replaced when the stream opens.
        double rateBps = 0; ///< Pacing rate (set by the subclass).
        bool released = false; ///< Every new segment has been sent.
        EventId sendEvent;
        /// The retransmission timer: one pending event at most, never earlier than
        /// rtoDeadline; a restart that moves the deadline later only moves rtoDeadline (the
        /// event, when it comes early, waits again until it).
        EventId rtoEvent;
        Time rtoDeadline;
        double srtt = 0;   ///< Of the slowest receiver (largest SRTT + 4 RTTVAR).
        double rttvar = 0; ///< Of the same receiver.
        /// Per receiver (multicast: each member; else the one destination): SRTT, RTTVAR,
        /// sampled yet.
        struct Rtt
        {
            double srtt = 0;
            double rttvar = 0;
            bool sampled = false;
        };
        std::map<uint32_t, Rtt> rtts;
        uint32_t backoff = 1;
        Time lastProgress;
        Time opened;
        std::map<uint32_t, uint32_t> highest; ///< receiver -> one past its highest segment
        /// Multicast DATA under MulticastRepair=parity: the blocks' parity state, the parity
        /// segments queued (block per segment; count per block) and, per receiver, how many
        /// blocks its loss was sampled on. Held apart (null for every other stream): inline it
        /// made each stream 40% larger, read per packet, and allocated an empty deque's 576
        /// bytes for every stream.
        struct Parity
        {
            Parity(uint32_t count, uint32_t block, double confidence)
                : repair(count, block, confidence)
            {
            }

            ParityRepair repair;
            std::deque<uint32_t> queue;
            std::map<uint32_t, uint32_t> queued;
            std::map<uint32_t, uint32_t> sampled;
            std::map<uint32_t, uint32_t> from; ///< receiver -> first block it may miss
        };

        std::unique_ptr<Parity> parity;

        /// Parity segments wait to be sent.
        bool ParityQueued() const
        {
            return parity && !parity->queue.empty();
        }

        std::vector<Ptr<NetDevice>> egress; ///< This node's devices the stream leaves by.
        Time egressAt = Seconds(-1);        ///< When egress was looked up.
        /// Contributions: segment -> when its missing sum was last requested, and how often.
        std::map<uint32_t, std::pair<double, uint32_t>> sumRequested;
        double sumDelay = 0; ///< Contributions: largest one-way delay of a sum from its FPGA.
        /// Contributions: the root's end-of-sums marker arrived (every sum exists at the root:
        /// one still missing here was lost, not delayed).
        bool sumsEnded = false;
        /// Contributions: segments an FPGA asked for (lost on the way) and sums that came
        /// only as resends (their multicast copy lost): the measured loss of the path each way, which sets how many
        /// copies a resend or a sum request goes out in (RepairCopiesFor).
        uint32_t contributionsAsked = 0;
        uint32_t sumsRepaired = 0;
        EventId requestEvent; ///< Contributions: the missing-sum request timer.
    };

    /// What an ack (or a sum) told a stream.
    struct Feedback
    {
        bool progress = false; ///< New segments acknowledged.
        uint32_t lost = 0;     ///< Segments newly queued for retransmission.
        int64_t lostHighest = -1; ///< The highest of them (-1: none).
        bool ecn = false;      ///< The receiver saw a congestion mark.
        /// The segment the mark is on (ack: the highest segment the receiver saw, as it acks
        /// at once on a mark; sum: its segment).
        uint32_t markedSeq = 0;
    };

    void DoDispose() override;

    /// A stream opened: set its rate (SetRate) or window.
    virtual void OnOpen(Stream& s) = 0;
    /// Every new segment of \p s has been sent (retransmissions may follow).
    virtual void OnAllNewSent(Stream& s);
    /// Segment \p seq of \p s went out (\p retransmission: sent before).
    virtual void OnSegmentSent(Stream& s, uint32_t seq, bool retransmission);
    /// \p s is closed (complete or cancelled).
    virtual void OnClose(Stream& s);
    /// True if \p s may put one more segment in flight now.
    virtual bool WindowOpen(const Stream& s) const;
    /// An ack or a sum arrived for \p s.
    virtual void OnFeedback(Stream& s, const Feedback& fb);
    /// The poll timer of \p s fired (nothing acknowledged for Rto()).
    virtual void OnTimeout(Stream& s);
    /// The poll (retransmission) timeout of \p s, seconds.
    virtual double Rto(const Stream& s) const = 0;
    /// Most copies of a model segment's repeated resend (OutgoingTransfer::SetMaxRepairCopies);
    /// 1 here: plain ARQ, as where loss signals congestion (redundant copies would add load
    /// to a congested path and bypass the window).
    virtual uint32_t RepairCopies() const;
    /// NACK ranges per ack when the MaxNackRanges attribute is 0 (64 here).
    virtual uint32_t DefaultNackRanges() const;
    /// Ack interval when the AckInterval attribute is 0 (automatic).
    virtual uint32_t DefaultAckInterval() const;
    /// Sets the rate of the stream \p handle and resumes it.
    void SetRate(uint64_t handle, double rateBps);
    /// Segments of \p s sent but not yet acknowledged by its slowest receiver.
    uint32_t InFlight(const Stream& s) const;
    /// Streams by handle.
    std::map<uint64_t, Stream>& Streams();
    /// Resume sending \p handle if it is paced and idle.
    void Resume(uint64_t handle);

    uint32_t m_ackInterval = 0;
    Time m_minRto;
    Time m_initialRtt;
    bool m_ecn = false; ///< Send ECN-capable packets (ECT(0)) and echo CE marks.

  private:
    /// One incoming stream.
    struct InStream
    {
        IncomingTransfer state;
        uint32_t sinceAck = 0;
        bool delivered = false;
        bool ce = false; ///< A congestion mark arrived since the last ack.
        InMessage msg;
        std::map<uint32_t, uint32_t> parityHeld; ///< unrecovered block -> parity segments
        uint32_t parityBlock = 0;                ///< Block size of the parity received.
    };

    /// Where a receiver rebuilds the segments it recovers from parity: the sender's stream.
    struct ParitySource
    {
        UdpTransport* sender = nullptr;
        uint64_t handle = 0;
    };
    /// (origin island, round, tag) -> sender stream, for every open parity-repaired stream.
    static std::map<std::tuple<uint32_t, uint32_t, uint16_t>, ParitySource>& ParitySources();

    static uint64_t InKey(uint32_t round, uint32_t origin, uint16_t tag);
    uint32_t SegmentCount(uint64_t bytes) const;
    /// Most NACK ranges in one ack (MaxNackRanges, at most what fits in one segment).
    uint32_t NackRanges() const;
    /// Most missing ranges one ack describes (MaxNackRanges or the transport's default, not
    /// cut to what fits in a segment as ranges: beyond that the ack carries a bitmap).
    uint32_t DescribedRanges() const;
    uint32_t SegmentPayload(const OutMessage& m, uint32_t seq) const;
    uint32_t ValuesPerSegment(uint8_t type) const;
    /// The payload of segment \p seq of \p m (its values, fixed point for contributions);
    /// \p overflowed, if given, is set when a contribution's value did not fit int32.
    Ptr<Packet> MakePayload(const OutMessage& m, uint32_t seq, bool* overflowed = nullptr);
    void SendNext(uint64_t handle);
    /// Local flow control: how long \p s must wait for its egress queues to drain below
    /// HostQueue (zero: send now).
    Time EgressBackoff(Stream& s);
    /// The devices of this node a packet of \p s leaves by (unicast: the route's).
    void LookupEgress(Stream& s);
    void Release(Stream& s);
    void Finish(uint64_t handle);
    void ArmRto(uint64_t handle);
    void OnRto(uint64_t handle);
    void RttSample(Stream& s, uint32_t receiver, double sample);
    Stream* FindByDest(uint32_t round, uint32_t destTag, uint16_t tag);

    void HandleRead(Ptr<Socket> socket);
    void HandleData(const IslandHeader& h, Ptr<Packet> packet, bool ce);
    void HandleResult(const IslandHeader& h, Ptr<Packet> packet, bool ce);
    void HandleAck(const IslandHeader& h, Ptr<Packet> packet);
    void HandlePoll(const IslandHeader& h);
    void HandleResend(const IslandHeader& h);
    void HandleParity(const IslandHeader& h, Ptr<Packet> packet, bool ce);
    /// Recover the missing segments of \p block of \p in if the parity held for it and its
    /// data received suffice (\p h: any header of the message); true if it did.
    bool RecoverBlock(InStream& in, const IslandHeader& h, uint32_t block);
    /// A segment new to \p in: count it, keep its values, report it.
    void TakeSegment(InStream& in, const IslandHeader& h, Ptr<Packet> packet);
    /// Hand \p in to the exchange if it is complete and was not yet.
    void DeliverIfComplete(InStream& in, uint32_t round, uint32_t origin, uint16_t tag);
    /// Parity repair at the sender: what an ack of \p receiver (answering a packet sent at
    /// \p echo, holding \p held parity per block) asks for; queues it. Returns how many parity
    /// segments were queued; \p highest: the last segment of the highest block they repair
    /// (-1: none), a loss signal for a congestion window.
    uint32_t QueueParity(Stream& s,
                         uint32_t receiver,
                         const std::map<uint32_t, uint32_t>& held,
                         double echo,
                         int64_t& highest);
    /// Parity repair: how many repairs of \p s must succeed at once (ParityRepair::Due's
    /// jointly): every pending one after the last new segment, else 1.
    uint32_t JointRepairs(const Stream& s) const;
    /// Send the next queued parity segment of \p s; its payload size.
    uint32_t SendParity(Stream& s);
    /// Retransmissions or parity queued.
    static bool RepairQueued(const Stream& s);
    void Unregister(const Stream& s);
    /// Contributions: header-only requests (RESEND) to the FPGA for the sums missing below
    /// \p upTo whose contribution (or last request) left before \p sentBefore and that were
    /// not requested within the last round trip. Returns how many were requested.
    uint32_t RequestSums(Stream& s, uint32_t upTo, double sentBefore);
    /// Contributions: the round trip of a sum request (to the FPGA, up the tree, the sum
    /// back): 2.5 times the largest one-way delay of a sum seen, plus 1 ms.
    double RequestRtt(const Stream& s) const;
    /// Contributions: arm the request timer (if not running).
    void ArmSumRequest(uint64_t handle);
    /// Contributions: ask for the sums missing below the highest one received and for the
    /// next one due (tail loss), each at most once per RequestRtt.
    void OnSumRequestTimer(uint64_t handle);
    void StoreValues(InStream& in, const IslandHeader& h, Ptr<Packet> packet);
    void SendAck(uint32_t round, uint32_t origin, uint16_t tag, InStream& in, uint64_t echo,
                 bool full);
    void SendControl(const IslandHeader& h, Ptr<Packet> payload, Ipv4Address to);
    /// Where a data segment to \p to goes: with ECT(0) in the TOS when Ecn is on (ns-3's
    /// UdpSocketImpl::SendTo takes the TOS from the address, not from Socket::SetIpTos).
    InetSocketAddress DataAddress(Ipv4Address to, uint16_t port) const;

    uint16_t m_port;
    uint32_t m_maxNackRanges;
    uint32_t m_maxResendRequests;
    uint32_t m_tailMarkers; ///< End-of-stream markers after a contribution stream's last segment.
    /// Sum requests sent at once above which each goes out once (no redundant copies).
    static constexpr std::size_t kMaxRedundantRequests = 32;
    /// A sum request is due again after this fraction of RequestRtt: the request timer fires
    /// one RequestRtt after the last request, and a comparison at exactly one RequestRtt (which
    /// may have grown meanwhile) skipped it until the next firing, two periods later.
    static constexpr double kRequestSlack = 0.9;
    double m_hostQueue;
    std::string m_multicastRepair;
    uint32_t m_parityBlock;
    double m_parityConfidence;
    uint64_t m_paritySent = 0;
    uint64_t m_parityRecovered = 0;

    Ptr<Socket> m_socket;
    MulticastSender m_multicast;
    /// Sum requests leave through it: local flow control at HostQueue, as data.
    EgressPacer m_pacer;
    uint64_t m_nextHandle = 1;
    std::map<uint64_t, Stream> m_out;
    /// (round, destTag, tag) -> handle.
    std::map<std::tuple<uint32_t, uint32_t, uint16_t>, uint64_t> m_byDest;
    std::map<uint64_t, InStream> m_in;
    std::map<std::pair<uint64_t, uint32_t>, uint32_t> m_resendRequests; ///< (handle,seq) -> n
    uint64_t m_retransmissions = 0;
    uint64_t m_ecnEchoes = 0;
    TracedCallback<uint32_t> m_ecnEchoTrace;
    std::map<Ipv4Address, std::vector<uint32_t>> m_groupDevices; ///< after reroutes
};

} // namespace ns3

#endif
