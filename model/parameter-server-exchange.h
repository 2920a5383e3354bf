/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_PARAMETER_SERVER_EXCHANGE_H
#define INTELLIGENT_NETWORK_PARAMETER_SERVER_EXCHANGE_H

#include "exchange.h"

#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief PARAMETER_SERVER: every member pushes its whole model to one member city, the server,
 * which sums them and pushes the sum back (two phases, as CliqueExchange describes it).
 *
 * The server is IslandRoundPlan::members[0] (the helper puts CliqueExchange::server first).
 * Push: every other member sends its model (tag 1) to the server. Pull: once the server holds
 * every member's model (and has computed its own), it adds them in member order and sends the
 * sum (tag 2) to every other member at once, one stream each, so the pull shares the server's
 * access link. Every member merges the same sum (ExchangeResult::isSum with the member count:
 * the learner averages), bit-identical everywhere. Not pipelined: the pull starts after the
 * last push has arrived, which is what the fluid model's two phases charge.
 */
class ParameterServerExchange : public Exchange
{
  public:
    static TypeId GetTypeId();
    ParameterServerExchange();
    ~ParameterServerExchange() override;

    void Start() override;
    void Receive(const InMessage& message) override;
    ExchangeResult TakeResult() override;

  private:
    /// Server: sum and push back once every model is there.
    void TrySum();
    /// Bytes of a push or a pull.
    uint64_t MessageBytes() const;

    bool m_started = false;
    bool m_server = false;
    uint32_t m_serverId = 0;
    std::vector<double> m_sum;
    bool m_haveSum = false;
    std::map<uint32_t, std::vector<double>> m_models; ///< Server: origin -> pushed values
};

} // namespace ns3

#endif
