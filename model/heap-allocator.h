/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_HEAP_ALLOCATOR_H
#define INTELLIGENT_NETWORK_HEAP_ALLOCATOR_H

#include <string>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * The heap allocator that serves this process's malloc, found at run time from the shared
 * object that defines the first `malloc` in the global symbol scope: "jemalloc <version>",
 * "tcmalloc <version>", "mimalloc <version>", or "glibc <version>" (with its GLIBC_TUNABLES,
 * if set), else that object's file name. It covers what the build linked
 * (CMake option INTELLIGENT_NETWORK_ALLOCATOR) and what LD_PRELOAD put in front of it.
 *
 * The allocator changes no result (the simulation never depends on addresses) but sets much
 * of the cost per packet-hop of large runs, so the results database records it with every
 * run (runs.allocator) and the benchmarks print it.
 */
std::string HeapAllocator();

} // namespace ns3

#endif
