/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "batch-sampler.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace ns3
{

BatchSampler::BatchSampler(std::size_t rows, std::size_t batch, uint64_t seed)
    : m_rows(rows)
    , m_batch(batch == 0 || batch >= rows ? rows : batch)
    , m_rng(seed)
    , m_order(rows)
    , m_cursor(rows)
{
    if (rows == 0)
    {
        throw std::invalid_argument("batch sampler: the shard has no rows");
    }
    std::iota(m_order.begin(), m_order.end(), std::size_t{0});
    if (FullBatch())
    {
        m_out = m_order;
    }
}

uint64_t
BatchSampler::DeriveSeed(uint64_t seed, uint64_t stream)
{
    // splitmix64 of the seed advanced by the stream index.
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (stream + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

const std::vector<std::size_t>&
BatchSampler::Next()
{
    if (FullBatch())
    {
        return m_out;
    }
    if (m_cursor + m_batch > m_rows)
    {
        std::shuffle(m_order.begin(), m_order.end(), m_rng);
        m_cursor = 0;
    }
    m_out.assign(m_order.begin() + m_cursor, m_order.begin() + m_cursor + m_batch);
    m_cursor += m_batch;
    return m_out;
}

std::size_t
BatchSampler::BatchSize() const
{
    return m_batch;
}

bool
BatchSampler::FullBatch() const
{
    return m_batch == m_rows;
}

} // namespace ns3
