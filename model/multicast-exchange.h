/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_MULTICAST_EXCHANGE_H
#define INTELLIGENT_NETWORK_MULTICAST_EXCHANGE_H

#include "all-to-all-exchange.h"

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief MULTICAST: the island sends its model once, to its own group; routers replicate it
 * along the island's source tree (one copy per tree edge). Every receiver acknowledges; the
 * island is done when it holds every peer's model.
 */
class MulticastExchange : public AllToAllExchange
{
  public:
    static TypeId GetTypeId();
    MulticastExchange();
    ~MulticastExchange() override;

  protected:
    void SendModel() override;
};

} // namespace ns3

#endif
