/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TRAINING_ISLAND_H
#define INTELLIGENT_NETWORK_TRAINING_ISLAND_H

#include "exchange.h"
#include "fixed-point.h"
#include "island-learner.h"
#include "island-transport.h"
#include "network-capabilities.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief A training island: the round loop compute -> exchange -> merge, round after round.
 *
 * Round r: RoundStarted; compute for LocalSteps x ComputeTime (and, with a learner, real local
 * steps); then the exchange of the round's plan: an Exchange of the clique's pattern
 * (AllToAllExchange, MulticastExchange, AggregationExchange, RingExchange, TreeExchange,
 * ParameterServerExchange), which moves the model through the island's transports
 * (IslandTransport: IdealTransport, CcTransport or TcpTransport). The round ends
 * (RoundFinished) when the exchange holds what the island merges (every peer's model, or the
 * sum over the clique); the island merges it (the learner's Synchronize / SynchronizeSum) and
 * the next round starts at once, or when the round gate releases it.
 *
 * Values: the first bytes of a model carry real values — the learner's parameter vector
 * (IslandLearner), or with CheckValues > 0 and no learner a deterministic test vector that
 * receivers verify (ValuesChecked): models and aggregated int32 fixed-point sums exactly,
 * floating-point sums of the unicast collectives (ring, tree, parameter server) to 1e-9.
 */
class TrainingIsland : public Application
{
  public:
    /// What a stream of this island uses (ideal pacing): (round plan, destination tag) ->
    /// usage. Destination tags: a peer's id, UdpTransport::GROUP_TAG or an aggregator tag.
    using UsageFunction = std::function<FlowUsage(const IslandRoundPlan&, uint32_t)>;
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
    /// The transports of unicast and of group (multicast, contribution) messages; the same
    /// object may serve both. Without a call, an IdealTransport without controller serves both.
    void SetTransports(Ptr<IslandTransport> unicast, Ptr<IslandTransport> group);
    Ptr<IslandTransport> GetUnicastTransport() const;
    Ptr<IslandTransport> GetGroupTransport() const;
    /// What each stream uses, for ideal pacing.
    void SetUsageFunction(UsageFunction usage);
    /// Train a real parameter vector.
    void SetLearner(std::shared_ptr<IslandLearner> learner);
    /// Initial round-trip estimates per peer island id or aggregator tag.
    void SetRttHints(const std::map<uint32_t, Time>& hints);
    /// Barrier mode: after a round, call \p gate(island, round) and wait for ReleaseRound().
    void SetRoundGate(Callback<void, uint32_t, uint32_t> gate);
    /// Start round \p round (barrier mode).
    void ReleaseRound(uint32_t round);
    /// Routes changed: tell the transports to re-evaluate what open streams use.
    void RefreshStreams();

    uint32_t GetIslandId() const;
    uint32_t GetRoundsCompleted() const;
    bool IsFinished() const;
    /// Number of segments of a model.
    uint32_t GetSegmentCount() const;
    /// Segments (TCP: bytes) this island has sent again.
    uint64_t GetRetransmissions() const;
    /// Values verified so far (CheckValues) and how many were wrong.
    uint64_t GetValuesChecked() const;
    uint64_t GetValueMismatches() const;
    /// Values that overflowed the fixed point (encoding or summing).
    uint64_t GetOverflows() const;
    /// Values the island carries in its model: its learner's dimension, else CheckValues.
    uint32_t ValueCount() const;
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
    /// Signature of FellBack: round, aggregator tag.
    typedef void (*FellBackTracedCallback)(uint32_t round, uint32_t aggregator);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    const IslandRoundPlan& PlanOf(uint32_t round) const;
    void StartRound(uint32_t round);
    void ComputeDone(uint32_t round);
    void ExchangeDone(uint32_t round);
    void FinishRound(uint32_t round);
    void Merge(uint32_t round, ExchangeResult& result);
    void CheckModel(uint32_t round, uint32_t origin, const std::vector<double>& values);
    void CheckSum(uint32_t round, const ExchangeResult& result);
    bool Accept(uint32_t round, uint32_t origin, uint16_t tag, uint8_t type, uint8_t flags);
    void Deliver(const InMessage& message);
    void Prune(uint32_t round);
    void PushGroupDevices();

    // Attributes
    uint32_t m_islandId;
    uint64_t m_modelBytes;
    uint32_t m_segmentSize;
    Time m_computeTime;
    uint32_t m_localSteps;
    uint32_t m_rounds;
    uint16_t m_aggregationPort;
    uint32_t m_aggregationSlots;
    Time m_aggregatorTimeout;
    uint32_t m_aggregatorTimeoutRepairs;
    uint32_t m_checkValues;
    uint32_t m_fixedPointBits;

    // Configuration
    std::vector<Ipv4Address> m_directory;
    std::vector<IslandRoundPlan> m_plan;
    Ptr<IslandTransport> m_unicast;
    Ptr<IslandTransport> m_group;
    UsageFunction m_usage;
    std::shared_ptr<IslandLearner> m_learner;
    Callback<void, uint32_t, uint32_t> m_gate;
    std::map<uint32_t, Time> m_rttHints;

    // State
    bool m_running = false;
    uint32_t m_round = 0;
    bool m_exchanging = false;
    bool m_finished = false;
    uint32_t m_completed = 0;
    Time m_roundStart;
    EventId m_computeEvent;
    std::map<uint32_t, Ptr<Exchange>> m_exchanges; ///< round -> exchange (recent rounds)
    std::map<uint32_t, std::vector<InMessage>> m_early; ///< messages of rounds not started
    /// Segment flags of rounds not started (a peer's fallback): round -> (origin, tag, flags).
    std::map<uint32_t, std::vector<std::tuple<uint32_t, uint16_t, uint8_t>>> m_earlyFlags;
    std::set<uint32_t> m_deadAggregators;
    std::set<uint32_t> m_fallbackRounds;
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
    TracedCallback<uint32_t, uint32_t> m_fellBack;
    TracedCallback<> m_allRoundsFinished;
};

} // namespace ns3

#endif
