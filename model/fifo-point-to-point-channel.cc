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
    std::deque<InFlight>& q = m_inFlight[wire];
    if (!q.empty() && arrival < q.back().arrival)
    {
        // Out of order (the delay was lowered while packets are in flight): on its own.
        Ptr<PointToPointNetDevice> dst = GetDestination(wire);
        Simulator::ScheduleWithContext(dst->GetNode()->GetId(), flight,
                                       &PointToPointNetDevice::Receive, dst, p->Copy());
    }
    else
    {
        const bool idle = q.empty();
        q.push_back(InFlight{arrival, p});
        if (idle)
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
    Simulator::ScheduleWithContext(GetDestination(wire)->GetNode()->GetId(),
                                   m_inFlight[wire].front().arrival - Simulator::Now(),
                                   &FifoPointToPointChannel::Deliver, this, wire);
}

void
FifoPointToPointChannel::Deliver(uint32_t wire)
{
    std::deque<InFlight>& q = m_inFlight[wire];
    if (q.empty())
    {
        return; // disposed with packets in flight
    }
    Ptr<const Packet> sent = q.front().packet;
    q.pop_front();
    // The receiving device modifies what it is given (ns-3's channel gives it a copy). Nobody
    // else holding the packet any more (the sending device released it when its transmission
    // completed; a trace sink may have kept it), it is handed over itself: no one can tell.
    Ptr<Packet> packet = sent->GetReferenceCount() == 1 ? ConstCast<Packet>(sent) : sent->Copy();
    sent = nullptr;
    if (!q.empty())
    {
        ScheduleFront(wire);
    }
    GetDestination(wire)->Receive(packet);
}

std::size_t
FifoPointToPointChannel::GetNQueued(uint32_t wire) const
{
    return m_inFlight[wire & 1].size();
}

void
FifoPointToPointChannel::DoDispose()
{
    for (std::deque<InFlight>& q : m_inFlight)
    {
        q.clear();
    }
    PointToPointChannel::DoDispose();
}

} // namespace ns3
