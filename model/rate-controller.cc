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
    m_streams[id] = Stream{usage, setRate, -1};
    NS_LOG_FUNCTION(this << id << usage.usage.size());
    ScheduleRecompute();
    return id;
}

void
RateController::Release(uint64_t id)
{
    NS_LOG_FUNCTION(this << id);
    if (m_streams.erase(id) > 0)
    {
        ScheduleRecompute();
    }
}

std::size_t
RateController::ActiveStreams() const
{
    return m_streams.size();
}

double
RateController::GetRate(uint64_t id) const
{
    auto it = m_streams.find(id);
    return it == m_streams.end() ? 0.0 : it->second.rate;
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
    std::vector<FlowUsage> usages;
    std::vector<uint64_t> ids;
    for (const auto& [id, s] : m_streams)
    {
        usages.push_back(s.usage);
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
            s.setRate(rates[i]);
        }
    }
    m_ratesUpdated(static_cast<uint32_t>(ids.size()));
}

} // namespace ns3
