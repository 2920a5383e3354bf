/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/congestion-window.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using namespace ns3;

namespace
{
CongestionWindowConfig
Reno()
{
    CongestionWindowConfig c;
    c.algorithm = "reno";
    return c;
}
} // namespace

TEST(CongestionWindow, SlowStartDoublesPerRoundTrip)
{
    CongestionWindow w;
    EXPECT_DOUBLE_EQ(w.Window(), 10);
    // A whole window acknowledged per round trip: 10 -> 20 -> 40.
    w.OnAcked(10, 0.1, 0.1);
    EXPECT_DOUBLE_EQ(w.Window(), 20);
    w.OnAcked(20, 0.2, 0.1);
    EXPECT_DOUBLE_EQ(w.Window(), 40);
    EXPECT_TRUE(w.InSlowStart());
}

TEST(CongestionWindow, OneReductionPerWindowOfLosses)
{
    CongestionWindow w(Reno());
    w.OnAcked(90, 1, 0.1); // 100 segments; 500 sent so far
    ASSERT_DOUBLE_EQ(w.Window(), 100);
    EXPECT_TRUE(w.OnLoss(420, 500, 1.0));
    EXPECT_DOUBLE_EQ(w.Window(), 50);
    EXPECT_DOUBLE_EQ(w.Ssthresh(), 50);
    // Losses of segments sent before the reduction are the same event, however late they
    // are reported.
    EXPECT_FALSE(w.OnLoss(499, 510, 5.0));
    EXPECT_DOUBLE_EQ(w.Window(), 50);
    // A loss of a segment sent after the reduction is a new event.
    EXPECT_TRUE(w.OnLoss(500, 560, 5.1));
    EXPECT_DOUBLE_EQ(w.Window(), 25);
    EXPECT_EQ(w.Reductions(), 2u);
}

TEST(CongestionWindow, MarksReduceOncePerWindow)
{
    CongestionWindow w(Reno());
    w.OnAcked(90, 1, 0.1);
    ASSERT_DOUBLE_EQ(w.Window(), 100);
    // A window of marks (segments 420..499, all sent before the reduction at nextNew 500):
    // one reduction, as TCP's CWR, however many marks and however late they arrive.
    EXPECT_TRUE(w.OnMark(420, 500, 1.0));
    for (uint32_t seq = 421; seq < 500; ++seq)
    {
        EXPECT_FALSE(w.OnMark(seq, 500 + seq - 420, 1.0 + 0.01 * (seq - 420)));
    }
    EXPECT_DOUBLE_EQ(w.Window(), 50);
    EXPECT_EQ(w.Reductions(), 1u);
    // A mark on a segment sent after the reduction is a new event.
    EXPECT_TRUE(w.OnMark(500, 600, 3.0));
    EXPECT_DOUBLE_EQ(w.Window(), 25);
    EXPECT_EQ(w.Reductions(), 2u);
}

TEST(CongestionWindow, LossAndMarkOfOneWindowAreOneEvent)
{
    CongestionWindow w(Reno());
    w.OnAcked(90, 1, 0.1);
    EXPECT_TRUE(w.OnLoss(450, 500, 1.0));
    EXPECT_FALSE(w.OnMark(460, 510, 1.0)); // the same window: no second cut
    EXPECT_DOUBLE_EQ(w.Window(), 50);
    EXPECT_TRUE(w.OnMark(510, 560, 1.2));
    EXPECT_FALSE(w.OnLoss(520, 570, 1.2)); // sent before the mark's reduction
    EXPECT_DOUBLE_EQ(w.Window(), 25);
    // A new message restarts sequence numbers: its first mark is a new event.
    w.Restart();
    EXPECT_TRUE(w.OnMark(0, 10, 2.0));
    EXPECT_EQ(w.Reductions(), 3u);
}

TEST(CongestionWindow, RenoAddsOneSegmentPerWindow)
{
    CongestionWindow w(Reno());
    w.OnAcked(90, 0, 0.1);
    w.OnLoss(0, 100, 0); // 50, congestion avoidance
    ASSERT_FALSE(w.InSlowStart());
    w.OnAcked(50, 0.1, 0.1);
    EXPECT_NEAR(w.Window(), 51, 0.02);
    w.OnAcked(51, 0.2, 0.1);
    EXPECT_NEAR(w.Window(), 52, 0.02);
}

