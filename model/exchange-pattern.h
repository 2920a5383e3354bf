/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_EXCHANGE_PATTERN_H
#define INTELLIGENT_NETWORK_EXCHANGE_PATTERN_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief How the members of one clique exchange (average) their models in one round.
 *
 * Patterns over plain unicast need only a network that forwards packets; MULTICAST needs
 * routers that replicate; AGGREGATION needs in-line FPGAs (and multicast for the results).
 * See NetworkCapabilities::Allows.
 */
enum class ExchangePattern
{
    ALL_TO_ALL,       ///< Every member sends its whole model to every other member (unicast).
    RING,             ///< Pipelined ring all-reduce: reduce-scatter then all-gather (unicast).
    TREE,             ///< Tree all-reduce (double binary tree): reduce up, broadcast down.
    PARAMETER_SERVER, ///< Members push to one member city, which averages and pushes back.
    MULTICAST,        ///< Every member sends once to its group; routers replicate.
    AGGREGATION       ///< In-line FPGAs sum the contributions; the sum is multicast back.
};

/// Every pattern, in enum order.
const std::vector<ExchangePattern>& AllPatterns();
/// "all-to-all" | "ring" | "tree" | "ps" | "multicast" | "aggregation".
std::string PatternName(ExchangePattern pattern);
/// Inverse of PatternName; also accepts "unicast" (= all-to-all) and "parameter-server".
/// Throws std::invalid_argument naming the accepted names otherwise.
ExchangePattern ParsePattern(const std::string& name);
/// True for the patterns that need nothing but unicast forwarding.
bool IsUnicastPattern(ExchangePattern pattern);

} // namespace ns3

#endif
