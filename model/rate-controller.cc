/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rate-controller.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

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
    m_changed = true;
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
    NS_ABORT_MSG_IF(m_notifying, "RateController: streams changed from a rate callback");
    uint64_t id = m_nextId++;
    m_streams[id] = Stream{usage, {{id, setRate}}, -1};
    m_streamOf[id] = id;
    m_changed = true;
    NS_LOG_FUNCTION(this << id << usage.usage.size());
    ScheduleRecompute();
    return id;
}

uint64_t
RateController::RegisterShared(const std::string& shareKey,
                               const FlowUsage& usage,
                               RateCallback setRate)
{
    NS_ABORT_MSG_IF(m_notifying, "RateController: streams changed from a rate callback");
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
    NS_ABORT_MSG_IF(m_notifying, "RateController: streams changed from a rate callback");
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
        m_firstGone = std::min(m_firstGone, s.event);
        m_streams.erase(stream);
        ScheduleRecompute();
    }
}

void
RateController::UpdateUsage(uint64_t id, const FlowUsage& usage)
{
    NS_ABORT_MSG_IF(m_notifying, "RateController: streams changed from a rate callback");
    auto it = m_streamOf.find(id);
    if (it == m_streamOf.end())
    {
        return;
    }
    m_streams[it->second].usage = usage;
    m_changed = true;
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
    std::vector<const FlowUsage*>& usages = m_scratch.usages;
    std::vector<uint64_t>& ids = m_scratch.ids;
    std::vector<Stream*>& streams = m_scratch.streams;
    usages.clear();
    ids.clear();
    streams.clear();
    std::size_t constrained = 0; // streams that use a resource (the others run at their cap)
    for (auto& [id, s] : m_streams)
    {
        s.index = static_cast<uint32_t>(ids.size());
        usages.push_back(&s.usage);
        ids.push_back(id);
        streams.push_back(&s);
        constrained += s.usage.usage.empty() ? 0 : 1;
    }
    // Only streams gone since the last allocation (none added or changed): its events before
    // the first that froze one of them happen alike, replayed rather than recomputed.
    MaxMinTrace& prefix = m_scratch.prefix;
    prefix.Clear();
    const bool warm = !m_changed && m_firstGone > 0 && !m_trace.eventEnd.empty();
    if (warm)
    {
        // Old position -> new one (both in stream id order; streams in the prefix remain).
        std::vector<uint32_t>& position = m_scratch.position;
        position.assign(m_traceIds.size(), kNoEvent);
        for (std::size_t o = 0, n = 0; o < m_traceIds.size() && n < ids.size(); ++o)
        {
            while (n < ids.size() && ids[n] < m_traceIds[o])
            {
                ++n;
            }
            if (n < ids.size() && ids[n] == m_traceIds[o])
            {
                position[o] = static_cast<uint32_t>(n);
            }
        }
        const std::size_t events = std::min<std::size_t>(m_firstGone, m_trace.eventEnd.size());
        const std::size_t flows = events > 0 ? m_trace.eventEnd[events - 1] : 0;
        for (std::size_t k = 0; k < flows; ++k)
        {
            uint32_t at = position[m_trace.order[k]];
            NS_ABORT_MSG_IF(at == kNoEvent,
                            "RateController: a stream in the replayed events ended");
            prefix.order.push_back(at);
        }
        prefix.rates.assign(m_trace.rates.begin(), m_trace.rates.begin() + flows);
        prefix.eventEnd.assign(m_trace.eventEnd.begin(), m_trace.eventEnd.begin() + events);
        prefix.level.assign(m_trace.level.begin(), m_trace.level.begin() + events);
    }
    std::vector<double>& rates = m_scratch.rates;
    if (warm && prefix.order.size() == constrained)
    {
        // The prefix freezes every stream that remains: the filling ends there, at the rates
        // it gave (what the allocator would return, without rebuilding the streams' usage).
        rates.resize(usages.size());
        for (std::size_t i = 0; i < usages.size(); ++i)
        {
            rates[i] = usages[i]->maxRate; // streams that use no resource
        }
        for (std::size_t k = 0; k < prefix.order.size(); ++k)
        {
            rates[prefix.order[k]] = prefix.rates[k];
        }
        std::swap(m_trace, prefix); // the old trace's memory serves the next prefix
        NS_LOG_INFO("kept " << ids.size() << " stream rates (only streams that ended changed)");
    }
    else
    {
        MaxMinAllocator::Allocate(m_capacities, usages, warm ? &prefix : nullptr, &m_trace, rates);
        NS_LOG_INFO("recomputed " << ids.size() << " stream rates, " << prefix.order.size()
                                  << " of them replayed");
    }
    std::swap(m_traceIds, ids); // the old ids' memory serves the next recomputation
    m_changed = false;
    m_firstGone = kNoEvent;
    for (Stream* s : streams)
    {
        s->event = kNoEvent;
    }
    for (std::size_t e = 0, k = 0; e < m_trace.eventEnd.size(); ++e)
    {
        for (; k < m_trace.eventEnd[e]; ++k)
        {
            streams[m_trace.order[k]]->event = static_cast<uint32_t>(e);
        }
    }
    m_notifying = true;
    for (std::size_t i = 0; i < streams.size(); ++i)
    {
        Stream& s = *streams[i];
        if (s.rate != rates[i])
        {
            s.rate = rates[i];
            for (auto& [pid, cb] : s.participants)
            {
                cb(rates[i]);
            }
        }
    }
    m_notifying = false;
    m_ratesUpdated(static_cast<uint32_t>(streams.size()));
}

} // namespace ns3
