/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "planned-routing-helper.h"

#include "ns3/abort.h"
#include "ns3/ipv4-list-routing.h"

namespace ns3
{

PlannedRoutingHelper*
PlannedRoutingHelper::Copy() const
{
    return new PlannedRoutingHelper(*this);
}

Ptr<Ipv4RoutingProtocol>
PlannedRoutingHelper::Create(Ptr<Node> node) const
{
    return CreateObject<PlannedRouting>();
}

Ptr<PlannedRouting>
PlannedRoutingHelper::Get(Ptr<Ipv4> ipv4)
{
    Ptr<Ipv4RoutingProtocol> proto = ipv4->GetRoutingProtocol();
    Ptr<PlannedRouting> planned = DynamicCast<PlannedRouting>(proto);
    if (!planned)
    {
        if (Ptr<Ipv4ListRouting> list = DynamicCast<Ipv4ListRouting>(proto))
        {
            int16_t priority;
            for (uint32_t i = 0; i < list->GetNRoutingProtocols() && !planned; ++i)
            {
                planned = DynamicCast<PlannedRouting>(list->GetRoutingProtocol(i, priority));
            }
        }
    }
    NS_ABORT_MSG_UNLESS(planned, "node has no PlannedRouting (see WanNetworkHelper::Install)");
    return planned;
}

} // namespace ns3
