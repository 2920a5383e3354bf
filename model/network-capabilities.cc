/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "network-capabilities.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

ExchangePattern
NetworkCapabilities::RichestPattern() const
{
    if (aggregation)
    {
        return ExchangePattern::AGGREGATION;
    }
    return multicast ? ExchangePattern::MULTICAST : ExchangePattern::ALL_TO_ALL;
}

bool
NetworkCapabilities::Allows(ExchangePattern pattern) const
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
    bool m = false;
    bool a = false;
    std::size_t pos = 0;
    bool any = false;
    while (pos <= list.size())
    {
        std::size_t comma = list.find(',', pos);
        std::string item = list.substr(pos, comma == std::string::npos ? std::string::npos
                                                                        : comma - pos);
        pos = comma == std::string::npos ? list.size() + 1 : comma + 1;
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
    uint64_t fit = fpgaMemoryBytes / slotBytes / std::max<uint32_t>(cliques, 1);
    return static_cast<uint32_t>(std::min<uint64_t>(aggregationSlots, fit));
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
    if (fpgaMemoryBytes < slotBytes)
    {
        throw std::invalid_argument("capabilities: FPGA memory (" +
                                    std::to_string(fpgaMemoryBytes) +
                                    " bytes) holds not even one slot of " +
                                    std::to_string(slotBytes) + " bytes");
    }
    if (!(aggregationTimeoutS > 0))
    {
        throw std::invalid_argument("capabilities: aggregation timeout must be greater than zero");
    }
    if (aggregation && !fpgaOnAllDevices && fpgaDevices.empty())
    {
        throw std::invalid_argument("capabilities: aggregation is on but no device has an FPGA");
    }
}

} // namespace ns3
