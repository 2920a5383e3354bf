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
    m_queues.clear();
    m_busy.clear();
    m_handing.clear();
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
    m_queues.clear();
    m_busy.clear();
    m_handing.clear();
    for (auto& [transport, handle] : m_sent)
    {
        transport->Cancel(handle);
    }
    m_sent.clear();
}

void
Exchange::Enqueue(uint32_t to, uint32_t lane, uint16_t tag, uint64_t bytes, MessageValues values)
{
    NS_ABORT_MSG_IF(m_handing.count(tag), "island " << m_ctx.island << ": tag " << tag
                                                    << " queued twice in round " << m_ctx.round);
    m_queues[{to, lane}].push_back(Queued{tag, bytes, std::move(values)});
    Pump();
}

void
Exchange::Pump()
{
    if (m_pumping)
    {
        return; // the outer loop looks again
    }
    m_pumping = true;
    bool again = true;
    while (again)
    {
        again = false;
        for (auto& [key, queue] : m_queues)
        {
            if (queue.empty() || m_busy.count(key))
            {
                continue;
            }
            Queued q = std::move(queue.front());
            queue.pop_front();
            m_busy.insert(key);
            m_handing[q.tag] = {key, q.bytes};
            SendTo(key.first, q.tag, q.bytes, std::move(q.values));
            again = true;
        }
    }
    m_pumping = false;
}

void
Exchange::NotifySent(uint16_t tag, uint64_t bytes, bool retransmission)
{
    auto it = m_handing.find(tag);
    if (retransmission || it == m_handing.end())
    {
        return;
    }
    it->second.second -= std::min(it->second.second, bytes);
    if (it->second.second == 0)
    {
        m_busy.erase(it->second.first);
        m_handing.erase(it);
        Pump();
    }
}

MessageValues
Exchange::Snapshot(const std::vector<double>& source, uint64_t offset, uint64_t count)
{
    if (count == 0 || offset >= source.size())
    {
        return MessageValues();
    }
    count = std::min<uint64_t>(count, source.size() - offset);
    auto copy = std::make_shared<std::vector<double>>(source.begin() + offset,
                                                      source.begin() + offset + count);
    return Slice(copy, 0, count);
}

uint32_t
Exchange::MemberIndex(const std::vector<uint32_t>& members) const
{
    auto it = std::find(members.begin(), members.end(), m_ctx.island);
    NS_ABORT_MSG_IF(it == members.end(),
                    "island " << m_ctx.island << " is not among the members of its clique in round "
                              << m_ctx.round);
    return static_cast<uint32_t>(it - members.begin());
}

std::vector<Exchange::Piece>
Exchange::Split(uint64_t bytes, uint64_t valueStart, uint64_t values, uint32_t n,
                uint32_t segmentSize)
{
    NS_ABORT_MSG_IF(n == 0, "Exchange::Split: no pieces");
    const uint64_t perSegment = std::max<uint32_t>(segmentSize / 8, 1);
    std::vector<Piece> pieces(n);
    for (uint32_t c = 0; c < n; ++c)
    {
        Piece& p = pieces[c];
        p.valueStart = valueStart + ChunkStart(values, n, c);
        p.valueCount = ChunkStart(values, n, c + 1) - ChunkStart(values, n, c);
        // Room for the values: full segments of perSegment doubles, then the rest.
        uint64_t room = 0;
        if (p.valueCount > 0)
        {
            uint64_t full = (p.valueCount - 1) / perSegment;
            room = full * segmentSize + (p.valueCount - full * perSegment) * 8;
        }
        p.bytes = std::max<uint64_t>({ChunkBytes(bytes, n, c), room, 1});
    }
    return pieces;
}

uint64_t
Exchange::ModelMessageBytes() const
{
    return Split(m_ctx.modelBytes, 0, m_ctx.valueCount, 1, m_ctx.segmentSize).front().bytes;
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
