/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "island-header.h"

#include "wire-format.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IslandHeader);

static_assert(IslandHeader::SERIALIZED_SIZE == WireFormat::kIslandHeaderBytes,
              "IslandHeader size must match the fluid model's WireFormat");

IslandHeader::IslandHeader()
    : type(DATA),
      flags(0),
      island(0),
      origin(0),
      extra(0),
      round(0),
      seq(0),
      count(0),
      timestamp(0)
{
}

TypeId
IslandHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IslandHeader")
                            .SetParent<Header>()
                            .SetGroupName("IntelligentNetwork")
                            .AddConstructor<IslandHeader>();
    return tid;
}

TypeId
IslandHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
IslandHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
IslandHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(type);
    i.WriteU8(flags);
    i.WriteHtonU16(island);
    i.WriteHtonU16(origin);
    i.WriteHtonU16(extra);
    i.WriteHtonU32(round);
    i.WriteHtonU32(seq);
    i.WriteHtonU32(count);
    i.WriteHtonU64(timestamp);
}

uint32_t
IslandHeader::Deserialize(Buffer::Iterator i)
{
    type = i.ReadU8();
    flags = i.ReadU8();
    island = i.ReadNtohU16();
    origin = i.ReadNtohU16();
    extra = i.ReadNtohU16();
    round = i.ReadNtohU32();
    seq = i.ReadNtohU32();
    count = i.ReadNtohU32();
    timestamp = i.ReadNtohU64();
    return SERIALIZED_SIZE;
}

void
IslandHeader::Print(std::ostream& os) const
{
    os << "type=" << static_cast<int>(type) << " flags=" << static_cast<int>(flags)
       << " island=" << island << " origin=" << origin << " extra=" << extra
       << " round=" << round << " seq=" << seq << " count=" << count << " ts=" << timestamp;
}

} // namespace ns3
