/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: MaxMinAllocator against hand-solved max-min fair allocations.

#include "ns3/max-min-allocator.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(MaxMinAllocator, EqualShareOnOneLink)
{
    auto r = MaxMinAllocator::Allocate({10}, {FlowUsage{{{0, 1}}}, FlowUsage{{{0, 1}}}});
    EXPECT_DOUBLE_EQ(r[0], 5);
    EXPECT_DOUBLE_EQ(r[1], 5);
}

TEST(MaxMinAllocator, ClassicParkingLot)
{
    // Links 0 (cap 10) and 1 (cap 4). Flow A uses both, B uses 0, C uses 1.
    // Link 1 saturates first at 2 each (A, C); B then takes the rest of link 0: 8.
    auto r = MaxMinAllocator::Allocate(
        {10, 4}, {FlowUsage{{{0, 1}, {1, 1}}}, FlowUsage{{{0, 1}}}, FlowUsage{{{1, 1}}}});
    EXPECT_NEAR(r[0], 2, 1e-9);
    EXPECT_NEAR(r[1], 8, 1e-9);
    EXPECT_NEAR(r[2], 2, 1e-9);
}

TEST(MaxMinAllocator, CoefficientsAndCaps)
{
    // An aggregation-like flow consuming 3x on resource 0 (three contributions share it), plus a
    // capped unicast flow: cap 9 on resource 0 -> unicast capped at 1, aggregation gets 8/3.
    auto r = MaxMinAllocator::Allocate({9}, {FlowUsage{{{0, 3}}}, FlowUsage{{{0, 1}}, 1.0}});
    EXPECT_NEAR(r[1], 1, 1e-9);
    EXPECT_NEAR(r[0], 8.0 / 3, 1e-9);
    // Never exceeds a capacity.
    double load = 3 * r[0] + r[1];
    EXPECT_LE(load, 9 + 1e-9);
}

TEST(MaxMinAllocator, ZeroCapacityAndBadInput)
{
    auto r = MaxMinAllocator::Allocate({0, 5}, {FlowUsage{{{0, 1}, {1, 1}}}, FlowUsage{{{1, 1}}}});
    EXPECT_DOUBLE_EQ(r[0], 0);
    EXPECT_DOUBLE_EQ(r[1], 5);
    EXPECT_THROW(MaxMinAllocator::Allocate({1}, {FlowUsage{{{3, 1}}}}), std::invalid_argument);
    EXPECT_THROW(MaxMinAllocator::Allocate({1}, {FlowUsage{}}), std::invalid_argument);
}
