/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_FIFO_POINT_TO_POINT_CHANNEL_H
#define INTELLIGENT_NETWORK_FIFO_POINT_TO_POINT_CHANNEL_H

#include "ns3/nstime.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>

namespace ns3
{

class Packet;
class PointToPointNetDevice;

/**
 * \ingroup intelligent-network
 * \brief A PointToPointChannel that keeps each direction's packets in flight in a FIFO, with
 * one pending delivery event per direction.
 *
 * ns-3's PointToPointChannel schedules one event per packet when its transmission starts,
 * so a link direction of bandwidth B and propagation delay d holds about B d / packet-size
 * events in the simulator's pending set at once (a 10 Gbit/s, 50 ms link carrying 64 KiB
 * packets: about 950). On a large WAN the pending set grows to tens of thousands of events,
 * and every insertion and removal walks a heap of cold entries. A direction's packets
 * arrive in the order they were sent (serialisation and a fixed delay), so this channel
 * appends each one to the direction's queue with its arrival time and keeps one event
 * pending per direction, for the packet at the front; when it fires, the packet is handed to
 * the receiving device (PointToPointNetDevice::Receive, as ns-3 does) and the next one is
 * scheduled. The pending set then holds one event per busy
 * link direction, and the queue is read in order.
 *
 * Every packet arrives at the same time as on ns-3's channel (transmission time plus the
 * Delay attribute), in the same order on its direction, in the receiving node's context.
 * What can differ is the order among events of the same timestamp: a delivery event is
 * scheduled when the packet before it is delivered, not when its transmission starts, so
 * another event scheduled in between for the very same time runs first (ns-3 breaks ties
 * of time by the order events were scheduled). A packet that would arrive before the one
 * queued before it (the Delay attribute lowered while packets are in flight) is scheduled
 * on its own, as ns-3 does.
 *
 * The TxRxFifo trace source fires where ns-3's TxRxPointToPoint does, with the same arguments
 * (ns-3 3.37 keeps that one private to PointToPointChannel and refuses a second trace source
 * of the same name, so the inherited TxRxPointToPoint never fires here). ns-3's channel gives
 * the receiving device a copy of every packet; this one hands over the packet itself when
 * nobody else holds it any more, and a copy when someone does (a trace sink that kept it).
 */
class FifoPointToPointChannel : public PointToPointChannel
{
  public:
    static TypeId GetTypeId();

    FifoPointToPointChannel();

    bool TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime) override;

    /// Packets in flight in direction \p wire (0: from device 0, 1: from device 1), queued.
    std::size_t GetNQueued(uint32_t wire) const;

  protected:
    void DoDispose() override;

  private:
    /// A packet in flight and the time it arrives.
    struct InFlight
    {
        Time arrival;
        Ptr<const Packet> packet; ///< As sent (copied at delivery only if shared).
    };

    void ScheduleFront(uint32_t wire);
    void Deliver(uint32_t wire);

    /// Each direction's packets in flight, in order of arrival; a delivery event is pending
    /// for the front one exactly while its queue is not empty.
    std::deque<InFlight> m_inFlight[2];
    TracedCallback<Ptr<const Packet>, Ptr<NetDevice>, Ptr<NetDevice>, Time, Time> m_txrx;
};

} // namespace ns3

#endif
