/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: fixed-point encoding, checked sums and the documented error bounds.

#include "ns3/fixed-point.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

using namespace ns3;

TEST(FixedPoint, EncodeDecodeWithinBound)
{
    FixedPoint fp(16);
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(-1000, 1000);
    for (int i = 0; i < 10000; ++i)
    {
        double v = u(rng);
        bool o = false;
        int32_t q = fp.Encode(v, o);
        EXPECT_FALSE(o);
        EXPECT_LE(std::abs(fp.Decode(q) - v), fp.QuantizationBound() + 1e-12);
    }
}

TEST(FixedPoint, SumsOfKValuesStayWithinKHalfUlps)
{
    FixedPoint fp(20);
    std::mt19937 rng(2);
    std::uniform_real_distribution<double> u(-50, 50);
    for (int trial = 0; trial < 1000; ++trial)
    {
        int k = 2 + trial % 9;
        double exact = 0;
        int32_t acc = 0;
        for (int j = 0; j < k; ++j)
        {
            double v = u(rng);
            exact += v;
            bool o = false;
            ASSERT_TRUE(FixedPoint::AddChecked(acc, fp.Encode(v, o)));
        }
        EXPECT_LE(std::abs(fp.Decode(acc) - exact), k * fp.QuantizationBound() + 1e-9);
    }
}

TEST(FixedPoint, OverflowIsDetectedNotWrapped)
{
    FixedPoint fp(16);
    bool o = false;
    int32_t q = fp.Encode(40000.0, o); // 40000 * 65536 > 2^31
    EXPECT_TRUE(o);
    EXPECT_EQ(q, std::numeric_limits<int32_t>::max());
    o = false;
    fp.Encode(std::nan(""), o);
    EXPECT_TRUE(o);
    int32_t acc = std::numeric_limits<int32_t>::max() - 5;
    EXPECT_TRUE(FixedPoint::AddChecked(acc, 5));
    EXPECT_EQ(acc, std::numeric_limits<int32_t>::max());
    acc = std::numeric_limits<int32_t>::max() - 5;
    // Overflow saturates (a contribution is never silently left out) and is reported.
    EXPECT_FALSE(FixedPoint::AddChecked(acc, 6));
    EXPECT_EQ(acc, std::numeric_limits<int32_t>::max());
    acc = std::numeric_limits<int32_t>::min() + 1;
    EXPECT_FALSE(FixedPoint::AddChecked(acc, -2));
    EXPECT_EQ(acc, std::numeric_limits<int32_t>::min());
    EXPECT_THROW(FixedPoint(31), std::invalid_argument);
}
