/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "repair-copies.h"

#include <algorithm>

namespace ns3
{

uint32_t
RepairCopiesFor(uint32_t lost, uint32_t total, double target, uint32_t most)
{
    if (lost == 0 || total == 0)
    {
        return 1;
    }
    const double p = std::min(0.9, static_cast<double>(lost) / static_cast<double>(total));
    uint32_t copies = 1;
    for (double q = p; q > target && copies < most; q *= p)
    {
        ++copies;
    }
    return copies;
}

} // namespace ns3
