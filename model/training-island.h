/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TRAINING_ISLAND_H
#define INTELLIGENT_NETWORK_TRAINING_ISLAND_H

#include "incoming-transfer.h"
#include "island-header.h"
#include "network-capabilities.h"
#include "outgoing-transfer.h"
#include "rate-controller.h"

#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <map>
#include <vector>

namespace ns3
{

/// What one island does in one round of the schedule's period.
struct IslandRoundPlan
{
    int32_t clique = -1;           ///< Index of its clique in the round; -1 = sits out.
    std::vector<uint32_t> peers;   ///< Island ids of the other clique members.
    ExchangeMode mode = ExchangeMode::UNICAST;
    Ipv4Address group;             ///< Multicast group of the clique (multicast, aggregation).
    uint32_t aggregator = 0;       ///< Aggregation: id of the aggregating FPGA service.
    Ipv4Address aggregatorAddress; ///< Aggregation: where contributions go.
};

/**
 * \ingroup intelligent-network
 * \brief A training island: computes, then exchanges its full model with its clique, round
 * after round, over UDP with sequence numbers and NACK/timeout retransmission.
 *
 * Round r: RoundStarted; compute for LocalSteps x ComputeTime; send the model (ModelBytes in
 * segments of SegmentSize payload bytes) to every peer of the round's clique; the round ends
 * (RoundFinished) when the island holds every peer's full model. Then the next round starts at
 * once, or, when a round gate is set (barrier-synchronised rounds), when the gate releases it.
 *
 * Reliability: receivers ack every AckInterval new segments, on the last segment, on
 * completion and on duplicates, with a cumulative ack and up to MaxNackRanges missing ranges;
 * senders retransmit NACKed segments (not again within one smoothed RTT) before new ones, and
 * poll receivers after an RTO when everything has been sent but not acknowledged. Pacing: each
 * stream is paced at the rate a RateController assigns (wire bytes), or SendRate shared
 * equally among the island's active streams when there is no controller.
 *
 * Every island must be given its id (IslandId), the directory of island addresses and its
 * per-round plan before it starts; the helpers do this.
 */
class TrainingIsland : public Application
{
  public:
    /// What a stream of this island consumes: (round plan, peer id or GROUP_TAG) -> usage.
    using UsageFunction = std::function<FlowUsage(const IslandRoundPlan&, uint32_t)>;
    /// Stream tag of a multicast stream (peer ids are below it).
    static constexpr uint32_t GROUP_TAG = 0xFFFF;

    static TypeId GetTypeId();
    TrainingIsland();
    ~TrainingIsland() override;

    /// Address of every island, indexed by island id.
    void SetDirectory(const std::vector<Ipv4Address>& addresses);
    /// The island's part of each round of the schedule's period.
    void SetPlan(const std::vector<IslandRoundPlan>& period);
    /// Use network-assisted rates from \p controller, with \p usage giving each stream's usage.
    /// \p usage gives the FlowUsage of the stream of a round plan towards a peer (its island id)
    /// or towards the group (tag GROUP_TAG).
    void SetRateController(Ptr<RateController> controller, UsageFunction usage);
    /// Initial round-trip estimate towards peers (before any sample).
    void SetRttHint(Time rtt);
    /// Barrier mode: after a round, call \p gate(island, round) and wait for ReleaseRound().
    void SetRoundGate(Callback<void, uint32_t, uint32_t> gate);
    /// Start round \p round (barrier mode).
    void ReleaseRound(uint32_t round);

    uint32_t GetIslandId() const;
    uint32_t GetRoundsCompleted() const;
    bool IsFinished() const;
    /// Number of segments of a model.
    uint32_t GetSegmentCount() const;
    /// Payload bytes of segment \p seq.
    uint32_t GetSegmentPayload(uint32_t seq) const;
    /// Segments this island has sent again.
    uint64_t GetRetransmissions() const;

