/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "exchange-pattern.h"

#include <stdexcept>

namespace ns3
{

const std::vector<ExchangePattern>&
AllPatterns()
{
    static const std::vector<ExchangePattern> all{ExchangePattern::ALL_TO_ALL,
                                                  ExchangePattern::RING,
                                                  ExchangePattern::TREE,
                                                  ExchangePattern::PARAMETER_SERVER,
                                                  ExchangePattern::MULTICAST,
                                                  ExchangePattern::AGGREGATION};
    return all;
}

std::string
PatternName(ExchangePattern pattern)
{
    switch (pattern)
    {
    case ExchangePattern::ALL_TO_ALL:
        return "all-to-all";
    case ExchangePattern::RING:
        return "ring";
    case ExchangePattern::TREE:
        return "tree";
    case ExchangePattern::PARAMETER_SERVER:
        return "ps";
    case ExchangePattern::MULTICAST:
        return "multicast";
    case ExchangePattern::AGGREGATION:
        return "aggregation";
    }
    return "?";
}

ExchangePattern
ParsePattern(const std::string& name)
{
    if (name == "unicast")
    {
        return ExchangePattern::ALL_TO_ALL;
    }
    if (name == "parameter-server")
    {
        return ExchangePattern::PARAMETER_SERVER;
    }
    for (ExchangePattern p : AllPatterns())
    {
        if (PatternName(p) == name)
        {
            return p;
        }
    }
    throw std::invalid_argument("unknown exchange pattern '" + name +
                                "' (expected all-to-all, ring, tree, ps, multicast or "
                                "aggregation; unicast means all-to-all)");
}

bool
IsUnicastPattern(ExchangePattern pattern)
{
    return pattern != ExchangePattern::MULTICAST && pattern != ExchangePattern::AGGREGATION;
}

} // namespace ns3
