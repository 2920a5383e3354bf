/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ideal-transport.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IdealTransport");
NS_OBJECT_ENSURE_REGISTERED(IdealTransport);

TypeId
IdealTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IdealTransport")
            .SetParent<UdpTransport>()
            .SetGroupName("IntelligentNetwork")
            .AddConstructor<IdealTransport>()
            .AddAttribute("SendRate",
                          "Pacing rate shared by the island's streams when no RateController "
                          "is set (wire rate).",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&IdealTransport::m_sendRate),
                          MakeDataRateChecker())
            .AddAttribute("MaxRepairCopies",
                          "Redundant repair of models (unicast, multicast): a segment resent "
                          "for the (k+1)-th time goes out in min(2^k, this) back-to-back "
                          "copies, so that lost resends at the tail rarely cost another round "
                          "trip. Here loss is not a congestion signal (rates are allocated), so "
                          "the copies load no congested queue; they are lost independently "
                          "under random loss, not under bursts. 1: plain ARQ.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&IdealTransport::m_maxRepairCopies),
                          MakeUintegerChecker<uint32_t>(1, 64));
    return tid;
}

IdealTransport::IdealTransport() = default;
IdealTransport::~IdealTransport() = default;

void
IdealTransport::DoDispose()
{
    m_controller = nullptr;
    UdpTransport::DoDispose();
}

void
IdealTransport::SetRateController(Ptr<RateController> controller)
{
    m_controller = controller;
}

void
IdealTransport::OnRate(uint64_t handle, double rate)
{
    SetRate(handle, rate);
}

void
IdealTransport::OnOpen(Stream& s)
{
    if (!m_controller)
    {
        ShareSendRate();
        return;
    }
    NS_ABORT_MSG_UNLESS(s.msg.usage, "IdealTransport: a stream without its usage");
    auto cb = MakeCallback(&IdealTransport::OnRate, this).Bind(s.handle);
    m_controllerId[s.handle] = s.msg.share.empty()
                                   ? m_controller->Register(s.msg.usage(), cb)
                                   : m_controller->RegisterShared(s.msg.share, s.msg.usage(), cb);
}

void
IdealTransport::OnAllNewSent(Stream& s)
{
    if (!m_controller)
    {
        ShareSendRate();
        return;
    }
    auto it = m_controllerId.find(s.handle);
    if (it != m_controllerId.end())
    {
        m_controller->Release(it->second);
        m_controllerId.erase(it);
    }
}

void
IdealTransport::OnClose(Stream& s)
{
    if (!s.released)
    {
        s.released = true;
        if (m_controller)
        {
            OnAllNewSent(s);
        }
    }
    if (!m_controller)
    {
        // The stream leaves the share (Finish erases it right after).
        s.rateBps = 0;
        ShareSendRate();
    }
}

void
IdealTransport::ShareSendRate()
{
    std::size_t active = 0;
    for (const auto& [handle, s] : Streams())
    {
        active += (s.released || s.rateBps < 0) ? 0 : 1;
    }
    for (auto& [handle, s] : Streams())
    {
        if (!s.released)
        {
            SetRate(handle, static_cast<double>(m_sendRate.GetBitRate()) /
                                static_cast<double>(std::max<std::size_t>(active, 1)));
        }
    }
}

void
IdealTransport::RefreshStreams()
{
    if (!m_controller)
    {
        return;
    }
    for (const auto& [handle, id] : m_controllerId)
    {
        const Stream& s = Streams().at(handle);
        m_controller->UpdateUsage(id, s.msg.usage());
    }
}

uint32_t
IdealTransport::RepairCopies() const
{
    return m_maxRepairCopies;
}

uint32_t
IdealTransport::DefaultNackRanges() const
{
    // Every gap at once (as many ranges as fit in one segment): rates are allocated, so the
    // resends they trigger congest nothing.
    return 1u << 20;
}

double
IdealTransport::Rto(const Stream& s) const
{
    // A tail-loss probe rather than a congestion timer: the network allocates the rates, so a
    // loss is not a congestion signal and a short, barely backed-off timeout is safe. The ack
    // of the last segment is due one round trip after it left; allow for jitter.
    return std::max(m_minRto.GetSeconds(), s.srtt + 2 * s.rttvar + 1e-3) *
           std::min<uint32_t>(s.backoff, 4);
}

} // namespace ns3
