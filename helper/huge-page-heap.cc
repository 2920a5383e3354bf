/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "huge-page-heap.h"

#include "ns3/heap-allocator.h"
#include "ns3/log.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#if defined(__linux__) && defined(__GLIBC__)
#include <dlfcn.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>
#define IN_HUGE_PAGE_HEAP 1
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HugePageHeap");

namespace
{

struct Process
{
    HugePageHeap state;
    bool tried = false;    ///< The reservation was attempted (once per process).
    bool reserved = false; ///< ... and made.
    std::string whyNot;    ///< Why it was not made.
    uintptr_t lo = 0;      ///< Range advised last.
    uintptr_t hi = 0;
    uintptr_t inUse = 0;   ///< The heap's end before the reservation.
    bool collapsed = false; ///< The part in use then was collapsed.
};

Process&
TheProcess()
{
    static Process p;
    return p;
}

/// The selected mode in /sys/kernel/mm/transparent_hugepage/enabled ("always [madvise] never").
std::string
KernelMode()
{
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    if (!std::getline(f, line))
    {
        return "unavailable";
    }
    auto open = line.find('[');
    auto close = line.find(']');
    if (open == std::string::npos || close == std::string::npos || close < open)
    {
        return "unavailable";
    }
    return line.substr(open + 1, close - open - 1);
}

#ifdef IN_HUGE_PAGE_HEAP

constexpr uint64_t kMiB = 1ULL << 20;
#ifdef MADV_COLLAPSE
constexpr int kMadvCollapse = MADV_COLLAPSE;
#else
constexpr int kMadvCollapse = 25; // Linux 6.1's value; older kernels refuse it (EINVAL)
#endif

/// [lowest start, highest end) of the process's [heap] mappings; {0, 0} without one.
std::pair<uintptr_t, uintptr_t>
HeapRange()
{
    std::ifstream maps("/proc/self/maps");
    std::string line;
    uintptr_t lo = 0;
    uintptr_t hi = 0;
    while (std::getline(maps, line))
    {
        if (line.size() < 6 || line.compare(line.size() - 6, 6, "[heap]") != 0)
        {
            continue;
        }
        auto dash = line.find('-');
        auto space = line.find(' ');
        if (dash == std::string::npos || space == std::string::npos || space < dash)
        {
            continue;
        }
        uintptr_t s = std::strtoull(line.substr(0, dash).c_str(), nullptr, 16);
        uintptr_t e = std::strtoull(line.substr(dash + 1, space - dash - 1).c_str(), nullptr, 16);
        lo = lo == 0 ? s : std::min(lo, s);
        hi = std::max(hi, e);
    }
    return {lo, hi};
}

/// Extend the main heap's top by the reservation and keep it (see the header).
bool
Reserve(std::string* whyNot, uintptr_t* inUse)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    long pageSize = sysconf(_SC_PAGESIZE);
    uint64_t ram = pages > 0 && pageSize > 0 ? static_cast<uint64_t>(pages) * pageSize : 0;
    uint64_t want = std::clamp<uint64_t>(ram / 4, 64 * kMiB, 1024 * kMiB) & ~(2 * kMiB - 1);
    // Whether the system lets the heap grow that far (strict overcommit or RLIMIT_DATA may
    // not): try it with sbrk, halving down to 64 MiB, and give it back before malloc runs
    // again.
    void* before = sbrk(0);
    *inUse = reinterpret_cast<uintptr_t>(before);
    // (With room for the block that makes malloc extend the heap, below, and its alignment.)
    const uint64_t slack = 32 * kMiB;
    while (sbrk(static_cast<intptr_t>(want + slack)) == reinterpret_cast<void*>(-1))
    {
        if (want <= 64 * kMiB)
        {
            *whyNot = "the heap cannot grow by " + std::to_string(want / kMiB) + " MiB (" +
                      std::strerror(errno) + ")";
            return false;
        }
        want /= 2;
    }
    sbrk(-static_cast<intptr_t>(want + slack));
    if (mallopt(M_MMAP_THRESHOLD, 32 * static_cast<int>(kMiB)) != 1 ||
        mallopt(M_TRIM_THRESHOLD, INT_MAX) != 1 ||
        mallopt(M_TOP_PAD, static_cast<int>(want)) != 1)
    {
        *whyNot = "malloc refused its parameters";
        return false;
    }
    // Allocate until malloc extends the heap (it then adds the top pad), then free: the freed
    // blocks join the top, which is never trimmed now.
    void* blocks[8] = {};
    int n = 0;
    while (n < 8 && sbrk(0) == before)
    {
        blocks[n] = std::malloc(16 * kMiB);
        if (!blocks[n])
        {
            break;
        }
        ++n;
    }
    bool moved = sbrk(0) != before;
    for (int i = 0; i < n; ++i)
    {
        std::free(blocks[i]);
    }
    mallopt(M_TOP_PAD, 128 * 1024); // glibc's default: later growth in small steps
    if (!moved)
    {
        *whyNot = "malloc did not extend the heap";
        return false;
    }
    return true;
}

