/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "heap-allocator.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <gnu/libc-version.h>

namespace ns3
{

namespace
{

/// The library's own version query, if it exports one (looked up by name: the program links
/// none of these libraries' headers).
std::string
VersionOf(const std::string& name)
{
    if (name == "jemalloc")
    {
        using Mallctl = int (*)(const char*, void*, size_t*, void*, size_t);
        if (auto mallctl = reinterpret_cast<Mallctl>(dlsym(RTLD_DEFAULT, "mallctl")))
        {
            const char* version = nullptr;
            size_t size = sizeof version;
            if (mallctl("version", &version, &size, nullptr, 0) == 0 && version)
            {
                return version;
            }
        }
    }
    else if (name == "tcmalloc")
    {
        using TcVersion = const char* (*)(int*, int*, const char**);
        if (auto tcVersion = reinterpret_cast<TcVersion>(dlsym(RTLD_DEFAULT, "tc_version")))
        {
            int major = 0;
            int minor = 0;
            const char* patch = nullptr;
            tcVersion(&major, &minor, &patch);
            return std::to_string(major) + "." + std::to_string(minor) + (patch ? patch : "");
        }
    }
    else if (name == "mimalloc")
    {
        using MiVersion = int (*)();
        if (auto miVersion = reinterpret_cast<MiVersion>(dlsym(RTLD_DEFAULT, "mi_version")))
        {
            int v = miVersion();
            return std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." +
                   std::to_string(v % 10);
        }
    }
    return "";
}

} // namespace

std::string
HeapAllocator()
{
    void* entry = dlsym(RTLD_DEFAULT, "malloc");
    Dl_info info{};
    if (!entry || dladdr(entry, &info) == 0 || !info.dli_fname)
    {
        return "unknown";
    }
    std::string file = info.dli_fname;
    std::string base = file.substr(file.find_last_of('/') + 1);
    if (base.rfind("libc.so", 0) == 0 || base.rfind("libc-", 0) == 0)
    {
        std::string name = std::string("glibc ") + gnu_get_libc_version();
        if (const char* tunables = std::getenv("GLIBC_TUNABLES"); tunables && *tunables)
        {
            name += std::string(" GLIBC_TUNABLES=") + tunables;
        }
        return name;
    }
    for (const char* known : {"jemalloc", "tcmalloc", "mimalloc"})
    {
        if (base.find(known) != std::string::npos)
        {
            std::string version = VersionOf(known);
            return version.empty() ? std::string(known) : std::string(known) + " " + version;
        }
    }
    return base;
}

} // namespace ns3
