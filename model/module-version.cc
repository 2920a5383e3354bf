/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "module-version.h"

// CMake generates this header (cmake/module-version.cmake); the waf build defines the macro.
#if __has_include("intelligent-network-version.h")
#include "intelligent-network-version.h"
#endif
#ifndef INTELLIGENT_NETWORK_VERSION
#define INTELLIGENT_NETWORK_VERSION "unknown"
#endif

namespace ns3
{

const char*
IntelligentNetworkVersion()
{
    return INTELLIGENT_NETWORK_VERSION;
}

} // namespace ns3
