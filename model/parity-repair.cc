/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "parity-repair.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

ParityRepair::ParityRepair(uint32_t count, uint32_t block, double confidence)
    : m_count(count),
      m_block(block),
      m_confidence(confidence)
{
    if (count == 0 || block == 0)
    {
        throw std::invalid_argument("parity repair needs segments and a block size >= 1");
    }
    if (!(confidence >= 0 && confidence < 1))
    {
        throw std::invalid_argument("parity repair: confidence " + std::to_string(confidence) +
                                    " outside [0, 1)");
    }
}

uint32_t
ParityRepair::Block() const
{
    return m_block;
}

uint32_t
ParityRepair::Blocks() const
{
    return static_cast<uint32_t>((static_cast<uint64_t>(m_count) + m_block - 1) / m_block);
}

uint32_t
ParityRepair::BlockOf(uint32_t seq) const
{
    return seq / m_block;
}

uint32_t
ParityRepair::BlockStart(uint32_t block) const
{
    return static_cast<uint32_t>(
        std::min<uint64_t>(static_cast<uint64_t>(block) * m_block, m_count));
}

uint32_t
ParityRepair::BlockSize(uint32_t block) const
{
    uint64_t start = static_cast<uint64_t>(block) * m_block;
    if (start >= m_count)
    {
        return 0;
    }
    return static_cast<uint32_t>(std::min<uint64_t>(m_block, m_count - start));
}

bool
ParityRepair::Decodable(uint32_t size, uint32_t received, uint32_t parity)
{
    return static_cast<uint64_t>(received) + parity >= size;
}

double
ParityRepair::Sufficient(uint32_t sent, uint32_t missing, double loss)
{
    if (missing == 0)
    {
        return 1;
    }
    if (sent < missing)
    {
        return 0;
    }
    if (loss <= 0)
    {
        return 1;
    }
    if (loss >= 1)
    {
        return 0;
    }
    // P[X >= missing], X ~ Binomial(sent, 1 - loss), summed in logs (lgamma) for large n.
    double q = 1 - loss;
    double sum = 0;
    for (uint32_t k = missing; k <= sent; ++k)
    {
        double logTerm = std::lgamma(sent + 1.0) - std::lgamma(k + 1.0) -
                         std::lgamma(sent - k + 1.0) + k * std::log(q) +
                         (sent - k) * std::log(loss);
        sum += std::exp(logTerm);
    }
    return std::min(1.0, sum);
}

uint32_t
ParityRepair::Needed(uint32_t missing, double loss, double confidence)
{
    if (missing == 0)
    {
        return 0;
    }
    loss = std::clamp(loss, 0.0, 0.5);
    uint32_t cap = 4 * missing + 16;
    for (uint32_t n = missing; n < cap; ++n)
    {
        if (Sufficient(n, missing, loss) >= confidence)
        {
            return n;
        }
    }
    return cap;
}

double
ParityRepair::Confidence(double confidence, uint32_t failed)
{
    if (failed == 0)
    {
        return confidence;
    }
    confidence = std::clamp(confidence, 0.0, 1.0);
    return 1 - std::pow(1 - confidence, static_cast<double>(failed) + 1);
}

void
ParityRepair::SampleLoss(uint32_t receiver, uint32_t lost, uint32_t described)
{
    auto& [l, d] = m_loss[receiver];
    l += lost;
    d += described;
}

double
ParityRepair::Loss(uint32_t receiver) const
{
    auto it = m_loss.find(receiver);
    if (it == m_loss.end() || it->second.second == 0)
    {
        return 0;
    }
    return std::clamp(static_cast<double>(it->second.first) /
                          static_cast<double>(it->second.second),
                      0.0,
                      0.5);
}

void
ParityRepair::Report(uint32_t receiver, uint32_t block, uint32_t missing, uint32_t held,
                     double echo)
{
    auto& needs = m_needs[block];
    auto it = needs.find(receiver);
    if (it != needs.end() && echo < it->second.echo)
    {
        return; // an older ack overtaken by a newer one
    }
    uint32_t count = missing > held ? missing - held : 0;
    if (count == 0)
    {
        if (it != needs.end())
        {
            needs.erase(it);
            --m_needCount;
        }
        if (needs.empty())
        {
            m_needs.erase(block);
        }
        return;
    }
    m_needCount += it == needs.end() ? 1 : 0;
    Need& need = needs[receiver];
    need.count = count;
    need.echo = echo;
    // Every parity of the block sent up to the packet this report answers has reached the
    // receiver or was lost on the way (one path, in order), none is in flight after it, and
    // the receiver still misses segments: that repair failed, unless already counted.
    auto sent = m_sentAt.find(block);
    if (sent != m_sentAt.end() && InFlight(block, echo) == 0)
    {
        double last = -1e300;
        for (double t : sent->second)
        {
            last = t <= echo ? std::max(last, t) : last;
        }
        if (last > need.judged)
        {
            ++need.failures;
            need.judged = last;
        }
    }
}

uint32_t
ParityRepair::Failures(uint32_t receiver, uint32_t block) const
{
    auto b = m_needs.find(block);
    if (b == m_needs.end())
    {
        return 0;
    }
    auto it = b->second.find(receiver);
    return it == b->second.end() ? 0 : it->second.failures;
}

std::vector<uint32_t>
ParityRepair::Pending() const
{
    std::vector<uint32_t> out;
    for (const auto& [block, needs] : m_needs)
    {
        out.push_back(block);
    }
    return out;
}

uint32_t
ParityRepair::Due(uint32_t block, double lostBefore, uint32_t jointly) const
{
    auto b = m_needs.find(block);
    if (b == m_needs.end())
    {
        return 0;
    }
    uint32_t due = 0;
    for (const auto& [receiver, need] : b->second)
    {
        // The repair may fail with probability (1 - confidence) after need.failures failed
        // ones, shared among the repairs that must all succeed at once.
        double fail = (1 - Confidence(m_confidence, need.failures)) / std::max(1u, jointly);
        uint32_t want = Needed(need.count, Loss(receiver), 1 - fail);
        uint32_t flying = InFlight(block, std::max(need.echo, lostBefore));
        if (want > flying)
        {
            due = std::max(due, want - flying);
        }
    }
    return due;
}

void
ParityRepair::OnTimeout(uint32_t block, double lostBefore)
{
    auto b = m_needs.find(block);
    auto sent = m_sentAt.find(block);
    if (b == m_needs.end() || sent == m_sentAt.end())
    {
        return;
    }
    for (auto& [receiver, need] : b->second)
    {
        // Parity sent after the packet the receiver's last report answers and before
        // lostBefore is overdue: lost, one more failed repair (unless counted already).
        double last = -1e300;
        for (double t : sent->second)
        {
            if (t > need.echo && t > need.judged && t <= lostBefore)
            {
                last = std::max(last, t);
            }
        }
        if (last > -1e300)
        {
            ++need.failures;
            need.judged = last;
        }
    }
}

uint32_t
ParityRepair::Needs() const
{
    return m_needCount;
}

void
ParityRepair::OnSent(uint32_t block, double now)
{
    m_sentAt[block].push_back(now);
    ++m_sent;
}

uint32_t
ParityRepair::InFlight(uint32_t block, double since) const
{
    auto it = m_sentAt.find(block);
    if (it == m_sentAt.end())
    {
        return 0;
    }
    return static_cast<uint32_t>(
        std::count_if(it->second.begin(), it->second.end(), [since](double t) { return t > since; }));
}

uint64_t
ParityRepair::Sent() const
{
    return m_sent;
}

} // namespace ns3
