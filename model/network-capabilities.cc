/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "network-capabilities.h"
#include "text-util.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

std::string
AggregationDesignName(AggregationDesign design)
{
    return design == AggregationDesign::TREE ? "tree" : "single";
}

AggregationDesign
ParseAggregationDesign(const std::string& name)
{
    if (name == "tree")
    {
        return AggregationDesign::TREE;
    }
    if (name == "single")
    {
        return AggregationDesign::SINGLE;
    }
    throw std::invalid_argument("aggregation design '" + name +
                                "' is unknown (expected tree or single)");
}

ExchangePattern
NetworkCapabilities::RichestPattern() const
{
    if (aggregation)
    {
        return ExchangePattern::AGGREGATION;
    }
    return multicast ? ExchangePattern::MULTICAST : ExchangePattern::ALL_TO_ALL;
}

ExchangePattern
NetworkCapabilities::DefaultPattern() const
{
    if (Allows(RichestPattern()))
    {
        return RichestPattern();
    }
    std::vector<ExchangePattern> allowed = AllowedPatterns();
    if (allowed.empty())
    {
        throw std::invalid_argument("no pattern is allowed by the capability set " + SetName());
    }
    return allowed.front();
}

std::string
NetworkCapabilities::WhyNotAllowed(ExchangePattern pattern) const
{
    if (Allows(pattern))
    {
        return "";
    }
    if (!SetAllows(pattern))
    {
        return "pattern " + PatternName(pattern) + " is not allowed by the capability set " +
               SetName();
    }
    std::string list;
    for (ExchangePattern p : patterns)
    {
        list += (list.empty() ? "" : ",") + PatternName(p);
    }
    return "pattern " + PatternName(pattern) + " is excluded by the restriction to the patterns " +
           list + " (the capability set " + SetName() + " allows it)";
}

bool
NetworkCapabilities::Allows(ExchangePattern pattern) const
{
    if (!patterns.empty() &&
        std::find(patterns.begin(), patterns.end(), pattern) == patterns.end())
    {
        return false;
    }
    return SetAllows(pattern);
}

bool
NetworkCapabilities::SetAllows(ExchangePattern pattern) const
{
    switch (pattern)
    {
    case ExchangePattern::MULTICAST:
        return multicast;
    case ExchangePattern::AGGREGATION:
        return aggregation && multicast;
    default:
        return true;
    }
}

std::vector<ExchangePattern>
NetworkCapabilities::AllowedPatterns() const
{
    std::vector<ExchangePattern> out;
    for (ExchangePattern p : AllPatterns())
    {
        if (Allows(p))
        {
            out.push_back(p);
        }
    }
    return out;
}

std::vector<std::vector<ExchangePattern>>
NetworkCapabilities::PatternLevels() const
{
    std::vector<std::vector<ExchangePattern>> levels;
    std::vector<ExchangePattern> level;
    for (int l = 0; l < 3; ++l)
    {
        if ((l == 1 && !multicast) || (l == 2 && !(multicast && aggregation)))
        {
            break;
        }
        for (ExchangePattern p : AllPatterns())
        {
            bool inLevel = l == 0   ? IsUnicastPattern(p)
                           : l == 1 ? p == ExchangePattern::MULTICAST
                                    : p == ExchangePattern::AGGREGATION;
            if (inLevel && Allows(p))
            {
                level.push_back(p);
            }
        }
        if (!level.empty() && (levels.empty() || levels.back() != level))
        {
            levels.push_back(level);
        }
    }
    return levels;
}

void
NetworkCapabilities::SetPatterns(const std::string& list)
{
    std::vector<ExchangePattern> out;
    for (const std::string& item : TextUtil::Split(list, ','))
    {
        if (item.empty())
        {
            continue;
        }
        ExchangePattern p = ParsePattern(item);
        if (!SetAllows(p))
        {
            throw std::invalid_argument("patterns: " + PatternName(p) +
                                        " is not allowed by the capability set " + SetName());
        }
        if (std::find(out.begin(), out.end(), p) == out.end())
        {
            out.push_back(p);
        }
    }
    if (out.empty())
    {
        throw std::invalid_argument("patterns: empty list");
    }
    patterns = out;
}

void
NetworkCapabilities::SetAggregationDesign(const std::string& name)
{
    aggregationDesign = ParseAggregationDesign(name);
}

