/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "parameter-server-exchange.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ParameterServerExchange");
NS_OBJECT_ENSURE_REGISTERED(ParameterServerExchange);

TypeId
ParameterServerExchange::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ParameterServerExchange")
                            .SetParent<Exchange>()
                            .SetGroupName("IntelligentNetwork")
                            .AddConstructor<ParameterServerExchange>();
    return tid;
}

ParameterServerExchange::ParameterServerExchange() = default;
ParameterServerExchange::~ParameterServerExchange() = default;

void
ParameterServerExchange::Start()
{
    const IslandRoundPlan& plan = m_ctx.plan;
    m_started = true;
    if (plan.peers.empty())
    {
        Complete();
        return;
    }
    NS_ABORT_MSG_IF(plan.members.size() != plan.peers.size() + 1,
                    "island " << m_ctx.island << ": parameter server of round " << m_ctx.round
                              << " has " << plan.members.size() << " members but the clique has "
                              << plan.peers.size() + 1);
    MemberIndex(plan.members);
    m_serverId = plan.members.front();
    m_server = m_serverId == m_ctx.island;
    if (m_server)
    {
        TrySum();
        return;
    }
    Enqueue(m_serverId, 0, 1, MessageBytes(), Slice(m_ctx.values, 0, m_ctx.valueCount));
}

void
ParameterServerExchange::Receive(const InMessage& message)
{
    if (message.type != IslandHeader::DATA || !m_started || m_haveSum)
    {
        return;
    }
    const auto& peers = m_ctx.plan.peers;
    if (m_server)
    {
        if (message.tag == 1 &&
            std::find(peers.begin(), peers.end(), message.origin) != peers.end())
        {
            m_models[message.origin] = message.values;
            TrySum();
        }
        return;
    }
    if (message.origin == m_serverId && message.tag >= 2)
    {
        m_sum = message.values;
        m_sum.resize(m_ctx.valueCount, 0.0);
        m_haveSum = true;
        Complete();
    }
}

void
ParameterServerExchange::TrySum()
{
    const IslandRoundPlan& plan = m_ctx.plan;
    if (m_haveSum || m_models.size() < plan.peers.size())
    {
        return;
    }
    // The sum in member order (the server's own values where it stands).
    m_sum.assign(m_ctx.valueCount, 0.0);
    for (uint32_t member : plan.members)
    {
        const std::vector<double>* v =
            member == m_ctx.island ? m_ctx.values.get() : &m_models.at(member);
        for (uint32_t j = 0; v && j < m_ctx.valueCount && j < v->size(); ++j)
        {
            m_sum[j] += (*v)[j];
        }
    }
    m_models.clear();
    m_haveSum = true;
    MessageValues sum = Snapshot(m_sum, 0, m_ctx.valueCount);
    for (uint32_t i = 1; i < plan.members.size(); ++i)
    {
        Enqueue(plan.members[i], 1, static_cast<uint16_t>(1 + i), MessageBytes(), sum);
    }
    Complete();
}

uint64_t
ParameterServerExchange::MessageBytes() const
{
    // The model, grown to the room its values need if they fill nearly all of it.
    return ModelMessageBytes();
}

ExchangeResult
ParameterServerExchange::TakeResult()
{
    ExchangeResult r;
    r.isSum = true;
    r.sum = std::move(m_sum);
    r.members = static_cast<uint32_t>(m_ctx.plan.peers.size() + 1);
    return r;
}

} // namespace ns3
