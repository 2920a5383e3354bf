/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_REPAIR_COPIES_H
#define INTELLIGENT_NETWORK_REPAIR_COPIES_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Copies a repair (a resend, a sum request, a partial-sum resend) goes out in over a
 * path whose measured loss is \p lost of \p total packets: the fewest copies n such that all n
 * are lost with probability p^n <= \p target, where p = lost / total capped at 0.9; at least 1,
 * at most \p most. 1 when nothing was lost or nothing measured. Shared by the island transports
 * and the FPGA aggregator so that both ends of a repair size it the same way. Pure C++.
 */
uint32_t RepairCopiesFor(uint32_t lost, uint32_t total, double target, uint32_t most);

} // namespace ns3

#endif // INTELLIGENT_NETWORK_REPAIR_COPIES_H
