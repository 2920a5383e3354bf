/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_HUGE_PAGE_HEAP_H
#define INTELLIGENT_NETWORK_HUGE_PAGE_HEAP_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Backs the process's malloc heap with transparent huge pages (2 MiB), as glibc's
 * `GLIBC_TUNABLES=glibc.malloc.hugetlb=1` does, for programs that cannot set that tunable
 * before they start (it is read at process start). Option `--hugePages` of every simulating
 * program (ExperimentOptions).
 *
 * Why: a packet-level run touches, per packet-hop, the state of the link, devices, queues and
 * node it crosses. On a 64-city network that state is spread over tens of MiB of heap, and with
 * 4 KiB pages most hops miss the TLB (a costly page walk, more so in a virtual machine); with
 * 2 MiB pages the whole heap is a few dozen TLB entries. The simulation is the same: only
 * where the allocator's memory comes from changes (doc/benchmarks.rst measures the effect).
 *
 * How (Linux with glibc; elsewhere nothing is done and the state says why):
 * - the main heap's top is extended once by a reservation (a quarter of physical memory, at
 *   most 1 GiB, at least 64 MiB; halved while the system refuses it, as strict overcommit or
 *   RLIMIT_DATA may) that is address space only: the kernel backs it as it is
 *   first touched, a 2 MiB page at a time, so the resident size grows as before, rounded up
 *   to 2 MiB;
 * - the heap (the part in use and the reservation) is given madvise(MADV_HUGEPAGE): with the
 *   kernel's transparent_hugepage set to `madvise` (Debian's default) or `always` its faults
 *   are served with huge pages; with `never` nothing changes;
 * - malloc is set never to trim the heap (the reservation would go) and to serve requests up
 *   to 32 MiB from it (glibc's dynamic mmap threshold stops adapting once any malloc parameter
 *   is set; 32 MiB is its ceiling), so large buffers are huge-paged too and are not mapped and
 *   unmapped each time. Freed memory is kept for reuse, not returned to the system.
 * Heap growth past the reservation has ordinary pages. Threads other than the main one
 * allocate from their own arenas, which are not advised.
 *
 * When jemalloc serves malloc (the module's programs link it: CMake option
 * INTELLIGENT_NETWORK_ALLOCATOR) there is no glibc heap to advise: jemalloc maps its memory
 * itself and, with its option thp:always (helper/jemalloc-conf.cc sets it in those programs;
 * MALLOC_CONF=thp:always elsewhere), advises all of it as huge pages. On: the state says so
 * ("advised by jemalloc (thp:always)"), or why not (another thp setting, the kernel). Off:
 * transparent huge pages are turned off for the whole process (prctl PR_SET_THP_DISABLE, which
 * the next SetHugePageHeap(true) clears).
 */
struct HugePageHeap
{
    bool advised = false;       ///< The heap has MADV_HUGEPAGE.
    uint64_t advisedBytes = 0;  ///< Address range advised (heap in use + reservation).
    std::string kernelMode;     ///< /sys/kernel/mm/transparent_hugepage/enabled: always,
                                ///< madvise, never, or "unavailable".
    std::string reason;         ///< Why not advised (empty when advised).
    /// Empty: glibc's heap, advised here. "jemalloc (thp:always)": jemalloc serves malloc
    /// from its own mappings and advises them itself (see SetHugePageHeap).
    std::string by;

    /// One line for the results database and logs, e.g. "advised 1088 MiB (kernel: madvise)".
    std::string Describe() const;
};

/**
 * Advise the heap (\p enable) or take the advice back (MADV_NOHUGEPAGE on the range advised
 * before; the reservation and malloc settings stay). The reservation is made once per process;
 * later calls only switch the advice. Never throws; the returned state says what is in effect.
 */
const HugePageHeap& SetHugePageHeap(bool enable);

/// The state in effect (nothing advised before the first SetHugePageHeap(true)).
const HugePageHeap& GetHugePageHeap();

} // namespace ns3

#endif
