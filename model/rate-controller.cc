/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rate-controller.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RateController");
NS_OBJECT_ENSURE_REGISTERED(RateController);

TypeId
RateController::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RateController")
            .SetParent<Object>()
            .SetGroupName("IntelligentNetwork")
            .AddConstructor<RateController>()
            .AddTraceSource("RatesUpdated",
                            "Rates were recomputed; argument: number of active streams.",
                            MakeTraceSourceAccessor(&RateController::m_ratesUpdated),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

RateController::RateController() = default;
RateController::~RateController() = default;

void
RateController::DoDispose()
{
    m_recompute.Cancel();
    m_streams.clear();
    Object::DoDispose();
}

void
RateController::SetCapacities(const std::vector<double>& capacities)
{
    m_capacities = capacities;
    ScheduleRecompute();
}

const std::vector<double>&
RateController::GetCapacities() const
{
    return m_capacities;
}

uint64_t
RateController::Register(const FlowUsage& usage, RateCallback setRate)
{
    uint64_t id = m_nextId++;
    m_streams[id] = Stream{usage, {{id, setRate}}, -1};
    m_streamOf[id] = id;
    NS_LOG_FUNCTION(this << id << usage.usage.size());
    ScheduleRecompute();
    return id;
}

uint64_t
RateController::RegisterShared(const std::string& shareKey,
                               const FlowUsage& usage,
                               RateCallback setRate)
{
    auto it = m_shared.find(shareKey);
    if (it == m_shared.end() || !m_streams.count(it->second))
    {
        uint64_t id = Register(usage, setRate);
        m_shared[shareKey] = id;
        return id;
    }
    uint64_t id = m_nextId++;
    Stream& s = m_streams[it->second];
    s.participants[id] = setRate;
    m_streamOf[id] = it->second;
    // Tell the newcomer the stream's rate (after any pending recomputation).
    Simulator::ScheduleNow(&RateController::Notify, this, id);
    return id;
}

void
RateController::Notify(uint64_t id)
{
    auto it = m_streamOf.find(id);
    if (it == m_streamOf.end())
    {
        return;
    }
    Stream& s = m_streams[it->second];
    if (s.rate >= 0)
    {
        s.participants[id](s.rate);
    }
}

void
RateController::Release(uint64_t id)
{
    NS_LOG_FUNCTION(this << id);
    auto it = m_streamOf.find(id);
    if (it == m_streamOf.end())
    {
        return;
    }
    uint64_t stream = it->second;
    m_streamOf.erase(it);
    Stream& s = m_streams[stream];
    s.participants.erase(id);
    if (s.participants.empty())
    {
        m_streams.erase(stream);
        ScheduleRecompute();
    }
}

void
RateController::UpdateUsage(uint64_t id, const FlowUsage& usage)
{
    auto it = m_streamOf.find(id);
    if (it == m_streamOf.end())
    {
        return;
    }
    m_streams[it->second].usage = usage;
    ScheduleRecompute();
}

std::size_t
RateController::ActiveStreams() const
{
    return m_streams.size();
}

double
RateController::GetRate(uint64_t id) const
{
    auto it = m_streamOf.find(id);
    return it == m_streamOf.end() ? 0.0 : m_streams.at(it->second).rate;
}

void
RateController::ScheduleRecompute()
{
    if (!m_recompute.IsRunning())
    {
        m_recompute = Simulator::ScheduleNow(&RateController::Recompute, this);
    }
}

void
RateController::Recompute()
{
    std::vector<const FlowUsage*> usages;
    std::vector<uint64_t> ids;
    usages.reserve(m_streams.size());
    ids.reserve(m_streams.size());
    for (const auto& [id, s] : m_streams)
    {
        usages.push_back(&s.usage);
        ids.push_back(id);
    }
    std::vector<double> rates = MaxMinAllocator::Allocate(m_capacities, usages);
    NS_LOG_INFO("recomputed " << ids.size() << " stream rates");
    for (std::size_t i = 0; i < ids.size(); ++i)
    {
        Stream& s = m_streams[ids[i]];
        if (s.rate != rates[i])
        {
            s.rate = rates[i];
            for (auto& [pid, cb] : s.participants)
            {
                cb(rates[i]);
            }
        }
    }
    m_ratesUpdated(static_cast<uint32_t>(ids.size()));
}

} // namespace ns3
