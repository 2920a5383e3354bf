/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TREE_EXCHANGE_H
#define INTELLIGENT_NETWORK_TREE_EXCHANGE_H

#include "exchange.h"

#include <set>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief TREE: tree all-reduce over unicast (e.g. NCCL's double binary tree), reduction up,
 * broadcast down, pipelined in chunks.
 *
 * IslandRoundPlan::trees (CliqueExchange::trees) holds, per tree, the parent of every member
 * (an index into IslandRoundPlan::members, -1 for the root). Tree t carries the t-th of
 * trees.size() even shares of the model (bytes and values, Exchange::Split), cut into chunks of
 * about IslandRoundPlan::chunkBytes (one chunk if 0). Per tree and chunk: a member adds the
 * partial sums of all its children to its own values and sends the result to its parent as
 * soon as the last child's chunk arrived (leaves send every chunk at once, one after the
 * other); the root then holds the chunk's sum and sends it to its children, and every member
 * forwards a final chunk to its children as soon as it arrives. Each tree direction towards
 * one neighbour is its own send queue (Exchange::Enqueue), so the reduction of one tree and
 * the broadcast of the other share a link side by side, and a tree's chunks follow each other.
 *
 * Tags: 1 + ((c T + t) 2 + direction) W + slot, for chunk c, tree t of T, direction 0 up and 1
 * down, slot the child's rank among the parent's W = most children of any member (so every
 * message of an island has its own tag); when that exceeds 16 bits the chunks grow. The
 * result is the sum over all members, bit-identical at every member (the root's sum, copied).
 */
class TreeExchange : public Exchange
{
  public:
    static TypeId GetTypeId();
    TreeExchange();
    ~TreeExchange() override;

    void Start() override;
    void Receive(const InMessage& message) override;
    ExchangeResult TakeResult() override;

  private:
    struct Tree
    {
        int32_t parent = -1;            ///< Member index of this island's parent (-1: root).
        std::vector<uint32_t> children; ///< Member indices of its children.
        std::vector<Piece> chunks;      ///< The tree's share of the model, chunk by chunk.
        std::vector<uint32_t> arrived;  ///< Per chunk: children whose partial sum arrived.
    };

    uint16_t Tag(uint32_t chunk, uint32_t tree, uint32_t direction, uint32_t slot) const;
    /// Chunk \p c of tree \p t has every child's partial sum (and the island started).
    void Reduced(uint32_t t, uint32_t c);
    /// Chunk \p c of tree \p t holds its final sum: send it down and count it.
    void Final(uint32_t t, uint32_t c);

    bool m_started = false;
    uint32_t m_position = 0;
    uint32_t m_width = 1;     ///< W: the most children of any member in any tree.
    uint32_t m_maxChunks = 1; ///< Chunks of the largest tree share.
    std::vector<Tree> m_trees;
    std::vector<double> m_sum; ///< Own values, then partial and final sums.
    uint64_t m_finals = 0;     ///< Chunks (over all trees) holding their final sum.
    uint64_t m_chunkTotal = 0;
    std::set<std::tuple<uint32_t, uint16_t>> m_seen; ///< (origin, tag) received
    std::vector<InMessage> m_early; ///< Messages before Start (none expected; kept safe).
};

} // namespace ns3

#endif
