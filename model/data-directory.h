/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_DATA_DIRECTORY_H
#define INTELLIGENT_NETWORK_DATA_DIRECTORY_H

#include <string>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * The folder of the shipped topology and schedules (nine-city.topology and the schedules folder):
 * $INTELLIGENT_NETWORK_DATA_DIR if set; else the source tree's data/ the module was built
 * from, if it is still there; else <library>/../share/intelligent-network/data next to the
 * installed library (cmake --install).
 */
std::string IntelligentNetworkDataDir();

} // namespace ns3

#endif
