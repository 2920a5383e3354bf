/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_FPGA_AGGREGATOR_H
#define INTELLIGENT_NETWORK_FPGA_AGGREGATOR_H

#include "aggregation-queue.h"
#include "island-header.h"
#include "multicast-sender.h"

#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <map>
#include <vector>

namespace ns3
{

/// A clique an FPGA aggregates for.
struct AggregatorClique
{
    uint16_t cliqueKey;                 ///< Network-wide clique id (IslandRoundPlan::cliqueKey).
    std::vector<uint32_t> members;      ///< Island ids.
    Ipv4Address group;                  ///< Multicast group the sums go to.
    std::vector<uint32_t> groupDevices; ///< Devices of this node the sums' tree leaves by.
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
 * leaves PipelineLatency after its last contribution was processed, once, to the clique's
 * multicast group (RESULT). A member resending a contribution whose sum it missed gets the
 * sum again by unicast. A slot waiting longer than Timeout for missing members counts a
 * timeout and asks the missing members to resend (RESEND).
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
    };

    static uint64_t Key(uint32_t round, uint16_t clique);
    void HandleRead(Ptr<Socket> socket);
    void EmitResult(uint32_t round, uint16_t clique, uint32_t seq, uint32_t count, bool resend,
                    uint32_t member);
    void CheckTimeout(uint32_t round, uint16_t clique, uint32_t seq, uint32_t requests);

    uint16_t m_port;
    uint16_t m_islandPort;
    uint32_t m_tag;
    DataRate m_throughput;
    Time m_latency;
    uint32_t m_slots;
    Time m_timeout;
    uint32_t m_maxResendRequests; ///< Resend requests per slot before it is given up.

    Ptr<Socket> m_socket;
    MulticastSender m_multicast;
    std::vector<Ipv4Address> m_directory;
    std::map<uint16_t, AggregatorClique> m_cliques;
    std::map<uint64_t, QueueState> m_queues;
    bool m_failed = false;
    Time m_busyUntil;
    Time m_busy;
    uint64_t m_contributions = 0;
    uint64_t m_results = 0;

    TracedCallback<uint32_t, uint16_t, uint32_t, Time> m_slotCompleted;
    TracedCallback<uint32_t, uint16_t, uint32_t, uint32_t> m_timeoutTrace;
};

} // namespace ns3

#endif
