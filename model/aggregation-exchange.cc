/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-exchange.h"

#include "fixed-point.h"
#include "udp-transport.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AggregationExchange");
NS_OBJECT_ENSURE_REGISTERED(AggregationExchange);

TypeId
AggregationExchange::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AggregationExchange")
                            .SetParent<Exchange>()
                            .SetGroupName("IntelligentNetwork")
                            .AddConstructor<AggregationExchange>();
    return tid;
}

AggregationExchange::AggregationExchange() = default;

AggregationExchange::~AggregationExchange()
{
    m_watch.Cancel();
}

bool
AggregationExchange::FellBack() const
{
    return m_fallback;
}

void
AggregationExchange::Start()
{
    m_started = true;
    const IslandRoundPlan& plan = m_ctx.plan;
    if (plan.peers.empty())
    {
        Complete();
        return;
    }
    NS_ABORT_MSG_IF(!m_ctx.group || !m_ctx.group->SupportsGroups(),
                    "island " << m_ctx.island << ": the transport cannot aggregate");
    if (m_peerFellBack || (m_ctx.aggregatorDead && m_ctx.aggregatorDead(plan.aggregator)))
    {
        StartFallback();
        return;
    }
    OutMessage m;
    m.round = m_ctx.round;
    m.tag = 0;
    m.type = IslandHeader::CONTRIBUTION;
    m.receivers = {plan.aggregator};
    m.dest = plan.aggregatorAddress;
    m.port = m_ctx.aggregationPort;
    m.bytes = m_ctx.modelBytes;
    m.values = Slice(m_ctx.values, 0, m_ctx.valueCount, true);
    m.cliqueKey = plan.cliqueKey;
    // The slot window: never more contributions outstanding than the clique's pools hold.
    // A transport may open fewer (OutMessage::window is an upper bound: a congestion window
    // can follow it).
    m.window = plan.aggregationWindow > 0 ? plan.aggregationWindow : m_ctx.aggregationSlots;
    // The members of an aggregation form one flow of the fluid model.
    m.share = "aggregation/" + std::to_string(m_ctx.round) + "/" + std::to_string(plan.cliqueKey);
    auto usage = m_ctx.usage;
    uint32_t aggregator = plan.aggregator;
    m.usage = [usage, aggregator]() { return usage(aggregator); };
    m_contribution = m_ctx.group->Send(m);
    Track(m_ctx.group, m_contribution);
    m_watch = Simulator::Schedule(m_ctx.aggregatorTimeout, &AggregationExchange::Watch, this);
}

void
AggregationExchange::Watch()
{
    if (m_haveSum || m_fallback)
    {
        return;
    }
    Time idle = Simulator::Now() - m_ctx.group->LastProgress(m_contribution);
    Time timeout = Timeout();
    if (idle < timeout)
    {
        m_watch = Simulator::Schedule(timeout - idle, &AggregationExchange::Watch, this);
        return;
    }
    NS_LOG_INFO("island " << m_ctx.island << ": no sum from FPGA " << m_ctx.plan.aggregator
                          << " for " << idle.As(Time::MS) << " in round " << m_ctx.round
                          << ": falling back to multicast");
    if (m_ctx.markAggregatorDead)
    {
        m_ctx.markAggregatorDead(m_ctx.plan.aggregator);
    }
    StartFallback();
}

Time
AggregationExchange::Timeout() const
{
    // A far member on a lossy path may go without a new sum for a few repair round trips
    // (a sum request, its answer, each lost again) while its FPGA answers: the FPGA is
    // declared failed only after AggregatorTimeout and AggregatorTimeoutRepairs of those.
    Time repair = m_ctx.group->RecoveryRoundTrip(m_contribution);
    return std::max(m_ctx.aggregatorTimeout,
                    repair * static_cast<int64_t>(m_ctx.aggregatorTimeoutRepairs));
}

void
AggregationExchange::OnSegment(uint32_t origin, uint16_t, uint8_t flags)
{
    if (!(flags & IslandHeader::FLAG_FALLBACK))
    {
        return;
    }
    // A peer gave up on the FPGA: send it our model too (even after our own round ended).
    if (m_started)
    {
        StartFallback();
    }
    else
    {
        m_peerFellBack = true;
    }
}

