/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_BATCH_SAMPLER_H
#define INTELLIGENT_NETWORK_BATCH_SAMPLER_H

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Deterministic minibatches of the rows 0 .. n-1 of a data shard. Pure C++.
 *
 * Epochs without replacement: at the start of every epoch the row indices are shuffled
 * (std::shuffle with an mt19937_64 seeded by \p seed); Next() returns the next \p batch
 * indices of the permutation, reshuffling when fewer than \p batch remain (the rest of the
 * epoch is dropped). A batch of 0, or one not smaller than n, is the full shard: Next()
 * returns 0 .. n-1 in order, every time, and uses no randomness. Two samplers built with the
 * same (n, batch, seed) return the same sequence; the proxy learner of island i and worker i of
 * the colocated trainer use the same sampler seed (DeriveSeed(seed, i)) so that they draw
 * the same minibatches.
 */
class BatchSampler
{
  public:
    /// Throws std::invalid_argument if \p rows is zero.
    BatchSampler(std::size_t rows, std::size_t batch, uint64_t seed);

    /// Seed of stream \p stream of a run seeded \p seed (a splitmix64 step): island (or
    /// colocated worker) i's sampler uses stream i; ProxyTask derives its data streams so.
    static uint64_t DeriveSeed(uint64_t seed, uint64_t stream);

    /// Indices of the next minibatch (valid until the next call).
    const std::vector<std::size_t>& Next();
    /// Rows per minibatch (n for a full-shard sampler).
    std::size_t BatchSize() const;
    /// True if every batch is the full shard.
    bool FullBatch() const;

  private:
    std::size_t m_rows;
    std::size_t m_batch;
    std::mt19937_64 m_rng;
    std::vector<std::size_t> m_order;
    std::size_t m_cursor;
    std::vector<std::size_t> m_out;
};

} // namespace ns3

#endif
