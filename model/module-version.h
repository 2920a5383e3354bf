/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_MODULE_VERSION_H
#define INTELLIGENT_NETWORK_MODULE_VERSION_H

namespace ns3
{

/**
 * \ingroup intelligent-network
 * The module version, "0.1.0+<git describe>" when built from a git checkout (recorded with
 * every run in the results database). Compiled into model/module-version.cc alone, from a
 * header the build regenerates only when the version changes.
 */
const char* IntelligentNetworkVersion();

} // namespace ns3

#endif
