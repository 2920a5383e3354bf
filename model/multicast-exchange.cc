/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "multicast-exchange.h"

#include "udp-transport.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MulticastExchange");
NS_OBJECT_ENSURE_REGISTERED(MulticastExchange);

TypeId
MulticastExchange::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MulticastExchange")
                            .SetParent<AllToAllExchange>()
                            .SetGroupName("IntelligentNetwork")
                            .AddConstructor<MulticastExchange>();
    return tid;
}

MulticastExchange::MulticastExchange() = default;
MulticastExchange::~MulticastExchange() = default;

void
MulticastExchange::SendModel()
{
    const IslandRoundPlan& plan = m_ctx.plan;
    if (plan.targets.empty())
    {
        return;
    }
    NS_ABORT_MSG_IF(!m_ctx.group || !m_ctx.group->SupportsGroups(),
                    "island " << m_ctx.island << ": the transport cannot multicast");
    NS_ABORT_MSG_IF(plan.group.IsAny() || plan.groupDevices.empty(),
                    "island " << m_ctx.island << ": no multicast group in round "
                              << m_ctx.round);
    OutMessage m;
    m.round = m_ctx.round;
    m.tag = 0;
    m.type = IslandHeader::DATA;
    m.receivers = plan.targets;
    m.dest = plan.group;
    m.groupDevices = plan.groupDevices;
    m.bytes = ModelMessageBytes();
    m.values = Slice(m_ctx.values, 0, m_ctx.valueCount);
    auto usage = m_ctx.usage;
    m.usage = [usage]() { return usage(UdpTransport::GROUP_TAG); };
    Track(m_ctx.group, m_ctx.group->Send(m));
}

} // namespace ns3
