/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_FPGA_AGGREGATOR_H
#define INTELLIGENT_NETWORK_FPGA_AGGREGATOR_H

#include "aggregation-queue.h"
#include "egress-pacer.h"
#include "island-header.h"
#include "multicast-sender.h"

#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <set>
#include <vector>

namespace ns3
{

/**
 * A clique an FPGA aggregates for: its place in the clique's reduction tree
 * (AggregationNode). The one-point (single) design is a tree of one node: no children, no
 * parent, every member direct.
 */
struct AggregatorClique
{
    uint16_t cliqueKey;                 ///< Network-wide clique id (IslandRoundPlan::cliqueKey).
    std::vector<uint32_t> members;      ///< Island ids whose contributions it sums directly.
    Ipv4Address group;                  ///< Root: multicast group the sums go to.
    std::vector<uint32_t> groupDevices; ///< Root: devices of this node the sums' tree leaves by.
    std::vector<uint32_t> children;     ///< Tags of the child FPGAs whose partial sums it adds.
    std::vector<Ipv4Address> childAddresses; ///< Their addresses (resend requests), same order.
    uint32_t parent = 0;                ///< Tag of the parent FPGA; 0 = this FPGA is the root.
    Ipv4Address parentAddress;          ///< Where its partial sums go (non-root).
    /// Tag the members know the clique's service by (the root's): sums and resend requests
    /// to members carry it, so that their contribution stream recognises them.
    uint32_t serviceTag = 0;
    std::vector<uint32_t> allMembers;   ///< Every member of the clique (root: resent sums).
    uint32_t slots = 0;                 ///< Slots of its pool for this clique (0: Slots).
};

/// Per (round, clique) statistics of an aggregator, for the results database.
struct AggregationStats
{
    uint32_t round;
    uint16_t cliqueKey;
    uint32_t members;
    uint64_t completed;
    double totalWaitS;
    double maxWaitS;
    uint32_t maxSlotsInUse;
    uint64_t timeouts;
    uint64_t duplicates;
    uint64_t stale;
    uint64_t resentResults;
    uint64_t overflows;
};

/**
 * \ingroup intelligent-network
 * \brief An in-line FPGA on a router that sums the contributions of a clique's islands.
 *
 * Members address their segments (CONTRIBUTION) to this service (the router's address, port
 * Port). Each contribution passes through the FPGA's service queue at Throughput (its wire
 * bits), is summed in the clique's AggregationQueue, and when a segment is complete the sum
 * leaves PipelineLatency after its last contribution was processed, once.
 *
 * In an aggregation tree (AggregatorClique::parent set) the FPGA's inputs are its direct
 * members and its child FPGAs; a complete slot leaves as one partial sum (a CONTRIBUTION
 * from this FPGA's tag) to the parent. The root sends the clique's sum to the clique's
 * multicast group (RESULT). Recovery, without resend storms (each request names one segment
 * of one input and goes one tree edge):
 * - a slot waiting longer than Timeout asks its missing inputs only: members by RESEND to
 *   the island, child FPGAs by RESEND to the child, which resends its partial sum if it has
 *   it (a child still waiting itself ignores the request: its own timeout is running);
 * - a gap in a member's first transmissions (seq arrives, an earlier segment of that member
 *   is not counted): the earlier one was lost on the way (a member's stream follows one path
 *   in order): the FPGA asks that member alone for it at once (RESEND), not at the timeout;
 * - a member missing a sum sends a header-only RESEND request for it: the root sends the sum
 *   again by unicast to that member alone; a non-root FPGA that summed the segment passes the
 *   request (origin = the member) up the tree; an FPGA that has not summed it yet and misses
 *   the requester's input asks for that input at once (it was lost on the way; at most once
 *   per quarter Timeout per input);
 * - a contribution arriving again for a segment already summed (its first copy was late, not
 *   lost) or already counted is dropped: every slot counts each input once.
 * Back-pressure: a member reuses slot seq mod slots only after the clique's sum of seq came
 * back, which implies that every FPGA of the tree completed seq: one window of slots per
 * clique at every FPGA of its tree suffices.
 */
class FpgaAggregator : public Application
{
  public:
    static TypeId GetTypeId();
    FpgaAggregator();
    ~FpgaAggregator() override;

