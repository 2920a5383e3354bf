/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TRAINING_ISLAND_H
#define INTELLIGENT_NETWORK_TRAINING_ISLAND_H

#include "fixed-point.h"
#include "incoming-transfer.h"
#include "island-header.h"
#include "island-learner.h"
#include "multicast-sender.h"
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
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/// What one island does in one round of the schedule's period.
struct IslandRoundPlan
{
    int32_t clique = -1;         ///< Index of its clique in the round; -1 = sits out.
    uint16_t cliqueKey = 0;      ///< Network-wide id of the clique (period round, clique).
    ExchangePattern pattern = ExchangePattern::ALL_TO_ALL;
    std::vector<uint32_t> peers;   ///< Islands whose models it waits for.
    std::vector<uint32_t> targets; ///< Islands it sends its model to (unicast, multicast).
    Ipv4Address group;             ///< Multicast: its own group (one per source).
    std::vector<uint32_t> groupDevices; ///< Multicast: devices of this node the tree leaves by.
    uint32_t aggregator = 0;       ///< Aggregation: tag of the FPGA service (>= AGGREGATOR_TAG).
    Ipv4Address aggregatorAddress; ///< Aggregation: where contributions go.
};

/**
 * \ingroup intelligent-network
 * \brief A training island: computes, then exchanges its full model with its clique, round
 * after round, over UDP with sequence numbers and NACK/timeout retransmission.
 *
 * Round r: RoundStarted; compute for LocalSteps x ComputeTime (and, with a learner, real local
 * steps); then the exchange, in the plan's mode:
 * - unicast: the model (ModelBytes in segments of SegmentSize payload bytes) to every target;
 * - multicast: the model once to the island's own multicast group, replicated by routers
 *   along its source tree (one copy per tree edge);
 * - aggregation: every segment to the clique's FPGA aggregation service, at most
 *   AggregationSlots segments outstanding (a segment may use slot s = seq mod slots only once
 *   the sum of the slot's previous segment came back: back-pressure, SwitchML style); the
 *   summed segments come back by multicast and double as acks.
 * The round ends (RoundFinished) when the island holds every peer's full model (or every
 * summed segment). Then the next round starts at once, or when the round gate releases it.
 *
 * Reliability: receivers ack every AckInterval new segments, on the last segment, on
 * completion and on duplicates, with a cumulative ack and NACK ranges; senders retransmit
 * NACKed segments (not again within one smoothed RTT) before new ones, and poll after an RTO.
 * Round trips are estimated per stream as in RFC 6298 (SRTT, RTTVAR), from acks echoing
 * segment timestamps, or, for aggregation, from sums of segments sent once (Karn's rule);
 * before the first sample from the path latencies the helper provides. The poll timeout is a
 * tail-loss probe, SRTT + 2 RTTVAR + 1 ms (at least MinRto), doubled at most twice on
 * consecutive timeouts: rates are allocated by the network, so loss is not congestion.
 * In aggregation mode a missing sum makes the member resend its contribution; the FPGA
 * answers a contribution it already summed with the kept result.
 *
 * Values: the first segments of a model carry real values — the learner's parameter vector
 * (IslandLearner), or with CheckValues > 0 and no learner a deterministic test vector that
 * receivers verify (ValuesChecked). Unicast/multicast carry IEEE doubles; aggregation carries
 * int32 fixed point (FixedPointBits) that the FPGA sums. The rest of the payload is opaque.
 *
 * FPGA failure: when no sum arrives for AggregatorTimeout while contributions are outstanding,
 * the island declares the FPGA failed and falls back: it multicasts its whole model to the
 * clique (FLAG_FALLBACK; groups are installed in aggregation mode for this) and sums the
 * members' values itself in the same fixed point, so sums stay exact. A peer receiving such a
 * model falls back for that round too (even if it had all sums); later rounds of cliques of
 * that FPGA use multicast from the start.
 *
 * Pacing: each stream is paced at the rate a RateController assigns (wire bytes), or SendRate
 * shared equally among the island's active streams when there is no controller.
 */
