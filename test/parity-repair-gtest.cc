/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: ParityRepair, multicast loss recovery by parity segments (an ideal MDS erasure
// code over blocks of segments): the blocks, the decode rule, the confidence rule against a
// hand computation of the binomial tail, and the subtraction of parity already in flight;
// RepairCopiesFor, the copies a repeated repair goes out in, against hand computations.

#include "ns3/parity-repair.h"
#include "ns3/repair-copies.h"

#include <gtest/gtest.h>

#include <random>

using namespace ns3;

TEST(ParityRepair, Blocks)
{
    ParityRepair r(70, 32, 0.9);
    EXPECT_EQ(r.Blocks(), 3u);
    EXPECT_EQ(r.BlockOf(31), 0u);
    EXPECT_EQ(r.BlockOf(32), 1u);
    EXPECT_EQ(r.BlockStart(2), 64u);
    EXPECT_EQ(r.BlockSize(1), 32u);
    EXPECT_EQ(r.BlockSize(2), 6u); // the last block is shorter
    EXPECT_EQ(r.BlockSize(3), 0u);
    EXPECT_THROW(ParityRepair(0, 32, 0.9), std::invalid_argument);
    EXPECT_THROW(ParityRepair(10, 0, 0.9), std::invalid_argument);
    EXPECT_THROW(ParityRepair(10, 4, 1.0), std::invalid_argument);
}

TEST(ParityRepair, DecodeRule)
{
    // Any k parity segments repair any k missing data segments of the block, not k - 1.
    EXPECT_TRUE(ParityRepair::Decodable(32, 29, 3));
    EXPECT_TRUE(ParityRepair::Decodable(32, 29, 5));
    EXPECT_FALSE(ParityRepair::Decodable(32, 29, 2));
    EXPECT_TRUE(ParityRepair::Decodable(32, 32, 0));
    EXPECT_FALSE(ParityRepair::Decodable(32, 0, 31));
    EXPECT_TRUE(ParityRepair::Decodable(32, 0, 32));
    EXPECT_TRUE(ParityRepair::Decodable(6, 5, 1)); // a short last block
    // Random losses at 3 receivers of one block: each decodes exactly when the parity it got
    // covers what it lost.
    std::mt19937 rng(7);
    std::bernoulli_distribution lost(0.2);
    for (int trial = 0; trial < 200; ++trial)
    {
        uint32_t parity = trial % 9;
        for (int receiver = 0; receiver < 3; ++receiver)
        {
            uint32_t missing = 0;
            for (int s = 0; s < 32; ++s)
            {
                missing += lost(rng) ? 1 : 0;
            }
            EXPECT_EQ(ParityRepair::Decodable(32, 32 - missing, parity), parity >= missing)
                << "missing " << missing << ", parity " << parity;
        }
    }
}

TEST(ParityRepair, ConfidenceRuleAgainstTheBinomial)
{
    // At loss 0.1, 3 missing: P[3 of 3 arrive] = 0.9^3 = 0.729 < 0.9;
    // P[>= 3 of 4] = 0.9^4 + 4 x 0.9^3 x 0.1 = 0.6561 + 0.2916 = 0.9477 >= 0.9 -> 4 parity.
    EXPECT_NEAR(ParityRepair::Sufficient(3, 3, 0.1), 0.729, 1e-12);
    EXPECT_NEAR(ParityRepair::Sufficient(4, 3, 0.1), 0.9477, 1e-12);
    EXPECT_EQ(ParityRepair::Needed(3, 0.1, 0.9), 4u);
    // Confidence 0.95: P[>= 3 of 5] = 0.9^5 + 5 x 0.9^4 x 0.1 + 10 x 0.9^3 x 0.01
    //                               = 0.59049 + 0.32805 + 0.0729 = 0.99144 -> 5 parity.
    EXPECT_NEAR(ParityRepair::Sufficient(5, 3, 0.1), 0.99144, 1e-12);
    EXPECT_EQ(ParityRepair::Needed(3, 0.1, 0.95), 5u);
    // One missing at 5% loss: 0.95 >= 0.9 already; at 0.96 confidence 1 - 0.05^2 = 0.9975.
    EXPECT_EQ(ParityRepair::Needed(1, 0.05, 0.9), 1u);
    EXPECT_EQ(ParityRepair::Needed(1, 0.05, 0.96), 2u);
    // No loss or no confidence asked: exactly what is missing.
    EXPECT_EQ(ParityRepair::Needed(7, 0, 0.9), 7u);
    EXPECT_EQ(ParityRepair::Needed(7, 0.3, 0), 7u);
    EXPECT_EQ(ParityRepair::Needed(0, 0.3, 0.9), 0u);
    // Due() uses the receiver's measured loss: 3 of 30 lost -> 0.1 -> 4 for 3 missing.
    ParityRepair r(64, 32, 0.9);
    r.SampleLoss(5, 3, 30);
    EXPECT_DOUBLE_EQ(r.Loss(5), 0.1);
    r.Report(5, 0, 3, 0, 1.0);
    EXPECT_EQ(r.Due(0), 4u);
    // Parity already held counts: 3 missing, 1 held -> 2 needed -> P[2 of 2] = 0.81,
    // P[>= 2 of 3] = 0.729 + 3 x 0.81 x 0.1 = 0.972 -> 3.
    r.Report(5, 0, 3, 1, 1.5);
    EXPECT_EQ(r.Due(0), 3u);
}

TEST(ParityRepair, InFlightParityIsSubtracted)
{
    ParityRepair r(64, 32, 0.9); // no loss samples: the rule asks for exactly what is missing
    r.Report(1, 0, 3, 0, 1.0);
    EXPECT_EQ(r.Due(0), 3u);
    EXPECT_EQ(r.Due(1), 0u);
    for (double t : {2.0, 2.1, 2.2})
    {
        r.OnSent(0, t);
    }
    EXPECT_EQ(r.Sent(), 3u);
    EXPECT_EQ(r.InFlight(0, 1.0), 3u);
    EXPECT_EQ(r.Due(0), 0u) << "three parity segments are on their way";
    // Another receiver misses 5 of the same block, reported before the parity left: 3 of
    // them are covered by the parity in flight, 2 more are due.
    r.Report(2, 0, 5, 0, 1.5);
    EXPECT_EQ(r.Due(0), 2u);
    r.OnSent(0, 2.3);
    r.OnSent(0, 2.4);
    EXPECT_EQ(r.Due(0), 0u);
    // Receiver 1 answers the first parity segment (sent at 2.0): it arrived (held 1) and 2
    // are still missing; the 4 sent after 2.0 cover them.
    r.Report(1, 0, 3, 1, 2.0);
    EXPECT_EQ(r.InFlight(0, 2.0), 4u);
    EXPECT_EQ(r.Due(0), 0u);
    // Receiver 2 answers the last one (2.4): all parity sent is accounted for (arrived or
    // lost); it holds 3 of the 5 and misses 5: 2 more are due now.
    r.Report(2, 0, 5, 3, 2.4);
    EXPECT_EQ(r.Due(0), 2u);
    // A stale report (older echo) changes nothing.
    r.Report(2, 0, 5, 0, 1.5);
    EXPECT_EQ(r.Due(0), 2u);
    // Both decoded: nothing due.
    r.Report(1, 0, 0, 0, 2.5);
    r.Report(2, 0, 0, 0, 2.5);
    EXPECT_EQ(r.Due(0), 0u);
}

TEST(ParityRepair, FailedRepairsAreSentAgainWithAStricterTarget)
{
    // Target after k failed repairs: 1 - (1 - confidence)^(k + 1).
    EXPECT_DOUBLE_EQ(ParityRepair::Confidence(0.9, 0), 0.9);
    EXPECT_NEAR(ParityRepair::Confidence(0.9, 1), 0.99, 1e-12);
    EXPECT_NEAR(ParityRepair::Confidence(0.9, 2), 0.999, 1e-12);
    EXPECT_DOUBLE_EQ(ParityRepair::Confidence(0, 3), 0.0) << "0: exactly what is missing";
    ParityRepair r(64, 32, 0.9);
    r.SampleLoss(1, 1, 10); // loss 0.1
    // One segment missing: P[1 of 1 arrives] = 0.9 >= 0.9 -> 1 parity segment.
    r.Report(1, 0, 1, 0, 1.0);
    EXPECT_EQ(r.Failures(1, 0), 0u);
    EXPECT_EQ(r.Due(0), 1u);
    r.OnSent(0, 2.0);
    EXPECT_EQ(r.Due(0), 0u) << "on its way";
    // The receiver answers a packet sent after it (2.5) and still misses the segment: the
    // parity was lost, the repair failed. Again at 0.99: 1 - 0.1^2 -> 2 segments.
    r.Report(1, 0, 1, 0, 2.5);
    EXPECT_EQ(r.Failures(1, 0), 1u);
    EXPECT_EQ(r.Due(0), 2u);
    // Later reports of the same failure (no parity sent since) count it once.
    r.Report(1, 0, 1, 0, 2.7);
    EXPECT_EQ(r.Failures(1, 0), 1u);
    EXPECT_EQ(r.Due(0), 2u);
    r.OnSent(0, 3.0);
    r.OnSent(0, 3.0);
    // A report between the two copies' arrival and the answer to the last one: one of them
    // is still in flight after its echo, not a failure yet.
    r.OnSent(0, 3.1);
    r.Report(1, 0, 1, 0, 3.05);
    EXPECT_EQ(r.Failures(1, 0), 1u);
    // All three lost: the second failure, 0.999 -> 1 - 0.1^3 -> 3 segments.
    r.Report(1, 0, 1, 0, 3.2);
    EXPECT_EQ(r.Failures(1, 0), 2u);
    EXPECT_EQ(r.Due(0), 3u);
    // Sent, and a timeout finds them overdue (their acks did not come): lost, the third
    // failure, 0.9999 -> 4; once only for the same parity.
    for (double t : {4.0, 4.0, 4.0})
    {
        r.OnSent(0, t);
    }
    EXPECT_EQ(r.Due(0), 0u);
    r.OnTimeout(0, 3.9);
    EXPECT_EQ(r.Failures(1, 0), 2u) << "sent after 3.9: not overdue yet";
    r.OnTimeout(0, 4.5);
    EXPECT_EQ(r.Failures(1, 0), 3u);
    r.OnTimeout(0, 4.6);
    EXPECT_EQ(r.Failures(1, 0), 3u);
    EXPECT_EQ(r.Due(0, 4.5), 4u);
    // Decoded: the need and its failures are gone.
    r.Report(1, 0, 0, 0, 5.0);
    EXPECT_EQ(r.Failures(1, 0), 0u);
    EXPECT_EQ(r.Needs(), 0u);
    EXPECT_EQ(r.Due(0, 6.0), 0u);
}

TEST(ParityRepair, RepairsThatMustAllSucceedShareTheFailureProbability)
{
    ParityRepair r(320, 32, 0.9);
    r.SampleLoss(1, 1, 10); // loss 0.1
    for (uint32_t b = 0; b < 10; ++b)
    {
        r.Report(1, b, 1, 0, 1.0);
    }
    EXPECT_EQ(r.Needs(), 10u);
    // Alone: 1 - 0.1 -> 1 segment. One of 10 that must all succeed: each may fail with 0.01
    // -> 2 (0.1^2 = 0.01); of 100: 0.001 -> 3.
    EXPECT_EQ(r.Due(3), 1u);
    EXPECT_EQ(r.Due(3, -1e300, 10), 2u);
    EXPECT_EQ(r.Due(3, -1e300, 100), 3u);
    // Needs count (block, receiver) pairs, once each.
    r.Report(2, 3, 2, 0, 1.0);
    r.Report(1, 3, 1, 0, 1.1);
    EXPECT_EQ(r.Needs(), 11u);
    r.Report(1, 3, 0, 0, 1.2);
    r.Report(2, 3, 2, 2, 1.2);
    EXPECT_EQ(r.Needs(), 9u);
}

TEST(RepairCopies, FewestCopiesWhoseJointLossMeetsTheTarget)
{
    EXPECT_EQ(RepairCopiesFor(0, 100, 1e-3, 6), 1u); // nothing lost
    EXPECT_EQ(RepairCopiesFor(5, 0, 1e-3, 6), 1u);   // nothing measured
    // p = 0.1, target 2e-3: 0.1 and 0.01 above it, 0.001 below -> 3 copies.
    EXPECT_EQ(RepairCopiesFor(10, 100, 2e-3, 6), 3u);
    // target 5e-4: 0.001 still above, 1e-4 below -> 4 copies.
    EXPECT_EQ(RepairCopiesFor(10, 100, 5e-4, 6), 4u);
    // p = 0.05, target 0.05: one copy already meets it.
    EXPECT_EQ(RepairCopiesFor(5, 100, 0.05, 6), 1u);
    // p = 0.3, target 0.05: 0.3, 0.09, 0.027 -> 3 copies.
    EXPECT_EQ(RepairCopiesFor(30, 100, 0.05, 6), 3u);
    // p capped at 0.9 (all lost): 0.9^n <= 1e-3 needs n = 66, limited to most.
    EXPECT_EQ(RepairCopiesFor(100, 100, 1e-3, 6), 6u);
    EXPECT_EQ(RepairCopiesFor(100, 100, 1e-3, 1000), 66u);
    EXPECT_EQ(RepairCopiesFor(10, 100, 1e-3, 1), 1u); // most = 1: never more than one
}
