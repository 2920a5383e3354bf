/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_RING_EXCHANGE_H
#define INTELLIGENT_NETWORK_RING_EXCHANGE_H

#include "exchange.h"

#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief RING: pipelined ring all-reduce over unicast, reduce-scatter then all-gather.
 *
 * IslandRoundPlan::members is the ring order (CliqueExchange::members of the RING pattern):
 * member i sends only to member i+1 mod k and receives only from member i-1. The model (its
 * bytes and its values alike) is cut into k chunks (Exchange::Split). In reduce-scatter step
 * s = 0 .. k-2 member i sends its partial sum of chunk (i - s) mod k; on receiving its
 * predecessor's chunk of step s it adds its own values of that chunk and forwards the partial
 * sum at once (step s + 1). After k-1 steps member i holds the clique's sum of chunk
 * (i + 1) mod k; in all-gather step s = 0 .. k-2 it sends the final sum of chunk
 * (i + 1 - s) mod k, storing and forwarding each final chunk as soon as it arrives. Every
 * member thus sends and receives 2(k-1) chunks of M/k: on a ring of equal links of rate R and
 * latency d the exchange takes 2(k-1) (M/(kR) + d) plus headers and store-and-forward.
 *
 * Message tags are 1 + step (0 .. 2k-3); a step that arrives before the previous one (a
 * retransmission) waits. The result is the sum over all members (ExchangeResult::isSum),
 * bit-identical at every member (each chunk is summed once, in ring order, then copied).
 */
class RingExchange : public Exchange
{
  public:
    static TypeId GetTypeId();
    RingExchange();
    ~RingExchange() override;

    void Start() override;
    void Receive(const InMessage& message) override;
    bool Accepts(uint32_t origin, uint16_t tag, uint8_t type, uint8_t flags) const override;
    ExchangeResult TakeResult() override;

  private:
    /// Chunk member \p position sends in step \p step (0 .. 2k-3).
    uint32_t ChunkOf(uint32_t position, uint32_t step) const;
    /// Send this island's chunk of step \p step to its successor.
    void SendStep(uint32_t step);
    /// Handle the predecessor's messages in step order.
    void Advance();

    bool m_started = false;
    uint32_t m_k = 0;
    uint32_t m_position = 0;
    uint32_t m_next = 0;
    uint32_t m_prev = 0;
    std::vector<Piece> m_chunks;
    std::vector<double> m_sum; ///< Own values, then partial and final sums chunk by chunk.
    uint32_t m_step = 0;       ///< Next step expected from the predecessor.
    std::map<uint32_t, std::vector<double>> m_waiting; ///< step -> values (arrived early)
};

} // namespace ns3

#endif