void
AggregationExchange::StartFallback()
{
    if (m_fallback)
    {
        return;
    }
    m_fallback = true;
    m_watch.Cancel();
    const IslandRoundPlan& plan = m_ctx.plan;
    if (m_contribution)
    {
        m_ctx.group->Cancel(m_contribution);
    }
    NS_ABORT_MSG_IF(plan.group.IsAny() || plan.groupDevices.empty(),
                    "island " << m_ctx.island << ": no multicast group to fall back on");
    OutMessage m;
    m.round = m_ctx.round;
    m.tag = 0;
    m.type = IslandHeader::DATA;
    m.receivers = plan.peers;
    m.dest = plan.group;
    m.groupDevices = plan.groupDevices;
    m.bytes = m_ctx.modelBytes;
    m.values = Slice(m_ctx.values, 0, m_ctx.valueCount);
    m.flags = IslandHeader::FLAG_FALLBACK;
    auto usage = m_ctx.usage;
    m.usage = [usage]() { return usage(UdpTransport::GROUP_TAG); };
    Track(m_ctx.group, m_ctx.group->Send(m));
    CheckFallbackDone();
}

void
AggregationExchange::Receive(const InMessage& message)
{
    const IslandRoundPlan& plan = m_ctx.plan;
    if (message.type == IslandHeader::RESULT && message.origin == plan.aggregator)
    {
        m_haveSum = true;
        m_sum = message.values;
        m_sum.resize(m_ctx.valueCount, 0.0);
        m_overflows += message.overflows;
        if (!m_fallback && m_started)
        {
            Complete();
        }
        return;
    }
    if (message.type == IslandHeader::DATA && message.tag == 0 &&
        std::find(plan.peers.begin(), plan.peers.end(), message.origin) != plan.peers.end())
    {
        std::vector<double> v = message.values;
        v.resize(std::min<std::size_t>(v.size(), m_ctx.valueCount));
        m_models[message.origin] = std::move(v);
        if (m_started && !m_fallback)
        {
            StartFallback();
        }
        CheckFallbackDone();
    }
}

void
AggregationExchange::CheckFallbackDone()
{
    if (m_fallback && m_models.size() == m_ctx.plan.peers.size())
    {
        Complete();
    }
}

std::vector<double>
AggregationExchange::FallbackSum(uint64_t& overflows) const
{
    // What the FPGA would have computed: the int32 sum of every member's fixed-point values.
    FixedPoint fp(static_cast<int>(m_ctx.fixedPointBits));
    uint32_t n = m_ctx.valueCount;
    std::vector<int32_t> acc(n, 0);
    bool overflow = false;
    auto add = [&](const std::vector<double>& v) {
        for (uint32_t j = 0; j < n && j < v.size(); ++j)
        {
            bool o = false;
            overflow = !FixedPoint::AddChecked(acc[j], fp.Encode(v[j], o)) || o || overflow;
        }
    };
    // Every member adds in the same order, by island id, so that all hold the same int32 sums
    // even where a sum saturates (int32 addition that overflows is not associative).
    std::vector<uint32_t> order = m_ctx.plan.peers;
    order.push_back(m_ctx.island);
    std::sort(order.begin(), order.end());
    for (uint32_t member : order)
    {
        if (member == m_ctx.island)
        {
            if (m_ctx.values)
            {
                add(*m_ctx.values);
            }
            continue;
        }
        auto it = m_models.find(member);
        if (it != m_models.end())
        {
            add(it->second);
        }
    }
    overflows += overflow ? 1 : 0;
    std::vector<double> sum(n);
    for (uint32_t j = 0; j < n; ++j)
    {
        sum[j] = fp.Decode(acc[j]);
    }
    return sum;
}

ExchangeResult
AggregationExchange::TakeResult()
{
    ExchangeResult r;
    r.isSum = true;
    r.fixedPoint = true;
    r.members = static_cast<uint32_t>(m_ctx.plan.peers.size() + 1);
    r.fellBack = m_fallback;
    if (m_fallback)
    {
        r.sum = FallbackSum(m_overflows);
        for (uint32_t peer : m_ctx.plan.peers)
        {
            r.origins.push_back(peer);
            r.models.push_back(m_models[peer]);
        }
    }
    else
    {
        r.sum = std::move(m_sum);
    }
    r.overflows = m_overflows;
    m_sum.clear();
    m_models.clear();
    return r;
}

} // namespace ns3