    /// Signature of the RoundStarted / ComputeFinished traces.
    typedef void (*RoundTracedCallback)(uint32_t round);
    /// Signature of the RoundFinished trace.
    typedef void (*RoundFinishedTracedCallback)(uint32_t round, Time start, Time end);
    /// Signature of SegmentSent: round, origin (model owner), seq, payload bytes, retransmission.
    typedef void (*SegmentSentTracedCallback)(uint32_t round,
                                              uint32_t origin,
                                              uint32_t seq,
                                              uint32_t bytes,
                                              bool retransmission);
    /// Signature of SegmentReceived: round, origin, seq, payload bytes, payload packet.
    typedef void (*SegmentReceivedTracedCallback)(uint32_t round,
                                                  uint32_t origin,
                                                  uint32_t seq,
                                                  uint32_t bytes,
                                                  Ptr<const Packet> packet);
    /// Signature of ModelReceived: round, origin.
    typedef void (*ModelReceivedTracedCallback)(uint32_t round, uint32_t origin);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// One outgoing stream: the model of one round to one peer or to a group.
    struct OutStream
    {
        uint32_t round;
        Ipv4Address dest;
        uint8_t type;
        uint16_t clique;
        OutgoingTransfer state;
        double rateBps = 0;
        uint64_t controllerId = 0;
        bool released = false;
        EventId sendEvent;
        EventId rtoEvent;
        double srtt = 0;
        uint32_t backoff = 1;
    };

    /// One incoming stream: a peer's model of one round.
    struct InStream
    {
        IncomingTransfer state;
        uint32_t sinceAck = 0;
        bool notified = false;
    };

    static uint64_t Key(uint32_t round, uint32_t tag);
    const IslandRoundPlan& PlanOf(uint32_t round) const;

    void StartRound(uint32_t round);
    void ComputeDone(uint32_t round);
    void CheckRoundComplete();
    void OpenStream(uint32_t round, uint32_t tag, Ipv4Address dest, uint8_t type,
                    const std::vector<uint32_t>& receivers);
    void SetStreamRate(uint64_t key, double rate);
    void ShareSendRate();
    void SendNext(uint64_t key);
    void ArmRto(uint64_t key);
    void OnRto(uint64_t key);
    void ReleaseStream(OutStream& s);
    void FinishStream(uint64_t key);

    void HandleRead(Ptr<Socket> socket);
    void HandleData(const IslandHeader& h, Ptr<Packet> packet);
    void HandleAck(const IslandHeader& h, Ptr<Packet> packet);
    void HandlePoll(const IslandHeader& h);
    void SendAck(uint32_t round, uint32_t origin, InStream& in, uint64_t echo, bool full);
    void SendControl(const IslandHeader& h, Ptr<Packet> payload, Ipv4Address to);

    // Attributes
    uint32_t m_islandId;
    uint64_t m_modelBytes;
    uint32_t m_segmentSize;
    Time m_computeTime;
    uint32_t m_localSteps;
    uint32_t m_rounds;
    uint16_t m_port;
    DataRate m_sendRate;
    uint32_t m_ackInterval;
    uint32_t m_maxNackRanges;
    Time m_minRto;
    Time m_initialRtt;

    // Configuration
    std::vector<Ipv4Address> m_directory;
    std::vector<IslandRoundPlan> m_plan;
    Ptr<RateController> m_controller;
    UsageFunction m_usage;
    Callback<void, uint32_t, uint32_t> m_gate;

    // State
    Ptr<Socket> m_socket;
    uint32_t m_round = 0;
    bool m_computing = false;
    bool m_exchanging = false;
    bool m_finished = false;
    uint32_t m_completed = 0;
    Time m_roundStart;
    EventId m_computeEvent;
    std::map<uint64_t, OutStream> m_out;
    std::map<uint64_t, InStream> m_in;
    uint64_t m_retransmissions = 0;

    // Traces
    TracedCallback<uint32_t> m_roundStarted;
    TracedCallback<uint32_t> m_computeFinished;
    TracedCallback<uint32_t, Time, Time> m_roundFinished;
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, bool> m_segmentSent;
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, Ptr<const Packet>> m_segmentReceived;
    TracedCallback<uint32_t, uint32_t> m_modelReceived;
    TracedCallback<> m_allRoundsFinished;
};

} // namespace ns3

#endif
