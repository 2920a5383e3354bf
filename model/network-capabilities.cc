/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "network-capabilities.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

ExchangeMode
NetworkCapabilities::Mode() const
{
    if (aggregation)
    {
        return ExchangeMode::AGGREGATION;
    }
    return multicast ? ExchangeMode::MULTICAST : ExchangeMode::UNICAST;
}

NetworkCapabilities
NetworkCapabilities::ForMode(ExchangeMode mode)
{
    NetworkCapabilities c;
    c.multicast = mode != ExchangeMode::UNICAST;
    c.aggregation = mode == ExchangeMode::AGGREGATION;
    return c;
}

ExchangeMode
NetworkCapabilities::ParseMode(const std::string& name)
{
    if (name == "unicast")
    {
        return ExchangeMode::UNICAST;
    }
    if (name == "multicast")
    {
        return ExchangeMode::MULTICAST;
    }
    if (name == "aggregation")
    {
        return ExchangeMode::AGGREGATION;
    }
    throw std::invalid_argument("unknown mode '" + name +
                                "' (expected unicast, multicast or aggregation)");
}

std::string
NetworkCapabilities::ModeName(ExchangeMode mode)
{
    switch (mode)
    {
    case ExchangeMode::UNICAST:
        return "unicast";
    case ExchangeMode::MULTICAST:
        return "multicast";
    case ExchangeMode::AGGREGATION:
        return "aggregation";
    }
    return "?";
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
}

} // namespace ns3
