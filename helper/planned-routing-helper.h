/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_PLANNED_ROUTING_HELPER_H
#define INTELLIGENT_NETWORK_PLANNED_ROUTING_HELPER_H

#include "ns3/ipv4-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/planned-routing.h"

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Installs PlannedRouting through InternetStackHelper::SetRoutingHelper, and finds it
 * again on a node (also inside an Ipv4ListRouting).
 */
class PlannedRoutingHelper : public Ipv4RoutingHelper
{
  public:
    PlannedRoutingHelper() = default;
    PlannedRoutingHelper* Copy() const override;
    Ptr<Ipv4RoutingProtocol> Create(Ptr<Node> node) const override;

    /// The PlannedRouting of \p ipv4 (its routing protocol, or one in its Ipv4ListRouting);
    /// aborts if it has none.
    static Ptr<PlannedRouting> Get(Ptr<Ipv4> ipv4);
};

} // namespace ns3

#endif