/// jemalloc serves malloc: it advises its own mappings when its option thp is "always"; the
/// process-wide switch is prctl(PR_SET_THP_DISABLE).
void
SetJemallocHugePages(bool enable, HugePageHeap& st)
{
    st.advised = false;
    st.advisedBytes = 0;
    st.by.clear();
    if (prctl(PR_SET_THP_DISABLE, enable ? 0 : 1, 0, 0, 0) != 0)
    {
        st.reason = std::string("prctl(PR_SET_THP_DISABLE): ") + std::strerror(errno);
        return;
    }
    if (!enable)
    {
        st.reason = "--hugePages=false (transparent huge pages off for the process)";
        return;
    }
    if (st.kernelMode == "unavailable")
    {
        st.reason = "the kernel has no transparent huge pages";
        return;
    }
    if (st.kernelMode == "never")
    {
        st.reason = "the system turned transparent huge pages off";
        return;
    }
    using Mallctl = int (*)(const char*, void*, size_t*, void*, size_t);
    auto mallctl = reinterpret_cast<Mallctl>(dlsym(RTLD_DEFAULT, "mallctl"));
    const char* thp = nullptr;
    size_t size = sizeof thp;
    if (!mallctl || mallctl("opt.thp", &thp, &size, nullptr, 0) != 0 || !thp)
    {
        st.reason = "jemalloc serves malloc and does not report its option thp";
        return;
    }
    if (std::string(thp) != "always")
    {
        st.reason = std::string("jemalloc serves malloc with thp:") + thp +
                    " (start the program with MALLOC_CONF=thp:always)";
        return;
    }
    st.advised = true;
    st.by = "jemalloc (thp:always)";
    st.reason.clear();
}

#endif

} // namespace

std::string
HugePageHeap::Describe() const
{
    std::ostringstream s;
    if (advised && !by.empty())
    {
        s << "advised by " << by;
    }
    else if (advised)
    {
        s << "advised " << (advisedBytes >> 20) << " MiB";
    }
    else
    {
        s << "not advised: " << reason;
    }
    s << " (kernel: " << kernelMode << ")";
    return s.str();
}

const HugePageHeap&
GetHugePageHeap()
{
    return TheProcess().state;
}

const HugePageHeap&
SetHugePageHeap(bool enable)
{
    Process& p = TheProcess();
    HugePageHeap& st = p.state;
    st.kernelMode = KernelMode();
#ifndef IN_HUGE_PAGE_HEAP
    st.advised = false;
    st.advisedBytes = 0;
    st.reason = enable ? "only on Linux with glibc" : "--hugePages=false";
    return st;
#else
    const std::string allocator = HeapAllocator();
    if (allocator.rfind("jemalloc", 0) == 0)
    {
        SetJemallocHugePages(enable, st);
        NS_LOG_INFO("huge-page heap: " << st.Describe());
        return st;
    }
    if (allocator.rfind("glibc", 0) != 0)
    {
        // Another allocator (LD_PRELOAD): its memory is not glibc's heap.
        st.advised = false;
        st.advisedBytes = 0;
        st.reason = enable ? allocator + " serves malloc (only glibc's heap and jemalloc are "
                                         "handled)"
                           : "--hugePages=false";
        return st;
    }
    if (!enable)
    {
        if (st.advised)
        {
            madvise(reinterpret_cast<void*>(p.lo), p.hi - p.lo, MADV_NOHUGEPAGE);
        }
        st.advised = false;
        st.advisedBytes = 0;
        st.reason = "--hugePages=false";
        NS_LOG_INFO("huge-page heap: " << st.Describe());
        return st;
    }
    st.advised = false;
    st.advisedBytes = 0;
    if (st.kernelMode == "unavailable")
    {
        st.reason = "the kernel has no transparent huge pages";
        return st;
    }
    if (st.kernelMode == "never")
    {
        st.reason = "the system turned transparent huge pages off";
        return st;
    }
    if (!p.tried)
    {
        p.tried = true;
        p.reserved = Reserve(&p.whyNot, &p.inUse);
    }
    if (!p.reserved)
    {
        st.reason = p.whyNot;
        return st;
    }
    auto [lo, hi] = HeapRange();
    if (lo == 0 || hi <= lo)
    {
        st.reason = "no [heap] mapping in /proc/self/maps";
        return st;
    }
    if (madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE) != 0)
    {
        st.reason = std::string("madvise: ") + std::strerror(errno);
        return st;
    }
    if (!p.collapsed)
    {
        // What was allocated before (ns-3's type registry, the program's first objects) has
        // ordinary pages already: collapse it into huge pages now (Linux >= 6.1; best effort,
        // khugepaged would do it in time).
        p.collapsed = true;
        constexpr uintptr_t huge = 2 * kMiB;
        uintptr_t from = (lo + huge - 1) & ~(huge - 1);
        uintptr_t to = std::min<uintptr_t>((p.inUse + huge - 1) & ~(huge - 1), hi & ~(huge - 1));
        if (to > from)
        {
            madvise(reinterpret_cast<void*>(from), to - from, kMadvCollapse);
        }
    }
    p.lo = lo;
    p.hi = hi;
    st.advised = true;
    st.advisedBytes = hi - lo;
    st.reason.clear();
    NS_LOG_INFO("huge-page heap: " << st.Describe());
    return st;
#endif
}

} // namespace ns3
