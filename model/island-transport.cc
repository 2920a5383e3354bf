/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "island-transport.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IslandTransport");
NS_OBJECT_ENSURE_REGISTERED(IslandTransport);

TypeId
IslandTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IslandTransport")
                            .SetParent<Object>()
                            .SetGroupName("IntelligentNetwork");
    return tid;
}

IslandTransport::IslandTransport() = default;
IslandTransport::~IslandTransport() = default;

void
IslandTransport::DoDispose()
{
    m_node = nullptr;
    m_accept = nullptr;
    m_deliver = nullptr;
    m_sent = nullptr;
    m_received = nullptr;
    Object::DoDispose();
}

void
IslandTransport::Setup(Ptr<Node> node, uint32_t islandId, const std::vector<Ipv4Address>& directory)
{
    m_node = node;
    m_islandId = islandId;
    m_directory = directory;
}

void
IslandTransport::SetCallbacks(AcceptCallback accept,
                              DeliverCallback deliver,
                              SentCallback sent,
                              ReceivedCallback received)
{
    m_accept = std::move(accept);
    m_deliver = std::move(deliver);
    m_sent = std::move(sent);
    m_received = std::move(received);
}

void
IslandTransport::SetSegmentSize(uint32_t bytes)
{
    m_segmentSize = bytes;
}

void
IslandTransport::SetFixedPointBits(uint32_t bits)
{
    m_fixedPointBits = bits;
}

void
IslandTransport::SetRttHints(const std::map<uint32_t, Time>& hints)
{
    m_rttHints = hints;
}

void
IslandTransport::RefreshStreams()
{
}

void
IslandTransport::SetGroupDevices(Ipv4Address, const std::vector<uint32_t>&)
{
}

uint64_t
IslandTransport::GetEncodeOverflows() const
{
    return m_encodeOverflows;
}

Time
IslandTransport::HintFor(const std::vector<uint32_t>& receivers, Time fallback) const
{
    Time hint;
    for (uint32_t r : receivers)
    {
        auto h = m_rttHints.find(r);
        hint = std::max(hint, h == m_rttHints.end() ? fallback : h->second);
    }
    return hint.IsZero() ? fallback : hint;
}

Time
IslandTransport::RecoveryRoundTrip(uint64_t) const
{
    return Time(0);
}

} // namespace ns3