class TrainingIsland : public Application
{
  public:
    /// What a stream of this island consumes: (round plan, tag) -> usage.
    using UsageFunction = std::function<FlowUsage(const IslandRoundPlan&, uint32_t)>;
    /// Stream tag of a multicast stream (peer ids are below it).
    static constexpr uint32_t GROUP_TAG = 0xFFFF;
    /// Aggregator service tags are AGGREGATOR_TAG + device node id.
    static constexpr uint32_t AGGREGATOR_TAG = 0x8000;

    static TypeId GetTypeId();
    TrainingIsland();
    ~TrainingIsland() override;

    /// Address of every island, indexed by island id.
    void SetDirectory(const std::vector<Ipv4Address>& addresses);
    /// The island's part of each round of the schedule's period.
    void SetPlan(const std::vector<IslandRoundPlan>& period);
    const std::vector<IslandRoundPlan>& GetPlan() const;
    /// Use network-assisted rates from \p controller; \p usage gives each stream's usage.
    void SetRateController(Ptr<RateController> controller, UsageFunction usage);
    /// Train a real parameter vector.
    void SetLearner(std::shared_ptr<IslandLearner> learner);
    /// Initial round-trip estimate for every stream (before any sample).
    void SetRttHint(Time rtt);
    /// Initial round-trip estimates per peer island id or aggregator tag; a stream to several
    /// receivers starts from the largest of theirs.
    void SetRttHints(const std::map<uint32_t, Time>& hints);
    /// Barrier mode: after a round, call \p gate(island, round) and wait for ReleaseRound().
    void SetRoundGate(Callback<void, uint32_t, uint32_t> gate);
    /// Start round \p round (barrier mode).
    void ReleaseRound(uint32_t round);
    /// Routes changed: tell the rate controller what the open streams use now.
    void RefreshStreams();

    uint32_t GetIslandId() const;
    uint32_t GetRoundsCompleted() const;
    bool IsFinished() const;
    /// Number of segments of a model.
    uint32_t GetSegmentCount() const;
    /// Payload bytes of segment \p seq.
    uint32_t GetSegmentPayload(uint32_t seq) const;
    /// Segments this island has sent again.
    uint64_t GetRetransmissions() const;
    /// Values verified so far (CheckValues) and how many were wrong.
    uint64_t GetValuesChecked() const;
    uint64_t GetValueMismatches() const;
    /// Summed segments that arrived flagged as overflowed.
    uint64_t GetOverflows() const;
    /// Rounds in which this island fell back from a failed FPGA to multicast.
    const std::set<uint32_t>& GetFallbackRounds() const;
    /// The deterministic test value \p index of \p island in \p round (CheckValues), in [-1, 1].
    static double CheckValue(uint32_t island, uint32_t round, uint32_t index);

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
    /// Signature of ValuesChecked: round, origin, values checked, mismatches.
    typedef void (*ValuesCheckedTracedCallback)(uint32_t round,
                                                uint32_t origin,
                                                uint32_t checked,
                                                uint32_t mismatches);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// One outgoing stream: the model of one round to one peer, a group or an aggregator.
    struct OutStream
    {
        uint32_t round;
        uint32_t tag;
        Ipv4Address dest;
        uint16_t port;
        uint8_t type;
        uint16_t cliqueKey;
        OutgoingTransfer state;
        double rateBps;
        uint64_t controllerId;
        bool released;
        EventId sendEvent;
        EventId rtoEvent;
        double srtt;
        double rttvar;
        bool sampled;
        uint32_t backoff;
        uint8_t flags; ///< Extra header flags of every segment (FLAG_FALLBACK).
    };

    /// One incoming stream: a peer's model (or the sums) of one round.
    struct InStream
    {
        IncomingTransfer state;
        uint32_t sinceAck = 0;
        bool notified = false;
        std::vector<double> values; ///< Values carried (decoded), when any.
    };

    static uint64_t Key(uint32_t round, uint32_t tag);
    const IslandRoundPlan& PlanOf(uint32_t round) const;
    bool HasStreams(uint32_t round) const;
    uint32_t ValueCount() const;
    uint32_t ValuesPerSegment(uint8_t type) const;

