/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fifo-point-to-point-channel.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FifoPointToPointChannel");
NS_OBJECT_ENSURE_REGISTERED(FifoPointToPointChannel);

TypeId
FifoPointToPointChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FifoPointToPointChannel")
            .SetParent<PointToPointChannel>()
            .SetGroupName("IntelligentNetwork")
            .AddConstructor<FifoPointToPointChannel>()
            .AddTraceSource("TxRxFifo",
                            "A packet's transmission started (as PointToPointChannel's): "
                            "packet, sending and receiving devices, transmission time, "
                            "last bit's arrival relative to now.",
                            MakeTraceSourceAccessor(&FifoPointToPointChannel::m_txrx),
                            "ns3::PointToPointChannel::TxRxAnimationCallback");
    return tid;
}

FifoPointToPointChannel::FifoPointToPointChannel() = default;

bool
FifoPointToPointChannel::TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src,
                                       Time txTime)
{
    NS_LOG_FUNCTION(this << p << src << txTime);
    IsInitialized(); // asserts that both ends are attached
    const uint32_t wire = src == GetSource(0) ? 0 : 1;
    const Time flight = txTime + GetDelay();
    const Time arrival = Simulator::Now() + flight;
    Direction& d = m_direction[wire];
    if (!d.queue.empty() && arrival < d.queue.back().arrival)
    {
        // Out of order (the delay was lowered while packets are in flight): on its own.
        Ptr<PointToPointNetDevice> dst = GetDestination(wire);
        Simulator::ScheduleWithContext(dst->GetNode()->GetId(), flight,
                                       &PointToPointNetDevice::Receive, dst, p->Copy());
    }
    else
    {
        d.queue.push_back(InFlight{arrival, p});
        if (!d.pending)
        {
            ScheduleFront(wire);
        }
    }
    m_txrx(p, src, GetDestination(wire), txTime, flight);
    return true;
}

void
FifoPointToPointChannel::ScheduleFront(uint32_t wire)
{
    Direction& d = m_direction[wire];
    d.pending = true;
    Simulator::ScheduleWithContext(GetDestination(wire)->GetNode()->GetId(),
                                   d.queue.front().arrival - Simulator::Now(),
                                   &FifoPointToPointChannel::Deliver, this, wire);
}

void
FifoPointToPointChannel::Deliver(uint32_t wire)
{
    Direction& d = m_direction[wire];
    if (d.queue.empty())
    {
        return; // disposed with packets in flight
    }
    Ptr<const Packet> sent = d.queue.front().packet;
    d.queue.pop_front();
    // The receiving device modifies what it is given (ns-3's channel gives it a copy). Nobody
    // else holding the packet any more (the sending device released it when its transmission
    // completed; a trace sink may have kept it), it is handed over itself: no one can tell.
    Ptr<Packet> packet = sent->GetReferenceCount() == 1 ? ConstCast<Packet>(sent) : sent->Copy();
    sent = nullptr;
    d.pending = false;
    if (!d.queue.empty())
    {
        ScheduleFront(wire);
    }
    GetDestination(wire)->Receive(packet);
}

std::size_t
FifoPointToPointChannel::GetNQueued(uint32_t wire) const
{
    return m_direction[wire & 1].queue.size();
}

void
FifoPointToPointChannel::DoDispose()
{
    for (Direction& d : m_direction)
    {
        d.queue.clear();
        d.pending = false;
    }
    PointToPointChannel::DoDispose();
}

} // namespace ns3