double
NetworkCapabilities::PoolSlots() const
{
    return slotBytes == 0 ? 0 : std::floor(fpgaMemoryBytes / slotBytes);
}

NetworkCapabilities
NetworkCapabilities::ForPattern(ExchangePattern pattern)
{
    NetworkCapabilities c;
    c.multicast = !IsUnicastPattern(pattern);
    c.aggregation = pattern == ExchangePattern::AGGREGATION;
    return c;
}

void
NetworkCapabilities::SetSwitches(const std::string& list)
{
    if (list.empty())
    {
        throw std::invalid_argument("capabilities: empty list (expected unicast, "
                                    "unicast,multicast or unicast,multicast,aggregation)");
    }
    bool m = false;
    bool a = false;
    bool any = false;
    std::vector<std::string> seen;
    for (const std::string& item : TextUtil::Split(list, ','))
    {
        if (std::find(seen.begin(), seen.end(), item) != seen.end())
        {
            throw std::invalid_argument("capabilities: " + item + " twice");
        }
        seen.push_back(item);
        if (item == "unicast")
        {
            any = true;
        }
        else if (item == "multicast")
        {
            m = any = true;
        }
        else if (item == "aggregation")
        {
            m = a = any = true;
        }
        else
        {
            throw std::invalid_argument("capabilities: unknown item '" + item +
                                        "' (expected a comma-separated list of unicast, "
                                        "multicast, aggregation)");
        }
    }
    if (!any)
    {
        throw std::invalid_argument("capabilities: empty list");
    }
    multicast = m;
    aggregation = a;
}

std::string
NetworkCapabilities::SetName() const
{
    if (aggregation)
    {
        return "unicast,multicast,aggregation";
    }
    return multicast ? "unicast,multicast" : "unicast";
}

bool
NetworkCapabilities::HasFpga(const std::string& device) const
{
    if (fpgaOnAllDevices && fpgaDevices.empty())
    {
        return true;
    }
    return std::find(fpgaDevices.begin(), fpgaDevices.end(), device) != fpgaDevices.end();
}

uint32_t
NetworkCapabilities::SlotsPerClique(uint32_t cliques) const
{
    double fit = std::floor(PoolSlots() / std::max<uint32_t>(cliques, 1));
    return static_cast<uint32_t>(std::min<double>(aggregationSlots, fit));
}

void
NetworkCapabilities::Validate() const
{
    if (aggregation && !multicast)
    {
        throw std::invalid_argument(
            "capabilities: aggregation needs multicast (results are multicast to the clique)");
    }
    if (!(fpgaThroughputBps > 0) || !std::isfinite(fpgaThroughputBps))
    {
        throw std::invalid_argument("capabilities: FPGA throughput must be greater than zero");
    }
    if (!(fpgaLatencyS >= 0) || !std::isfinite(fpgaLatencyS))
    {
        throw std::invalid_argument("capabilities: FPGA latency must not be negative");
    }
    if (aggregationSlots == 0)
    {
        throw std::invalid_argument("capabilities: aggregation slots must be at least 1");
    }
    if (slotBytes == 0 || slotBytes % 4 != 0)
    {
        throw std::invalid_argument(
            "capabilities: slot size must be a positive multiple of 4 bytes (int32 values)");
    }
    if (!(aggregationTimeoutS > 0))
    {
        throw std::invalid_argument("capabilities: aggregation timeout must be greater than zero");
    }
    if (aggregation && !fpgaOnAllDevices && fpgaDevices.empty())
    {
        throw std::invalid_argument("capabilities: aggregation is on but no device has an FPGA");
    }
    if (!(fpgaMemoryBytes >= slotBytes) || !std::isfinite(fpgaMemoryBytes))
    {
        throw std::invalid_argument(
            "capabilities: FPGA memory must hold at least one aggregation slot");
    }
    if (!(treeChunkBytes >= 1) || !std::isfinite(treeChunkBytes))
    {
        throw std::invalid_argument("capabilities: tree chunk must be at least 1 byte");
    }
    for (ExchangePattern p : patterns)
    {
        if (!SetAllows(p))
        {
            throw std::invalid_argument("capabilities: pattern " + PatternName(p) +
                                        " is not allowed by the set " + SetName());
        }
    }
}

} // namespace ns3