    void StartRound(uint32_t round);
    void ComputeDone(uint32_t round);
    void CheckRoundComplete();
    void Synchronize(uint32_t round);
    void OpenStream(uint32_t round, uint32_t tag, Ipv4Address dest, uint16_t port, uint8_t type,
                    const std::vector<uint32_t>& receivers);
    void SetStreamRate(uint64_t key, double rate);
    void ShareSendRate();
    void SendNext(uint64_t key);
    bool WindowAllows(const OutStream& s) const;
    Ptr<Packet> MakePayload(const OutStream& s, uint32_t seq);
    void ArmRto(uint64_t key);
    void RttSample(OutStream& s, double sample);
    double Rto(const OutStream& s) const;
    void OnRto(uint64_t key);
    void ReleaseStream(OutStream& s);
    void FinishStream(uint64_t key);
    void Resume(uint64_t key);

    void HandleRead(Ptr<Socket> socket);
    void HandleData(const IslandHeader& h, Ptr<Packet> packet);
    void HandleResult(const IslandHeader& h, Ptr<Packet> packet);
    void HandleAck(const IslandHeader& h, Ptr<Packet> packet);
    void HandlePoll(const IslandHeader& h);
    void HandleResend(const IslandHeader& h);
    void StoreValues(InStream& in, const IslandHeader& h, Ptr<Packet> packet);
    void CheckValues(uint32_t round, uint32_t origin, const std::vector<double>& values, bool sum);
    std::vector<double> FallbackSum(uint32_t round);
    void WatchAggregator(uint32_t round);
    void StartFallback(uint32_t round);
    bool InFallback(uint32_t round) const;
    void SendAck(uint32_t round, uint32_t origin, InStream& in, uint64_t echo, bool full);
    void SendControl(const IslandHeader& h, Ptr<Packet> payload, Ipv4Address to, uint16_t port);

    // Attributes
    uint32_t m_islandId;
    uint64_t m_modelBytes;
    uint32_t m_segmentSize;
    Time m_computeTime;
    uint32_t m_localSteps;
    uint32_t m_rounds;
    uint16_t m_port;
    uint16_t m_aggregationPort;
    uint32_t m_aggregationSlots;
    DataRate m_sendRate;
    uint32_t m_ackInterval;
    uint32_t m_maxNackRanges;
    Time m_minRto;
    Time m_initialRtt;
    Time m_aggregatorTimeout;
    uint32_t m_checkValues;
    uint32_t m_fixedPointBits;

    // Configuration
    std::vector<Ipv4Address> m_directory;
    std::vector<IslandRoundPlan> m_plan;
    Ptr<RateController> m_controller;
    UsageFunction m_usage;
    std::shared_ptr<IslandLearner> m_learner;
    Callback<void, uint32_t, uint32_t> m_gate;
    std::map<uint32_t, Time> m_rttHints;

    // State
    Ptr<Socket> m_socket;
    MulticastSender m_multicast;
    uint32_t m_round = 0;
    bool m_exchanging = false;
    bool m_finished = false;
    uint32_t m_completed = 0;
    Time m_roundStart;
    EventId m_computeEvent;
    std::map<uint64_t, OutStream> m_out;
    std::map<uint64_t, InStream> m_in;
    std::map<uint32_t, std::vector<double>> m_sendValues; ///< round -> values sent
    std::set<uint32_t> m_deadAggregators;
    std::set<uint32_t> m_fallbackRounds;
    std::map<uint32_t, Time> m_lastSum; ///< round -> last time a new sum arrived
    uint64_t m_retransmissions = 0;
    uint64_t m_valuesChecked = 0;
    uint64_t m_valueMismatches = 0;
    uint64_t m_overflows = 0;

    // Traces
    TracedCallback<uint32_t> m_roundStarted;
    TracedCallback<uint32_t> m_computeFinished;
    TracedCallback<uint32_t, Time, Time> m_roundFinished;
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, bool> m_segmentSent;
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, Ptr<const Packet>> m_segmentReceived;
    TracedCallback<uint32_t, uint32_t> m_modelReceived;
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t> m_valuesCheckedTrace;
    TracedCallback<> m_allRoundsFinished;
};

} // namespace ns3

#endif
