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

TEST(OutgoingTransfer, TimeoutResendsOnlyWhatIsKnownLost)
{
    // Two receivers, 6 segments sent at times 0..5.
    OutgoingTransfer out(6, {1, 2});
    uint32_t seq;
    bool retx;
    for (uint32_t i = 0; i < 6; ++i)
    {
        ASSERT_TRUE(out.Next(i * 1.0, seq, retx));
    }
    // Receiver 1 reports on segments [0, 4) (triggered by segment 3): 1 missing, 0, 2, 3 in.
    EXPECT_TRUE(out.OnAck(1, 1, {{1, 1}}, 3.0, 4));
    // Receiver 2 reports on everything: 4 missing, the rest in (a selective ack beyond the
    // cumulative ack is progress).
    EXPECT_TRUE(out.OnAck(2, 4, {{4, 1}}, 5.0, 6));
    EXPECT_FALSE(out.OnAck(2, 4, {{4, 1}}, 5.0, 6)); // nothing new
    ASSERT_TRUE(out.Next(6.0, seq, retx));
    EXPECT_EQ(seq, 1u);
    ASSERT_TRUE(out.Next(6.0, seq, retx));
    EXPECT_EQ(seq, 4u);
    EXPECT_FALSE(out.Next(6.0, seq, retx));
    // Both resends lost, no ack after them (the tail): a timeout queues exactly the known
    // lost segments sent before the cut-off, not 2, 3 (acked) nor 5 (unreported by 1: poll).
    EXPECT_EQ(out.QueueKnownLost(5.0), 0u); // resent at 6.0: may still be in flight
    EXPECT_EQ(out.QueueKnownLost(7.0), 2u);
    EXPECT_EQ(out.QueueKnownLost(7.0), 0u); // already queued
    EXPECT_TRUE(out.HasUnreported());       // receiver 1 never reported on 4 and 5
    std::vector<uint32_t> resent;
    while (out.Next(8.0, seq, retx))
    {
        EXPECT_TRUE(retx);
        resent.push_back(seq);
    }
    EXPECT_EQ(resent, (std::vector<uint32_t>{1, 4}));
    // Receiver 1 now reports on everything (ack triggered by a packet sent at 8.0): it lacks
    // 4 and 5; 5 (sent at 5.0) is queued by the ack, 4 (resent at 8.0) only by a timeout.
    out.OnAck(1, 4, {{4, 2}}, 8.0, 6);
    EXPECT_FALSE(out.HasUnreported());
    EXPECT_EQ(out.QueuedRetransmissions(), 1u);
    EXPECT_EQ(out.QueueKnownLost(9.0), 1u);
    resent.clear();
    while (out.Next(10.0, seq, retx))
    {
        resent.push_back(seq);
    }
    EXPECT_EQ(resent, (std::vector<uint32_t>{5, 4}));
    EXPECT_EQ(out.Retransmissions(), 6u);
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

TEST(OutgoingTransfer, RepairCopiesDoubleWithEveryLostResend)
{
    // One receiver, 4 segments sent at times 0..3; segment 2 lost again and again.
    auto copiesOfResend = [](OutgoingTransfer& out, double now) {
        uint32_t seq;
        bool retx;
        uint32_t copies = 0;
        while (out.Next(now, seq, retx, false))
        {
            EXPECT_TRUE(retx);
            EXPECT_EQ(seq, 2u);
            ++copies;
        }
        return copies;
    };
    for (uint32_t max : {1u, 3u, 8u})
    {
        OutgoingTransfer out(4, {1});
        out.SetMaxRepairCopies(max);
        uint32_t seq;
        bool retx;
        for (uint32_t i = 0; i < 4; ++i)
        {
            ASSERT_TRUE(out.Next(i * 1.0, seq, retx));
        }
        std::vector<uint32_t> copies;
        double t = 4;
        for (int resend = 0; resend < 4; ++resend)
        {
            // An ack drawn by a packet sent after the last resend still misses segment 2.
            out.OnAck(1, 2, {{2, 1}}, t + 0.5, 4);
            copies.push_back(copiesOfResend(out, t + 1));
            t += 2;
        }
        // First resend one copy, then 2, 4, 8, capped at max.
        std::vector<uint32_t> expected;
        for (uint32_t k = 0; k < 4; ++k)
        {
            expected.push_back(std::min(max, 1u << k));
        }
        EXPECT_EQ(copies, expected) << "MaxRepairCopies " << max;
        EXPECT_EQ(out.Retransmissions(),
                  static_cast<uint64_t>(expected[0] + expected[1] + expected[2] + expected[3]));
        out.OnAck(1, 4, {}, t, 4);
        EXPECT_TRUE(out.Complete());
        EXPECT_FALSE(out.HasQueuedRetransmissions());
    }
}

TEST(OutgoingTransfer, TailProbeResendsTheLastSegmentOnlyWhenSomeReceiverMayLackIt)
{
    OutgoingTransfer out(4, {1, 2});
    uint32_t seq;
    bool retx;
    ASSERT_TRUE(out.Next(0, seq, retx));
    EXPECT_FALSE(out.QueueTailProbe()) << "not every segment sent yet";
    for (uint32_t i = 1; i < 4; ++i)
    {
        ASSERT_TRUE(out.Next(i * 1.0, seq, retx));
    }
    // Receiver 1 has everything; receiver 2 reported segments [0, 3) only (the last was lost
    // or its ack was): the probe resends segment 3, once.
    out.OnAck(1, 4, {}, 3.0, 4);
    out.OnAck(2, 3, {}, 2.0, 3);
    EXPECT_TRUE(out.HasUnreported());
    EXPECT_TRUE(out.QueueTailProbe());
    EXPECT_FALSE(out.QueueTailProbe()) << "already queued";
    ASSERT_TRUE(out.Next(10, seq, retx));
    EXPECT_EQ(seq, 3u);
    EXPECT_TRUE(retx);
    EXPECT_FALSE(out.Next(10, seq, retx));
    // Once receiver 2 acknowledged it, nobody may lack it: no probe.
    out.OnAck(2, 4, {}, 10.0, 4);
    EXPECT_TRUE(out.Complete());
    EXPECT_FALSE(out.QueueTailProbe());
}

TEST(OutgoingTransfer, ParityModeQueuesNothingOnNackAndCountsMissingPerBlock)
{
    // Under parity repair the caller reads what each receiver misses (MissingIn) and sends
    // parity; NACKs and timeouts queue no resend of segments of blocks sent in full.
    OutgoingTransfer out(64, {1, 2});
    out.SetQueueOnNack(false, 32);
    uint32_t seq;
    bool retx;
    for (uint32_t i = 0; i < 64; ++i)
    {
        ASSERT_TRUE(out.Next(1.0 + i * 0.001, seq, retx));
    }
    // Receiver 1 lost 3, 5, 40; receiver 2 lost 5 and 6; both describe the whole message.
    out.OnAck(1, 3, {{3, 1}, {5, 1}, {40, 1}}, 2.0, 64);
    out.OnAck(2, 5, {{5, 2}}, 2.0, 64);
    EXPECT_FALSE(out.HasQueuedRetransmissions());
    EXPECT_EQ(out.QueueKnownLost(10.0), 0u);
    EXPECT_EQ(out.MissingIn(1, 0, 32), 2u);
    EXPECT_EQ(out.MissingIn(1, 32, 64), 1u);
    EXPECT_EQ(out.MissingIn(2, 0, 32), 2u);
    EXPECT_EQ(out.MissingIn(2, 32, 64), 0u);
    EXPECT_EQ(out.Described(1), 64u);
    // Repaired (by parity): the next ack of receiver 1 has no gap in the first block.
    out.OnAck(1, 40, {{40, 1}}, 3.0, 64);
    EXPECT_EQ(out.MissingIn(1, 0, 32), 0u);
    EXPECT_EQ(out.MissingIn(1, 32, 64), 1u);
    // A block still being sent is resent (no parity before the whole block is out; a sender
    // whose window is full would never finish it otherwise).
    OutgoingTransfer partial(64, {1});
    partial.SetQueueOnNack(false, 32);
    for (uint32_t i = 0; i < 40; ++i)
    {
        ASSERT_TRUE(partial.Next(1.0 + i * 0.001, seq, retx));
    }
    partial.OnAck(1, 5, {{5, 1}, {35, 1}}, 2.0, 40);
    ASSERT_EQ(partial.QueuedRetransmissions(), 1u);
    ASSERT_TRUE(partial.Next(3.0, seq, retx, false));
    EXPECT_EQ(seq, 35u);
    EXPECT_TRUE(retx);
    // The default still resends.
    OutgoingTransfer arq(4, {1});
    for (uint32_t i = 0; i < 4; ++i)
    {
        arq.Next(1.0 + i, seq, retx);
    }
    arq.OnAck(1, 1, {{1, 1}}, 10.0, 4);
    EXPECT_TRUE(arq.HasQueuedRetransmissions());
}
