/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_ALL_TO_ALL_EXCHANGE_H
#define INTELLIGENT_NETWORK_ALL_TO_ALL_EXCHANGE_H

#include "exchange.h"

#include <map>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief ALL_TO_ALL: the island sends its whole model to every other member (one unicast
 * message each) and is done when it holds every peer's model.
 */
class AllToAllExchange : public Exchange
{
  public:
    static TypeId GetTypeId();
    AllToAllExchange();
    ~AllToAllExchange() override;

    void Start() override;
    void Receive(const InMessage& message) override;
    ExchangeResult TakeResult() override;

  protected:
    /// Send the island's model (multicast overrides).
    virtual void SendModel();
    /// Keep \p message if it is a peer's whole model; complete when all are there.
    void Collect(const InMessage& message);

    std::map<uint32_t, std::vector<double>> m_models; ///< origin -> model

  private:
    bool m_started = false;
};

} // namespace ns3

#endif