    /// Serve \p clique.
    void AddClique(const AggregatorClique& clique);
    /// Island addresses, indexed by island id (for resends and resend requests).
    void SetDirectory(const std::vector<Ipv4Address>& addresses);

    /// The FPGA fails: from now on it drops every contribution and sends nothing.
    void Fail();
    bool IsFailed() const;

    uint32_t GetTag() const;
    /// Time the FPGA spent processing contributions.
    Time GetBusyTime() const;
    uint64_t GetContributions() const;
    uint64_t GetResults() const;
    /// Partial sums sent to a parent FPGA (aggregation trees).
    uint64_t GetPartials() const;
    /// Sums (and partial sums up a tree) sent with an ECN echo (a contribution of their slot,
    /// or a child's partial sum with an echo, arrived marked).
    uint64_t GetEcnEchoes() const;
    /// Statistics of every (round, clique) served so far.
    std::vector<AggregationStats> GetStats() const;

    /// Signature of SlotCompleted: round, clique key, segment, wait in the slot.
    typedef void (*SlotCompletedTracedCallback)(uint32_t round,
                                                uint16_t clique,
                                                uint32_t seq,
                                                Time wait);
    /// Signature of Timeout: round, clique key, segment, members missing.
    typedef void (*TimeoutTracedCallback)(uint32_t round,
                                          uint16_t clique,
                                          uint32_t seq,
                                          uint32_t missing);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    struct QueueState
    {
        Ptr<AggregationQueue> queue;
        uint32_t payloadBytes = 0;     ///< Bytes of a full segment (every one but the last).
        uint32_t lastPayloadBytes = 0; ///< Bytes of the last segment (the model's remainder).
        uint64_t timeouts = 0;
        uint64_t resent = 0;
        /// Straggler timeouts due, in the order they fall due (each Timeout after it was
        /// set): when, segment, requests so far. One pending event serves them all.
        struct Due
        {
            Time at;
            uint32_t seq;
            uint32_t requests;
        };
        std::deque<Due> due;
        EventId dueEvent;
        bool draining = false; ///< OnTimeouts is running (it schedules the next event).
        /// Early resend requests for one (segment, input).
        struct Asked
        {
            Time at;            ///< The last one, of either kind.
            uint32_t times = 0; ///< How many (MaxInputRequests).
            /// Child FPGA inputs: requests made after the child proved it summed the segment
            /// (it passed a member's request up), the last one and how many: a budget of
            /// their own (MaxInputRequests).
            Time answerableAt;
            uint32_t answerable = 0;
        };
        /// (segment, input) -> its early requests.
        std::map<uint64_t, Asked> asked;
        /// Member inputs: first transmissions that arrived, and segments found lost (gaps):
        /// the measured loss of the member's path, which sets the copies of a request to it.
        std::vector<uint64_t> freshCount;
        std::vector<uint64_t> lostCount;
        /// Member inputs: the highest segment that arrived as a first transmission (-1: none).
        /// A member's stream follows one path in order, so a first transmission of seq
        /// reveals the loss of every earlier segment of that member not counted yet.
        std::vector<int64_t> freshHighest;
        uint64_t gapRequests = 0; ///< Resend requests sent on a gap (loss detected at once).
        std::vector<double> partialAt; ///< Non-root: when each partial sum last left, s.
        std::vector<double> sentAt; ///< When each (partial) sum first left, s.
        /// Per input: the largest one-way delay of its contributions (their timestamps), s;
        /// an input is asked again for a segment after 2.5 of it (one round trip, margin).
        std::vector<double> inputDelay;
        /// (segment, receiver) -> times resent, and when last.
        std::map<uint64_t, std::pair<uint32_t, double>> resends;
        /// Receiver -> segments whose (partial) sum it was sent again: its measured loss.
        std::map<uint32_t, uint32_t> repairedFor;
        std::set<uint32_t> marked;
        bool endSent = false; ///< Root: the end-of-sums marker went out.
        uint32_t sumsSent = 0; ///< Root: segments whose sum went out (once each). ///< Segments with a contribution that arrived marked CE.
    };

