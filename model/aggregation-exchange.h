/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_AGGREGATION_EXCHANGE_H
#define INTELLIGENT_NETWORK_AGGREGATION_EXCHANGE_H

#include "exchange.h"

#include "ns3/event-id.h"

#include <map>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief AGGREGATION: the island streams its model as int32 fixed-point contributions to the
 * clique's FPGA aggregation service; the sums come back by multicast (and double as acks,
 * see UdpTransport) and the island is done when it holds every summed segment.
 *
 * FPGA failure: when no sum arrives for AggregatorTimeout (or, if longer, for
 * AggregatorTimeoutRepairs repair round trips of the path: a far member on a lossy path may
 * wait that long for a repaired sum from an FPGA that is alive) while contributions are
 * outstanding, the island declares the FPGA failed and falls back: it multicasts its whole
 * model to the clique (FLAG_FALLBACK; the groups are installed in aggregation mode for this)
 * and sums the members' values itself in the same fixed point, so sums stay exact. A peer
 * receiving such a model falls back for that round too (even if it had all sums); later
 * rounds of cliques of that FPGA use multicast from the start.
 */
class AggregationExchange : public Exchange
{
  public:
    static TypeId GetTypeId();
    AggregationExchange();
    ~AggregationExchange() override;

    void Start() override;
    void Receive(const InMessage& message) override;
    void OnSegment(uint32_t origin, uint16_t tag, uint8_t flags) override;
    ExchangeResult TakeResult() override;

    /// True once the island fell back from the FPGA in this round.
    bool FellBack() const;

  private:
    void Watch();
    /// How long without a new sum before the FPGA counts as failed: AggregatorTimeout, or
    /// AggregatorTimeoutRepairs repair round trips of the contribution stream if longer.
    Time Timeout() const;
    void StartFallback();
    void CheckFallbackDone();
    std::vector<double> FallbackSum(uint64_t& overflows) const;

    bool m_started = false;
    bool m_fallback = false;
    bool m_peerFellBack = false; ///< A peer's fallback arrived before this island started.
    uint64_t m_contribution = 0; ///< Handle of the contribution stream.
    bool m_haveSum = false;
    std::vector<double> m_sum;
    uint64_t m_overflows = 0;
    std::map<uint32_t, std::vector<double>> m_models; ///< Fallback: origin -> model
    EventId m_watch;
};

} // namespace ns3

#endif
