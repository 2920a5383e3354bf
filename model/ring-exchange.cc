/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ring-exchange.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingExchange");
NS_OBJECT_ENSURE_REGISTERED(RingExchange);

TypeId
RingExchange::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingExchange")
                            .SetParent<Exchange>()
                            .SetGroupName("IntelligentNetwork")
                            .AddConstructor<RingExchange>();
    return tid;
}

RingExchange::RingExchange() = default;
RingExchange::~RingExchange() = default;

uint32_t
RingExchange::ChunkOf(uint32_t position, uint32_t step) const
{
    // Reduce-scatter step s: chunk (i - s) mod k; all-gather step s: chunk (i + 1 - s) mod k.
    uint32_t s = step < m_k - 1 ? step : step - (m_k - 1);
    uint32_t shift = step < m_k - 1 ? 0 : 1;
    return static_cast<uint32_t>((position + shift + m_k * 2 - s % m_k) % m_k);
}

void
RingExchange::Start()
{
    const auto& members = m_ctx.plan.members;
    m_started = true;
    if (m_ctx.plan.peers.empty())
    {
        Complete();
        return;
    }
    NS_ABORT_MSG_IF(members.size() != m_ctx.plan.peers.size() + 1,
                    "island " << m_ctx.island << ": ring of round " << m_ctx.round << " has "
                              << members.size() << " members but the clique has "
                              << m_ctx.plan.peers.size() + 1);
    m_k = static_cast<uint32_t>(members.size());
    m_position = MemberIndex(members);
    m_next = members[(m_position + 1) % m_k];
    m_prev = members[(m_position + m_k - 1) % m_k];
    m_chunks = Split(m_ctx.modelBytes, 0, m_ctx.valueCount, m_k, m_ctx.segmentSize);
    if (m_ctx.values)
    {
        m_sum = *m_ctx.values;
    }
    m_sum.resize(m_ctx.valueCount, 0.0);
    SendStep(0);
    Advance();
}

void
RingExchange::SendStep(uint32_t step)
{
    const Piece& chunk = m_chunks[ChunkOf(m_position, step)];
    Enqueue(m_next, 0, static_cast<uint16_t>(1 + step), chunk.bytes,
            Snapshot(m_sum, chunk.valueStart, chunk.valueCount));
}

bool
RingExchange::Accepts(uint32_t origin, uint16_t tag, uint8_t type, uint8_t flags) const
{
    if (!m_started || m_k == 0)
    {
        return Exchange::Accepts(origin, tag, type, flags);
    }
    return type == IslandHeader::DATA && origin == m_prev && tag >= 1 && tag <= 2 * (m_k - 1);
}

void
RingExchange::Receive(const InMessage& message)
{
    if (message.type != IslandHeader::DATA || m_k == 0 || message.origin != m_prev ||
        message.tag < 1 || message.tag > 2 * (m_k - 1) || message.tag - 1u < m_step)
    {
        return;
    }
    m_waiting[message.tag - 1u] = message.values;
    if (m_started)
    {
        Advance();
    }
}

void
RingExchange::Advance()
{
    const uint32_t steps = 2 * (m_k - 1);
    for (auto it = m_waiting.find(m_step); it != m_waiting.end(); it = m_waiting.find(m_step))
    {
        uint32_t step = m_step++;
        const Piece& chunk = m_chunks[ChunkOf((m_position + m_k - 1) % m_k, step)];
        const std::vector<double>& in = it->second;
        for (uint64_t j = 0; j < chunk.valueCount; ++j)
        {
            double v = j < in.size() ? in[j] : 0.0;
            double& own = m_sum[chunk.valueStart + j];
            // Reduce-scatter: the predecessor's partial sum plus this island's values (in
            // ring order); all-gather: the final sum, copied.
            own = step < m_k - 1 ? v + own : v;
        }
        m_waiting.erase(it);
        if (step + 1 < steps)
        {
            SendStep(step + 1);
        }
    }
    if (m_step == steps)
    {
        Complete();
    }
}

ExchangeResult
RingExchange::TakeResult()
{
    ExchangeResult r;
    r.isSum = true;
    r.sum = std::move(m_sum);
    r.members = std::max<uint32_t>(m_k, 1);
    return r;
}

} // namespace ns3
