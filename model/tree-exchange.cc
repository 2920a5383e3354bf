/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tree-exchange.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TreeExchange");
NS_OBJECT_ENSURE_REGISTERED(TreeExchange);

TypeId
TreeExchange::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TreeExchange")
                            .SetParent<Exchange>()
                            .SetGroupName("IntelligentNetwork")
                            .AddConstructor<TreeExchange>();
    return tid;
}

TreeExchange::TreeExchange() = default;
TreeExchange::~TreeExchange() = default;

uint16_t
TreeExchange::Tag(uint32_t chunk, uint32_t tree, uint32_t direction, uint32_t slot) const
{
    uint64_t t = m_trees.size();
    return static_cast<uint16_t>(1 + ((chunk * t + tree) * 2 + direction) * m_width + slot);
}

void
TreeExchange::Start()
{
    const IslandRoundPlan& plan = m_ctx.plan;
    m_started = true;
    if (plan.peers.empty())
    {
        Complete();
        return;
    }
    const auto k = static_cast<uint32_t>(plan.members.size());
    NS_ABORT_MSG_IF(k != plan.peers.size() + 1 || plan.trees.empty(),
                    "island " << m_ctx.island << ": tree exchange of round " << m_ctx.round
                              << " needs the clique's " << plan.peers.size() + 1
                              << " members and at least one tree (has " << k << " members, "
                              << plan.trees.size() << " trees)");
    m_position = MemberIndex(plan.members);
    const auto T = static_cast<uint32_t>(plan.trees.size());
    m_width = 1;
    for (const auto& parents : plan.trees)
    {
        NS_ABORT_MSG_IF(parents.size() != k, "island " << m_ctx.island << ": a tree of round "
                                                       << m_ctx.round << " has " << parents.size()
                                                       << " parents for " << k << " members");
        std::vector<uint32_t> degree(k, 0);
        uint32_t roots = 0;
        for (int32_t p : parents)
        {
            NS_ABORT_MSG_IF(p >= static_cast<int32_t>(k) || p < -1,
                            "island " << m_ctx.island << ": parent " << p << " out of range");
            p < 0 ? ++roots : ++degree[p];
        }
        NS_ABORT_MSG_IF(roots != 1, "island " << m_ctx.island << ": a tree of round " << m_ctx.round
                                              << " has " << roots << " roots");
        m_width = std::max(m_width, *std::max_element(degree.begin(), degree.end()));
    }
    // Chunks of about chunkBytes; fewer if the tags would not fit 16 bits.
    auto shares = Split(m_ctx.modelBytes, 0, m_ctx.valueCount, T, m_ctx.segmentSize);
    uint64_t largest = 0;
    for (const auto& s : shares)
    {
        largest = std::max(largest, s.bytes);
    }
    uint64_t chunks =
        plan.chunkBytes > 0 ? static_cast<uint64_t>(std::ceil(largest / plan.chunkBytes)) : 1;
    uint64_t tagRoom = (std::numeric_limits<uint16_t>::max() - 1) / (2ULL * T * m_width);
    m_maxChunks = static_cast<uint32_t>(std::clamp<uint64_t>(chunks, 1, tagRoom));
    m_trees.assign(T, Tree());
    m_chunkTotal = 0;
    for (uint32_t t = 0; t < T; ++t)
    {
        Tree& tree = m_trees[t];
        tree.parent = plan.trees[t][m_position];
        for (uint32_t i = 0; i < k; ++i)
        {
            if (plan.trees[t][i] == static_cast<int32_t>(m_position))
            {
                tree.children.push_back(i);
            }
        }
        // Every share in chunks of (about) the same size as the largest share's.
        uint64_t n = std::max<uint64_t>(1, (shares[t].bytes * m_maxChunks + largest - 1) /
                                               std::max<uint64_t>(largest, 1));
        tree.chunks = Split(shares[t].bytes, shares[t].valueStart, shares[t].valueCount,
                            static_cast<uint32_t>(n), m_ctx.segmentSize);
        tree.arrived.assign(tree.chunks.size(), 0);
        m_chunkTotal += tree.chunks.size();
    }
    if (m_ctx.values)
    {
        m_sum = *m_ctx.values;
    }
    m_sum.resize(m_ctx.valueCount, 0.0);
    // Leaves start every chunk at once (queued one after the other towards the parent).
    for (uint32_t t = 0; t < T; ++t)
    {
        if (m_trees[t].children.empty())
        {
            for (uint32_t c = 0; c < m_trees[t].chunks.size(); ++c)
            {
                Reduced(t, c);
            }
        }
    }
    std::vector<InMessage> early = std::move(m_early);
    for (const auto& m : early)
    {
        Receive(m);
    }
}

