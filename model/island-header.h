/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_ISLAND_HEADER_H
#define INTELLIGENT_NETWORK_ISLAND_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Header of every packet of the model-exchange protocol (fixed 28 bytes).
 *
 * | field     | bytes | DATA / CONTRIBUTION / RESULT            | ACK                       | POLL  |
 * |-----------|-------|-----------------------------------------|---------------------------|-------|
 * | type      | 1     | packet type                             |                           |       |
 * | flags     | 1     | FLAG_RETRANSMISSION, FLAG_VALUES        |                           |       |
 * | island    | 2     | island (or aggregator) that sent it     | island acknowledging      | poller|
 * | origin    | 2     | island whose model it carries           | origin being acknowledged | origin|
 * | extra     | 2     | clique index                            | number of NACK ranges     |       |
 * | round     | 4     | training round                          |                           |       |
 * | seq       | 4     | segment index                           | cumulative ack (next missing) |   |
 * | count     | 4     | segments in the model                   |                           |       |
 * | timestamp | 8     | send time (ns)                          | echo of a DATA timestamp  | send time |
 *
 * An ACK's payload holds `extra` NACK ranges (uint32 first, uint32 length) of missing segments.
 */
class IslandHeader : public Header
{
  public:
    enum Type : uint8_t
    {
        DATA = 1,         ///< A segment of a model (unicast or multicast).
        ACK = 2,          ///< Cumulative ack plus NACK ranges.
        POLL = 3,         ///< Sender asks for an ACK (tail loss, lost ACKs).
        CONTRIBUTION = 4, ///< A member's segment addressed to an aggregator.
        RESULT = 5,       ///< An aggregated (summed) segment.
        RESEND = 6,       ///< A member asks an aggregator to resend results (NACK ranges).
        PARITY = 7        ///< A parity segment of a block of a multicast model (seq: the
                          ///< block; payload: full segment size, starting with the block
                          ///< size as uint32): see ParityRepair.
    };

    enum Flags : uint8_t
    {
        FLAG_RETRANSMISSION = 1, ///< This segment was sent before.
        FLAG_VALUES = 2,         ///< The payload starts with real values (see TrainingIsland).
        FLAG_OVERFLOW = 4, ///< A RESULT whose sum overflowed, or a CONTRIBUTION that saturated.
        FLAG_FALLBACK = 8,       ///< A model multicast because the clique's FPGA failed.
        FLAG_ECN_ECHO = 16,      ///< ACK/RESULT: a congestion mark (CE) arrived.
        FLAG_TAIL = 32,          ///< DATA: sent after the message's last new segment (the
                                 ///< receiver's ack describes the whole message).
        FLAG_PARITY_REPAIR = 64, ///< PARITY: always; ACK: the NACK ranges are followed by the
                                 ///< parity held per unrecovered block (uint16 n, then n x
                                 ///< (uint32 block, uint32 parity segments)).
        FLAG_NACK_BITMAP = 128   ///< ACK: the missing segments come as a bitmap instead of
                                 ///< ranges (uint32 bits, then ceil(bits / 8) bytes; bit i,
                                 ///< most significant first, set: segment seq + i is missing).
    };

    static constexpr uint32_t SERIALIZED_SIZE = 28;

    IslandHeader();

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint8_t type;
    uint8_t flags;
    uint16_t island;
    uint16_t origin;
    uint16_t extra;
    uint32_t round;
    uint32_t seq;
    uint32_t count;
    uint64_t timestamp;
};

} // namespace ns3

#endif
