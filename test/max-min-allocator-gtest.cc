/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: MaxMinAllocator against hand-solved max-min fair allocations.

#include "ns3/max-min-allocator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <thread>

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

namespace
{
// Every flow must be at its cap or have a bottleneck: a saturated resource on which no flow gets
// more than it does (the defining property of a max-min fair allocation); no capacity exceeded.
void
ExpectMaxMinFair(const std::vector<double>& cap,
                 const std::vector<FlowUsage>& flows,
                 const std::vector<double>& rate)
{
    std::vector<double> used(cap.size(), 0.0);
    std::vector<double> highest(cap.size(), 0.0);
    for (std::size_t f = 0; f < flows.size(); ++f)
    {
        for (const auto& [r, a] : flows[f].usage)
        {
            used[r] += a * rate[f];
            highest[r] = std::max(highest[r], rate[f]);
        }
    }
    for (std::size_t r = 0; r < cap.size(); ++r)
    {
        EXPECT_LE(used[r], cap[r] * (1 + 1e-9) + 1e-9) << "resource " << r;
    }
    for (std::size_t f = 0; f < flows.size(); ++f)
    {
        EXPECT_LE(rate[f], flows[f].maxRate * (1 + 1e-9));
        bool atCap = rate[f] >= flows[f].maxRate * (1 - 1e-9);
        bool bottleneck = false;
        for (const auto& [r, a] : flows[f].usage)
        {
            bool saturated = used[r] >= cap[r] * (1 - 1e-9) - 1e-9;
            bottleneck = bottleneck || (saturated && rate[f] >= highest[r] * (1 - 1e-9));
        }
        EXPECT_TRUE(atCap || bottleneck) << "flow " << f << " rate " << rate[f];
    }
}
} // namespace

TEST(MaxMinAllocator, RandomInstancesAreMaxMinFair)
{
    // Random networks of 1-40 resources and 1-120 flows, with multi-resource paths, repeated
    // resources, coefficients 1-4 (aggregation-like), caps on some flows and a few zero or
    // equal capacities (simultaneous saturations).
    uint64_t state = 12345;
    auto next = [&state]() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<uint32_t>(state >> 33);
    };
    for (int instance = 0; instance < 300; ++instance)
    {
        std::size_t nRes = 1 + next() % 40;
        std::size_t nFlows = 1 + next() % 120;
        std::vector<double> cap(nRes);
        for (auto& c : cap)
        {
            uint32_t kind = next() % 10;
            c = kind == 0 ? 0.0 : kind < 4 ? 10.0 : 1.0 + next() % 1000;
        }
        std::vector<FlowUsage> flows(nFlows);
        for (auto& f : flows)
        {
            std::size_t len = 1 + next() % 6;
            for (std::size_t i = 0; i < len; ++i)
            {
                f.usage.push_back({next() % nRes, 1.0 + next() % 4});
            }
            if (next() % 4 == 0)
            {
                f.maxRate = 0.5 + next() % 50;
            }
        }
        auto rate = MaxMinAllocator::Allocate(cap, flows);
        ASSERT_EQ(rate.size(), nFlows);
        ExpectMaxMinFair(cap, flows, rate);
        if (HasFailure())
        {
            FAIL() << "instance " << instance;
        }
    }
}

TEST(MaxMinAllocator, UnboundedFlowRejected)
{
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_THROW(MaxMinAllocator::Allocate({inf}, {FlowUsage{{{0, 1}}}}), std::invalid_argument);
    // A cap bounds it.
    auto r = MaxMinAllocator::Allocate({inf}, {FlowUsage{{{0, 1}}, 7.0}});
    EXPECT_DOUBLE_EQ(r[0], 7.0);
}

