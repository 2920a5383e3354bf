/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// jemalloc's start-up options for the module's programs: compiled into each program that
// links jemalloc (CMakeLists.txt, in_link_allocator; not part of the library). jemalloc reads
// this symbol once, at its first malloc, before main.
//
// thp:always: jemalloc advises the memory it maps as transparent huge pages (2 MiB), which
// is what --hugePages (default on) asks for; --hugePages=false turns transparent huge pages
// off for the process (prctl PR_SET_THP_DISABLE; helper/huge-page-heap.cc) and records so.
// MALLOC_CONF in the environment still overrides it (jemalloc reads that later).

extern "C"
{
    extern const char* malloc_conf;
    const char* malloc_conf = "thp:always";
}
