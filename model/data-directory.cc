/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "data-directory.h"

#include <cstdlib>
#include <dlfcn.h>
#include <sys/stat.h>

namespace ns3
{

namespace
{

bool
HasTopology(const std::string& dir)
{
    struct stat st;
    return stat((dir + "/nine-city.topology").c_str(), &st) == 0;
}

} // namespace

std::string
IntelligentNetworkDataDir()
{
    const char* env = std::getenv("INTELLIGENT_NETWORK_DATA_DIR");
    if (env != nullptr && *env != '\0')
    {
        return env;
    }
    const std::string built = INTELLIGENT_NETWORK_DATA_DIR;
    if (HasTopology(built))
    {
        return built;
    }
    Dl_info info;
    if (dladdr(reinterpret_cast<void*>(&IntelligentNetworkDataDir), &info) != 0 &&
        info.dli_fname != nullptr)
    {
        std::string lib = info.dli_fname;
        std::string dir =
            lib.substr(0, lib.find_last_of('/') + 1) + "../share/intelligent-network/data";
        if (HasTopology(dir))
        {
            return dir;
        }
    }
    return built;
}

} // namespace ns3