TEST(MaxMinAllocator, RejectedInputLeavesNoStateBehind)
{
    // Resources are numbered densely per call through a table kept across calls; a call that
    // throws half-way (resource 5 seen, then a bad coefficient) must leave it clean.
    std::vector<double> cap(8, 10.0);
    EXPECT_THROW(MaxMinAllocator::Allocate(cap, {FlowUsage{{{5, 1}}}, FlowUsage{{{2, 0}}}}),
                 std::invalid_argument);
    EXPECT_THROW(MaxMinAllocator::Allocate(cap, {FlowUsage{{{6, 1}}}, FlowUsage{{{9, 1}}}}),
                 std::invalid_argument);
    cap[3] = 4;
    auto r = MaxMinAllocator::Allocate(
        cap, {FlowUsage{{{3, 1}, {5, 1}}}, FlowUsage{{{5, 1}}}, FlowUsage{{{6, 1}, {3, 1}}}});
    EXPECT_NEAR(r[0], 2, 1e-12);
    EXPECT_NEAR(r[1], 8, 1e-12);
    EXPECT_NEAR(r[2], 2, 1e-12);
}

TEST(MaxMinAllocator, FlowsByPointerGetTheSameRates)
{
    std::vector<FlowUsage> flows{FlowUsage{{{0, 1}, {1, 1}}}, FlowUsage{{{0, 1}}},
                                 FlowUsage{{{1, 1}}, 1.5}, FlowUsage{{}, 3.0}};
    std::vector<const FlowUsage*> pointers;
    for (const auto& f : flows)
    {
        pointers.push_back(&f);
    }
    EXPECT_EQ(MaxMinAllocator::Allocate({10, 4}, flows),
              MaxMinAllocator::Allocate({10, 4}, pointers));
}

TEST(MaxMinAllocator, WarmStartGivesTheRatesOfAnAllocationFromZero)
{
    // Random instances (as above); some flows end; the allocation of the others from the
    // earlier one's events before the first that froze a flow now gone must equal, bit for bit,
    // an allocation from zero, and so must its trace.
    uint64_t state = 98765;
    auto next = [&state]() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<uint32_t>(state >> 33);
    };
    std::size_t warmEvents = 0;
    for (int instance = 0; instance < 400; ++instance)
    {
        std::size_t nRes = 1 + next() % 40;
        std::size_t nFlows = 2 + next() % 120;
        std::vector<double> cap(nRes);
        for (auto& c : cap)
        {
            uint32_t kind = next() % 10;
            c = kind == 0 ? 0.0 : kind < 4 ? 10.0 : (1.0 + next() % 1000) / 3;
        }
        std::vector<FlowUsage> flows(nFlows);
        for (auto& f : flows)
        {
            std::size_t len = next() % 12 == 0 ? 0 : 1 + next() % 6;
            for (std::size_t i = 0; i < len; ++i)
            {
                f.usage.push_back({next() % nRes, next() % 3 ? 1.0 : 1.0 + next() % 4});
            }
            if (len == 0 || next() % 4 == 0)
            {
                f.maxRate = 0.5 + next() % 20;
            }
        }
        std::vector<const FlowUsage*> all;
        for (const auto& f : flows)
        {
            all.push_back(&f);
        }
        MaxMinTrace before;
        MaxMinAllocator::Allocate(cap, all, nullptr, &before);
        // Remove one to three flows; the survivors keep their relative order.
        std::vector<char> gone(nFlows, 0);
        for (std::size_t i = 0, n = 1 + next() % 3; i < n; ++i)
        {
            gone[next() % nFlows] = 1;
        }
        std::vector<const FlowUsage*> kept;
        std::vector<uint32_t> renumber(nFlows, 0);
        for (std::size_t f = 0; f < nFlows; ++f)
        {
            renumber[f] = static_cast<uint32_t>(kept.size());
            if (!gone[f])
            {
                kept.push_back(&flows[f]);
            }
        }
        MaxMinTrace prefix;
        for (std::size_t e = 0, k = 0; e < before.eventEnd.size(); ++e)
        {
            bool clean = true;
            for (std::size_t i = k; i < before.eventEnd[e]; ++i)
            {
                clean = clean && !gone[before.order[i]];
            }
            if (!clean)
            {
                break;
            }
            for (; k < before.eventEnd[e]; ++k)
            {
                prefix.order.push_back(renumber[before.order[k]]);
                prefix.rates.push_back(before.rates[k]);
            }
            prefix.eventEnd.push_back(static_cast<uint32_t>(prefix.order.size()));
            prefix.level.push_back(before.level[e]);
        }
        warmEvents += prefix.eventEnd.size();
        MaxMinTrace fromZero;
        MaxMinTrace warm;
        auto expected = MaxMinAllocator::Allocate(cap, kept, nullptr, &fromZero);
        auto got = MaxMinAllocator::Allocate(cap, kept, &prefix, &warm);
        ASSERT_EQ(got.size(), expected.size());
        for (std::size_t f = 0; f < got.size(); ++f)
        {
            // Bit for bit (EXPECT_EQ on doubles is exact).
            EXPECT_EQ(got[f], expected[f]) << "instance " << instance << " flow " << f;
        }
        EXPECT_EQ(warm.order, fromZero.order) << "instance " << instance;
        EXPECT_EQ(warm.rates, fromZero.rates) << "instance " << instance;
        EXPECT_EQ(warm.eventEnd, fromZero.eventEnd) << "instance " << instance;
        EXPECT_EQ(warm.level, fromZero.level) << "instance " << instance;
        if (HasFailure())
        {
            FAIL() << "instance " << instance;
        }
    }
    EXPECT_GT(warmEvents, 1000u); // the prefixes were not all empty
    // A prefix naming a flow twice, or out of range, is refused.
    std::vector<FlowUsage> two{FlowUsage{{{0, 1}}}, FlowUsage{{{0, 1}}}};
    std::vector<const FlowUsage*> twoP{&two[0], &two[1]};
    MaxMinTrace bad{{0, 0}, {5, 5}, {2}, {5}};
    EXPECT_THROW(MaxMinAllocator::Allocate({10}, twoP, &bad, nullptr), std::invalid_argument);
    bad = MaxMinTrace{{2}, {5}, {1}, {5}};
    EXPECT_THROW(MaxMinAllocator::Allocate({10}, twoP, &bad, nullptr), std::invalid_argument);
}

