/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_PARTITIONS_GTEST_UTIL_H
#define INTELLIGENT_NETWORK_PARTITIONS_GTEST_UTIL_H

// Brute-force enumeration of schedules for the GoogleTests of the optimizer and its objectives
// (an independent check of the search: it shares no code with ScheduleOptimizer).

#include "ns3/consensus-metric.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{
namespace testutil
{

/// Every set partition of n islands, as cliques of island indices (singletons included).
inline std::vector<IndexRound>
AllPartitions(uint32_t n)
{
    std::vector<IndexRound> out;
    std::vector<uint32_t> label(n, 0);
    std::function<void(uint32_t, uint32_t)> rec = [&](uint32_t i, uint32_t used) {
        if (i == n)
        {
            IndexRound r(used);
            for (uint32_t k = 0; k < n; ++k)
            {
                r[label[k]].push_back(k);
            }
            out.push_back(r);
            return;
        }
        for (uint32_t l = 0; l <= used && l < n; ++l)
        {
            label[i] = l;
            rec(i + 1, std::max(used, l + 1));
        }
    };
    rec(0, 0);
    return out;
}

} // namespace testutil
} // namespace ns3

#endif