TEST(CongestionWindow, CubicReturnsToThePlateauAfterK)
{
    // RFC 8312: after a reduction from Wmax, W(t) = C (t - K)^3 + Wmax reaches Wmax again at
    // K = cbrt(Wmax (1 - beta) / C): for Wmax = 1000, beta 0.7, C 0.4: K = 9.09 s, whatever
    // the round trip.
    CongestionWindow w;
    w.OnAcked(990, 0, 0.05); // 1000
    ASSERT_TRUE(w.OnLoss(0, 1000, 0));
    EXPECT_DOUBLE_EQ(w.Window(), 700);
    const double k = std::cbrt(1000 * 0.3 / 0.4);
    double t = 0;
    const double rtt = 0.05;
    while (t < k - 1)
    {
        w.OnAcked(static_cast<uint32_t>(w.Window()), t, rtt);
        t += rtt;
    }
    EXPECT_LT(w.Window(), 1000) << "concave region: still below the plateau before K";
    EXPECT_GT(w.Window(), 990) << "close to the plateau one second before K";
    while (t < k + 3)
    {
        w.OnAcked(static_cast<uint32_t>(w.Window()), t, rtt);
        t += rtt;
    }
    EXPECT_GT(w.Window(), 1000 + 0.4 * 8 * 0.8) << "convex region: probing beyond Wmax";
}

TEST(CongestionWindow, CubicFasterThanRenoOnALongFatPath)
{
    // 200 ms round trip, window 10000 halved/cut by a loss: after 20 s CUBIC has recovered,
    // Reno has added one segment per round trip (100 segments).
    for (bool cubic : {true, false})
    {
        CongestionWindowConfig c = cubic ? CongestionWindowConfig() : Reno();
        CongestionWindow w(c);
        w.OnAcked(9990, 0, 0.2);
        w.OnLoss(0, 10000, 0);
        double start = w.Window();
        for (double t = 0; t < 20; t += 0.2)
        {
            w.OnAcked(static_cast<uint32_t>(w.Window()), t, 0.2);
        }
        if (cubic)
        {
            EXPECT_GT(w.Window(), 10000);
        }
        else
        {
            EXPECT_NEAR(w.Window(), start + 100, 2);
        }
    }
}

TEST(CongestionWindow, TimeoutRestartsFromTheFloor)
{
    CongestionWindow w(Reno());
    w.OnAcked(30, 0, 0.1); // 40
    w.OnTimeout(100, 2.0);
    EXPECT_DOUBLE_EQ(w.Window(), 2);
    EXPECT_DOUBLE_EQ(w.Ssthresh(), 20);
    w.OnAcked(2, 2.1, 0.1);
    EXPECT_DOUBLE_EQ(w.Window(), 4); // slow start again up to ssthresh
    w.OnAcked(100, 2.2, 0.1);
    EXPECT_NEAR(w.Window(), 20 + 84.0 / 20, 0.5); // capped at ssthresh, then linear
    EXPECT_FALSE(w.InSlowStart());
    // Losses sent before the timeout do not reduce again.
    EXPECT_FALSE(w.OnLoss(99, 150, 2.3));
}

TEST(CongestionWindow, FloorHolds)
{
    CongestionWindow w;
    for (uint32_t i = 0; i < 20; ++i)
    {
        w.OnLoss(i * 10, i * 10 + 10, i);
    }
    EXPECT_DOUBLE_EQ(w.Window(), 2);
}

TEST(CongestionWindow, BadConfigRejected)
{
    CongestionWindowConfig c;
    c.beta = 1.0;
    EXPECT_THROW(CongestionWindow{c}, std::invalid_argument);
    c = {};
    c.minWindow = 0;
    EXPECT_THROW(CongestionWindow{c}, std::invalid_argument);
    c = {};
    c.initialWindow = std::nan("");
    EXPECT_THROW(CongestionWindow{c}, std::invalid_argument);
    c = {};
    c.algorithm = "vegas";
    EXPECT_THROW(CongestionWindow{c}, std::invalid_argument);
}

TEST(CongestionWindow, ResumeStartsFromTheValidatedWindow)
{
    // A window of 1000 segments that the last transfer's mean rate does not support (100):
    // the next transfer starts from 100 and slow-starts back towards 3/4 of 1000.
    CongestionWindow w(Reno());
    w.OnAcked(990, 1.0, 0.1);
    ASSERT_DOUBLE_EQ(w.Window(), 1000);
    w.Resume(100);
    EXPECT_DOUBLE_EQ(w.Window(), 100);
    EXPECT_TRUE(w.InSlowStart());
    EXPECT_GE(w.Ssthresh(), 750);
    w.OnAcked(100, 1.1, 0.1);
    EXPECT_DOUBLE_EQ(w.Window(), 200);
}

TEST(CongestionWindow, ResumeNeverRaisesTheWindowNorGoesBelowTheInitialOne)
{
    CongestionWindow w(Reno());
    w.OnAcked(40, 1.0, 0.1); // 50 segments
    w.Resume(400);           // a mean above the window: the window stays
    EXPECT_DOUBLE_EQ(w.Window(), 50);
    w.Resume(3); // below the initial window: the initial window
    EXPECT_DOUBLE_EQ(w.Window(), 10);
    w.Resume(std::nan("")); // no measurement: the initial window
    EXPECT_DOUBLE_EQ(w.Window(), 10);
    // Sequence numbers start again: a loss of segment 0 is a new congestion event.
    EXPECT_TRUE(w.OnLoss(0, 5, 2.0));
}