void
TreeExchange::Reduced(uint32_t t, uint32_t c)
{
    const Tree& tree = m_trees[t];
    const Piece& chunk = tree.chunks[c];
    if (tree.parent < 0)
    {
        Final(t, c);
        return;
    }
    Enqueue(m_ctx.plan.members[tree.parent], 2 * t, Tag(c, t, 0, 0), chunk.bytes,
            Snapshot(m_sum, chunk.valueStart, chunk.valueCount));
}

void
TreeExchange::Final(uint32_t t, uint32_t c)
{
    const Tree& tree = m_trees[t];
    const Piece& chunk = tree.chunks[c];
    for (uint32_t slot = 0; slot < tree.children.size(); ++slot)
    {
        Enqueue(m_ctx.plan.members[tree.children[slot]], 2 * t + 1, Tag(c, t, 1, slot), chunk.bytes,
                Snapshot(m_sum, chunk.valueStart, chunk.valueCount));
    }
    if (++m_finals == m_chunkTotal)
    {
        Complete();
    }
}

void
TreeExchange::Receive(const InMessage& message)
{
    if (message.type != IslandHeader::DATA || message.tag == 0)
    {
        return;
    }
    if (!m_started)
    {
        m_early.push_back(message);
        return;
    }
    if (m_trees.empty() || !m_seen.insert({message.origin, message.tag}).second)
    {
        return;
    }
    uint32_t code = (message.tag - 1u) / m_width;
    uint32_t direction = code % 2;
    uint32_t t = (code / 2) % m_trees.size();
    uint32_t c = static_cast<uint32_t>((code / 2) / m_trees.size());
    Tree& tree = m_trees[t];
    if (c >= tree.chunks.size())
    {
        return;
    }
    const auto& members = m_ctx.plan.members;
    const Piece& chunk = tree.chunks[c];
    const std::vector<double>& in = message.values;
    if (direction == 0)
    {
        // A child's partial sum: add it; forward when every child's is in.
        bool child = std::any_of(tree.children.begin(), tree.children.end(),
                                 [&](uint32_t i) { return members[i] == message.origin; });
        if (!child)
        {
            return;
        }
        for (uint64_t j = 0; j < chunk.valueCount; ++j)
        {
            m_sum[chunk.valueStart + j] += j < in.size() ? in[j] : 0.0;
        }
        if (++tree.arrived[c] == tree.children.size())
        {
            Reduced(t, c);
        }
        return;
    }
    // The final sum from the parent: keep it and pass it on.
    if (tree.parent < 0 || members[tree.parent] != message.origin)
    {
        return;
    }
    for (uint64_t j = 0; j < chunk.valueCount; ++j)
    {
        m_sum[chunk.valueStart + j] = j < in.size() ? in[j] : 0.0;
    }
    Final(t, c);
}

ExchangeResult
TreeExchange::TakeResult()
{
    ExchangeResult r;
    r.isSum = true;
    r.sum = std::move(m_sum);
    r.members = static_cast<uint32_t>(m_ctx.plan.peers.size() + 1);
    return r;
}

} // namespace ns3
