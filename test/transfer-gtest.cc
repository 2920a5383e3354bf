/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: the reliable-transfer state machines (IncomingTransfer, OutgoingTransfer),
// including a randomized lossy channel that must deliver every segment.

#include "ns3/incoming-transfer.h"
#include "ns3/outgoing-transfer.h"

#include <gtest/gtest.h>

#include <random>

using namespace ns3;

TEST(IncomingTransfer, IntervalsGapsAndCompletion)
{
    IncomingTransfer in(10);
    EXPECT_TRUE(in.Add(0));
    EXPECT_TRUE(in.Add(1));
    EXPECT_TRUE(in.Add(5));
    EXPECT_FALSE(in.Add(5)); // duplicate
    EXPECT_TRUE(in.Add(7));
    EXPECT_EQ(in.Cumulative(), 2u);
    EXPECT_EQ(in.Highest(), 8u);
    EXPECT_EQ(in.Received(), 4u);
    auto gaps = in.Missing(in.Highest(), 10);
    ASSERT_EQ(gaps.size(), 2u);
    EXPECT_EQ(gaps[0], IncomingTransfer::Range(2, 3));
    EXPECT_EQ(gaps[1], IncomingTransfer::Range(6, 1));
    auto all = in.Missing(10, 10);
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[2], IncomingTransfer::Range(8, 2));
    EXPECT_EQ(in.Missing(10, 1).size(), 1u);
    for (uint32_t s : {2u, 3u, 4u, 6u, 8u, 9u})
    {
        EXPECT_FALSE(in.Complete());
        EXPECT_TRUE(in.Add(s));
    }
    EXPECT_TRUE(in.Complete());
    EXPECT_EQ(in.Cumulative(), 10u);
    EXPECT_TRUE(in.Missing(10, 10).empty());
    EXPECT_THROW(in.Add(10), std::out_of_range);
    EXPECT_THROW(in.SetCount(11), std::invalid_argument);
}

TEST(OutgoingTransfer, ResendsOnlyWhatWasSentBeforeTheAckedPacket)
{
    OutgoingTransfer out(5, {7});
    uint32_t seq;
    bool retx;
    for (uint32_t i = 0; i < 5; ++i)
    {
        ASSERT_TRUE(out.Next(i * 1.0, seq, retx)); // segment i sent at time i
        EXPECT_EQ(seq, i);
        EXPECT_FALSE(retx);
    }
    EXPECT_TRUE(out.AllNewSent());
    EXPECT_FALSE(out.Next(5.0, seq, retx));
    // An ack triggered by segment 2 (sent at 2.0) NACKing 1..3: only 1 is known lost; 3 was
    // sent after segment 2 and may still be on its way.
    out.OnAck(7, 1, {{1, 3}}, 2.0);
    ASSERT_TRUE(out.Next(6.0, seq, retx));
    EXPECT_EQ(seq, 1u);
    EXPECT_TRUE(retx);
    EXPECT_TRUE(out.WasRetransmitted(1));
    EXPECT_DOUBLE_EQ(out.SentAt(1), 6.0);
    EXPECT_FALSE(out.Next(6.0, seq, retx));
    // A later ack triggered by segment 4 (sent at 4.0) still NACKs 1 and 3: 3 is lost, but the
    // resend of 1 (at 6.0) was after segment 4 and is in flight: no duplicate.
    out.OnAck(7, 1, {{1, 1}, {3, 1}}, 4.0);
    out.OnAck(7, 1, {{1, 1}, {3, 1}}, 4.0); // twice: still queued once
    ASSERT_TRUE(out.Next(7.0, seq, retx));
    EXPECT_EQ(seq, 3u);
    EXPECT_FALSE(out.Next(7.0, seq, retx));
    EXPECT_EQ(out.Retransmissions(), 2u);
    EXPECT_FALSE(out.Complete());
    EXPECT_TRUE(out.OnAck(7, 5, {}, 8.0));
    EXPECT_TRUE(out.Complete());
    // Acks from unknown receivers change nothing.
    EXPECT_FALSE(out.OnAck(99, 5, {}, 9.0));
}

TEST(OutgoingTransfer, MulticastCompletesWhenEveryReceiverHasEverything)
{
    OutgoingTransfer out(3, {1, 2});
    uint32_t seq;
    bool retx;
    while (out.Next(0, seq, retx))
    {
    }
    out.OnAck(1, 3, {}, 1);
    EXPECT_FALSE(out.Complete());
    EXPECT_EQ(out.PendingReceivers(), std::vector<uint32_t>{2});
    out.OnAck(2, 1, {{1, 2}}, 1);
    ASSERT_TRUE(out.Next(1, seq, retx));
    EXPECT_EQ(seq, 1u);
    out.OnAck(2, 3, {}, 2);
    EXPECT_TRUE(out.Complete());
}

TEST(Transfer, LossyChannelDeliversEverySegmentExactlyOnce)
{
    // Sender and receiver exchange packets over a FIFO channel that drops 20% of everything,
    // including acks; periodic acks and a tail poll must still complete the transfer.
    std::mt19937 rng(42);
    std::bernoulli_distribution drop(0.2);
    const uint32_t n = 2000;
    OutgoingTransfer out(n, {0});
    IncomingTransfer in(n);
    std::vector<int> delivered(n, 0);
    double now = 0;
    int rounds = 0;
    while (!out.Complete() && rounds < 10000)
    {
        ++rounds;
        uint32_t seq;
        bool retx;
        int sinceAck = 0;
        while (out.Next(now, seq, retx))
        {
            double sent = now;
            now += 0.001;
            if (!drop(rng) && in.Add(seq))
            {
                delivered[seq]++;
            }
            if (++sinceAck == 16 && !drop(rng))
            {
                out.OnAck(0, in.Cumulative(), in.Missing(in.Highest(), 64), sent);
                sinceAck = 0;
            }
        }
        now += 0.05; // poll after a timeout: everything sent before it is either in or lost
        if (!drop(rng))
        {
            out.OnAck(0, in.Cumulative(), in.Missing(n, 64), now);
        }
    }
    EXPECT_TRUE(out.Complete());
    EXPECT_TRUE(in.Complete());
    for (uint32_t s = 0; s < n; ++s)
    {
        ASSERT_EQ(delivered[s], 1) << "segment " << s;
    }
    EXPECT_GT(out.Retransmissions(), n / 10);
}