    static uint64_t Key(uint32_t round, uint16_t clique);
    void HandleRead(Ptr<Socket> socket);
    /// Send the (partial) sum of \p seq: first time to the parent or the group; \p resend: to
    /// the parent, or by unicast to \p member, in \p copies back-to-back copies.
    void EmitResult(uint32_t round, uint16_t clique, uint32_t seq, uint32_t count, bool resend,
                    uint32_t member, uint32_t copies = 1);
    /// Redundant repair: the k-th resend of one (partial) sum to one receiver goes out in
    /// min(2^(k-1), 8) copies, so that a far receiver does not need k round trips; 0 (none)
    /// for a request made before the sum's last copy could have reached the receiver
    /// (\p crossed: the request's send time minus its one-way delay).
    uint32_t RepairCopies(QueueState& st, uint32_t seq, uint32_t receiver, double crossed);
    void HandleRequest(const IslandHeader& h);
    uint32_t ServiceTag(const AggregatorClique& c) const;
    /// Where a sum to \p to goes: ECT(0) in the TOS when Ecn is on.
    InetSocketAddress SumAddress(Ipv4Address to, uint16_t port) const;
    /// Ask input \p input (member index, then child FPGAs) of a slot to send segment \p seq
    /// again (RESEND).
    void AskInput(const AggregatorClique& c,
                  uint32_t round,
                  uint16_t clique,
                  uint32_t seq,
                  uint32_t count,
                  uint32_t input,
                  uint32_t copies = 1);
    /// Copies of the \p k-th early request to \p input: enough that all are lost with
    /// probability under 1% at the input's measured path loss, and min(2^(k-1), 4) (a
    /// request asked again), at most 4.
    uint32_t RequestCopies(const QueueState& st, uint32_t input, uint32_t k) const;
    /// An early request's round trip passed: ask again if the input is still missing.
    void AskAgain(uint32_t round, uint16_t clique, uint32_t seq, uint32_t count, uint32_t input);
    /// Send a header-only packet; \p stamp: with the current time as its timestamp (false:
    /// a request passed on keeps its requester's).
    void SendHeader(IslandHeader h, Ipv4Address to, uint16_t port, bool stamp = true);
    /// Ask input \p input for segment \p seq at once unless it was asked less than a round
    /// trip to it ago (at most a quarter Timeout; the input also ignores a request crossing
    /// its own resend) or MaxInputRequests times. \p answerable: a child FPGA known to have
    /// summed the segment (it passed a request for it up), asked on a budget of its own.
    void AskEarly(QueueState& st,
                  const AggregatorClique& c,
                  uint32_t round,
                  uint16_t clique,
                  uint32_t seq,
                  uint32_t count,
                  uint32_t input,
                  bool answerable = false);
    uint64_t m_partials = 0;
    void CheckTimeout(uint32_t round, uint16_t clique, uint32_t seq, uint32_t requests);
    /// Check segment \p seq of (round, clique) for stragglers one Timeout from now.
    void SetTimeout(uint32_t round, uint16_t clique, uint32_t seq, uint32_t requests);
    /// Run the straggler checks of (round, clique) that are due.
    void OnTimeouts(uint32_t round, uint16_t clique);

    uint16_t m_port;
    uint16_t m_islandPort;
    uint32_t m_tag;
    DataRate m_throughput;
    Time m_latency;
    uint32_t m_slots;
    Time m_timeout;
    uint32_t m_maxResendRequests; ///< Resend requests per slot before it is given up.
    uint32_t m_maxInputRequests;  ///< Early requests per (segment, input).
    uint32_t m_endMarkers;        ///< Root: end-of-sums markers after a clique's last sum.
    bool m_ecn = true; ///< ECT(0) on sums, CE echoed on them.
    double m_egressQueue = 0.5; ///< Local flow control of unicast sends (EgressPacer).

    Ptr<Socket> m_socket;
    MulticastSender m_multicast;
    /// Unicast sends (requests, partial sums, sums sent again) leave through it.
    EgressPacer m_pacer;
    std::vector<Ipv4Address> m_directory;
    std::map<uint16_t, AggregatorClique> m_cliques;
    std::map<uint64_t, QueueState> m_queues;
    bool m_failed = false;
    Time m_busyUntil;
    Time m_busy;
    uint64_t m_contributions = 0;
    uint64_t m_results = 0;
    uint64_t m_ecnEchoes = 0;

    TracedCallback<uint32_t, uint16_t, uint32_t, Time> m_slotCompleted;
    TracedCallback<uint32_t, uint16_t, uint32_t, uint32_t> m_timeoutTrace;
};

} // namespace ns3

#endif
