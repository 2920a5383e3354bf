/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "model-payload-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(ModelPayloadTag);

ModelPayloadTag::ModelPayloadTag(uint32_t payloadBytes, uint32_t ipBytes)
    : m_payload(payloadBytes),
      m_ipBytes(ipBytes)
{
}

TypeId
ModelPayloadTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ModelPayloadTag")
                            .SetParent<Tag>()
                            .SetGroupName("IntelligentNetwork")
                            .AddConstructor<ModelPayloadTag>();
    return tid;
}

TypeId
ModelPayloadTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
ModelPayloadTag::GetSerializedSize() const
{
    return 8;
}

void
ModelPayloadTag::Serialize(TagBuffer i) const
{
    i.WriteU32(m_payload);
    i.WriteU32(m_ipBytes);
}

void
ModelPayloadTag::Deserialize(TagBuffer i)
{
    m_payload = i.ReadU32();
    m_ipBytes = i.ReadU32();
}

void
ModelPayloadTag::Print(std::ostream& os) const
{
    os << "model payload=" << m_payload << " of " << m_ipBytes << " IP bytes";
}

uint32_t
ModelPayloadTag::GetPayloadBytes() const
{
    return m_payload;
}

uint32_t
ModelPayloadTag::GetIpBytes() const
{
    return m_ipBytes;
}

} // namespace ns3