TEST(MaxMinAllocator, ReusedWorkspaceGivesTheRatesOfAFreshOne)
{
    // An allocation works in vectors kept per thread across calls. Instances of different
    // sizes in turn on this thread get bit for bit the rates each gets on a new thread (a new
    // workspace), whatever came before; so does the output-vector form with a reused vector.
    uint64_t state = 777;
    auto next = [&state]() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<uint32_t>(state >> 33);
    };
    auto instance = [&next](std::size_t nRes, std::size_t nFlows) {
        std::pair<std::vector<double>, std::vector<FlowUsage>> in;
        in.first.resize(nRes);
        for (auto& c : in.first)
        {
            c = 1.0 + next() % 1000;
        }
        in.second.resize(nFlows);
        for (auto& f : in.second)
        {
            for (std::size_t i = 0, len = 1 + next() % 5; i < len; ++i)
            {
                f.usage.push_back({next() % nRes, 1.0 + next() % 3});
            }
            if (next() % 3 == 0)
            {
                f.maxRate = 0.5 + next() % 40;
            }
        }
        return in;
    };
    std::vector<std::pair<std::vector<double>, std::vector<FlowUsage>>> instances;
    for (int i = 0; i < 90; ++i)
    {
        instances.push_back(i % 3 == 0   ? instance(400 + next() % 500, 800 + next() % 1200)
                            : i % 3 == 1 ? instance(1 + next() % 4, 1 + next() % 6)
                                         : instance(2 + next() % 60, 3 + next() % 150));
    }
    auto fresh = [](const auto& in) {
        std::vector<double> rates;
        std::thread t([&] { rates = MaxMinAllocator::Allocate(in.first, in.second); });
        t.join();
        return rates;
    };
    std::vector<double> reused;
    for (std::size_t i = 0; i < instances.size(); ++i)
    {
        const auto& in = instances[i];
        const std::vector<double> want = fresh(in);
        EXPECT_EQ(MaxMinAllocator::Allocate(in.first, in.second), want) << "instance " << i;
        std::vector<const FlowUsage*> pointers;
        for (const auto& f : in.second)
        {
            pointers.push_back(&f);
        }
        MaxMinAllocator::Allocate(in.first, pointers, nullptr, nullptr, reused);
        EXPECT_EQ(reused, want) << "instance " << i;
    }
}
