/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "all-to-all-exchange.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AllToAllExchange");
NS_OBJECT_ENSURE_REGISTERED(AllToAllExchange);

TypeId
AllToAllExchange::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AllToAllExchange")
                            .SetParent<Exchange>()
                            .SetGroupName("IntelligentNetwork")
                            .AddConstructor<AllToAllExchange>();
    return tid;
}

AllToAllExchange::AllToAllExchange() = default;
AllToAllExchange::~AllToAllExchange() = default;

void
AllToAllExchange::Start()
{
    m_started = true;
    SendModel();
    if (m_models.size() == m_ctx.plan.peers.size())
    {
        Complete();
    }
}

void
AllToAllExchange::SendModel()
{
    for (uint32_t target : m_ctx.plan.targets)
    {
        SendTo(target, 0, ModelMessageBytes(), Slice(m_ctx.values, 0, m_ctx.valueCount));
    }
}

void
AllToAllExchange::Receive(const InMessage& message)
{
    Collect(message);
}

void
AllToAllExchange::Collect(const InMessage& message)
{
    const auto& peers = m_ctx.plan.peers;
    if (message.type != IslandHeader::DATA || message.tag != 0 ||
        std::find(peers.begin(), peers.end(), message.origin) == peers.end())
    {
        return;
    }
    std::vector<double> v = message.values;
    v.resize(std::min<std::size_t>(v.size(), m_ctx.valueCount));
    m_models[message.origin] = std::move(v);
    if (m_started && m_models.size() == peers.size())
    {
        Complete();
    }
}

ExchangeResult
AllToAllExchange::TakeResult()
{
    ExchangeResult r;
    for (uint32_t peer : m_ctx.plan.peers)
    {
        r.origins.push_back(peer);
        r.models.push_back(std::move(m_models[peer]));
    }
    m_models.clear();
    return r;
}

} // namespace ns3
