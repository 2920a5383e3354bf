/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "exchange.h"

#include "ns3/log.h"
#include "ns3/object-factory.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Exchange");
NS_OBJECT_ENSURE_REGISTERED(Exchange);

TypeId
Exchange::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Exchange").SetParent<Object>().SetGroupName("IntelligentNetwork");
    return tid;
}

Exchange::Exchange() = default;
Exchange::~Exchange() = default;

Ptr<Exchange>
Exchange::Create(ExchangePattern pattern)
{
    // Each pattern's class registers its TypeId under this name (one file per pattern).
    const char* name = nullptr;
    switch (pattern)
    {
    case ExchangePattern::ALL_TO_ALL:
        name = "ns3::AllToAllExchange";
        break;
    case ExchangePattern::RING:
        name = "ns3::RingExchange";
        break;
    case ExchangePattern::TREE:
        name = "ns3::TreeExchange";
        break;
    case ExchangePattern::PARAMETER_SERVER:
        name = "ns3::ParameterServerExchange";
        break;
    case ExchangePattern::MULTICAST:
        name = "ns3::MulticastExchange";
        break;
    case ExchangePattern::AGGREGATION:
        name = "ns3::AggregationExchange";
        break;
    }
    TypeId tid;
    NS_ABORT_MSG_UNLESS(name && TypeId::LookupByNameFailSafe(name, &tid),
                        "no exchange class for pattern " << PatternName(pattern));
    ObjectFactory factory;
    factory.SetTypeId(tid);
    return factory.Create<Exchange>();
}

void
Exchange::DoDispose()
{
    m_sent.clear();
    m_ctx = ExchangeContext();
    Object::DoDispose();
}

void
Exchange::SetContext(ExchangeContext context)
{
    m_ctx = std::move(context);
}

const ExchangeContext&
Exchange::Context() const
{
    return m_ctx;
}

void
Exchange::OnSegment(uint32_t, uint16_t, uint8_t)
{
}

bool
Exchange::Accepts(uint32_t origin, uint16_t, uint8_t type, uint8_t) const
{
    const auto& peers = m_ctx.plan.peers;
    return type == IslandHeader::DATA &&
           std::find(peers.begin(), peers.end(), origin) != peers.end();
}

void
Exchange::Abort()
{
    for (auto& [transport, handle] : m_sent)
    {
        transport->Cancel(handle);
    }
    m_sent.clear();
}

void
Exchange::Track(Ptr<IslandTransport> transport, uint64_t handle)
{
    m_sent.emplace_back(transport, handle);
}

bool
Exchange::IsComplete() const
{
    return m_complete;
}

void
Exchange::Complete()
{
    if (m_complete)
    {
        return;
    }
    m_complete = true;
    if (m_ctx.done)
    {
        m_ctx.done();
    }
}

uint64_t
Exchange::SendTo(uint32_t to, uint16_t tag, uint64_t bytes, MessageValues values)
{
    OutMessage m;
    m.round = m_ctx.round;
    m.tag = tag;
    m.type = IslandHeader::DATA;
    m.receivers = {to};
    m.dest = m_ctx.directory.at(to);
    m.bytes = bytes;
    m.values = std::move(values);
    auto usage = m_ctx.usage;
    m.usage = [usage, to]() { return usage(to); };
    uint64_t h = m_ctx.unicast->Send(m);
    Track(m_ctx.unicast, h);
    return h;
}

MessageValues
Exchange::Slice(std::shared_ptr<const std::vector<double>> vector,
                uint64_t offset,
                uint64_t count,
                bool fixedPoint)
{
    MessageValues v;
    if (vector && count > 0 && offset < vector->size())
    {
        v.data = std::move(vector);
        v.offset = offset;
        v.count = static_cast<uint32_t>(std::min<uint64_t>(count, v.data->size() - offset));
        v.fixedPoint = fixedPoint;
    }
    return v;
}

uint64_t
Exchange::ChunkStart(uint64_t total, uint32_t chunks, uint32_t c)
{
    return static_cast<uint64_t>((static_cast<unsigned __int128>(total) * c) / chunks);
}

uint64_t
Exchange::ChunkBytes(uint64_t total, uint32_t chunks, uint32_t c)
{
    return ChunkStart(total, chunks, c + 1) - ChunkStart(total, chunks, c);
}

} // namespace ns3
