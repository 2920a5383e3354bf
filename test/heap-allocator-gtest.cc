/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: HeapAllocator() names the allocator the build linked (CMake option
// INTELLIGENT_NETWORK_ALLOCATOR, passed here as IN_EXPECTED_ALLOCATOR), so a program that
// lost its allocator at link time (dropped by --as-needed, or linked after the C library)
// fails here instead of silently running on another one.

#include "ns3/heap-allocator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace ns3;

TEST(HeapAllocator, TheConfiguredAllocatorServesMalloc)
{
    const std::string expected = IN_EXPECTED_ALLOCATOR;
    const char* preload = std::getenv("LD_PRELOAD");
    if (preload && *preload)
    {
        GTEST_SKIP() << "LD_PRELOAD=" << preload << " chooses the allocator";
    }
    std::string name = HeapAllocator();
    EXPECT_EQ(name.substr(0, name.find(' ')), expected) << name;
    if (expected != "glibc")
    {
        // The library's own version query answered: "jemalloc 5.3.0-0-g...".
        EXPECT_GT(name.size(), expected.size() + 1) << name;
    }
}

TEST(HeapAllocator, NameIsStableAndMallocStillWorks)
{
    std::string before = HeapAllocator();
    // Allocations of the sizes ns-3 uses per packet, freed out of order.
    std::vector<void*> blocks;
    for (int i = 0; i < 10000; ++i)
    {
        blocks.push_back(std::malloc(16 + (i % 7) * 40));
        ASSERT_NE(blocks.back(), nullptr);
    }
    for (size_t i = 0; i < blocks.size(); i += 2)
    {
        std::free(blocks[i]);
    }
    for (size_t i = 1; i < blocks.size(); i += 2)
    {
        std::free(blocks[i]);
    }
    EXPECT_EQ(HeapAllocator(), before);
    EXPECT_NE(before, "unknown");
}
