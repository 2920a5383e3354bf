/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_MODEL_PAYLOAD_TAG_H
#define INTELLIGENT_NETWORK_MODEL_PAYLOAD_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Packet tag: how many model bytes an IPv4 packet carries, and its size at the source.
 *
 * LinkMonitor sets it once per packet where the packet enters IPv4 at its source, and reads
 * it (PeekPacketTag, no copy, no header parsing) on every link the packet crosses. Forwarded
 * and multicast copies keep it (packet tags survive Packet::Copy).
 */
class ModelPayloadTag : public Tag
{
  public:
    ModelPayloadTag() = default;
    /// \p payloadBytes model bytes in an IPv4 packet of \p ipBytes bytes (header included).
    ModelPayloadTag(uint32_t payloadBytes, uint32_t ipBytes);

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    uint32_t GetPayloadBytes() const;
    /// Size of the whole IPv4 packet at its source (a fragment is smaller).
    uint32_t GetIpBytes() const;

  private:
    uint32_t m_payload = 0;
    uint32_t m_ipBytes = 0;
};

} // namespace ns3

#endif
