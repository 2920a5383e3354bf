/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_PARITY_REPAIR_H
#define INTELLIGENT_NETWORK_PARITY_REPAIR_H

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Multicast loss recovery by parity segments: the sender side of an erasure code over
 * blocks of data segments, and its decode rule. Pure C++.
 *
 * The segments of a message are grouped in blocks of Block() consecutive segments (the last
 * block may be shorter). A receiver that lost different segments than another one is repaired
 * by the same parity segment: resending each missing segment costs one copy per (receiver,
 * loss), a parity segment repairs one loss at every receiver that misses one of its block.
 *
 * The code is modelled as an ideal MDS (Reed-Solomon-like) erasure code: any k parity
 * segments of a block recover any k missing data segments of it (Decodable). This idealises
 * the code's arithmetic only; the parity segments themselves are real packets of full segment
 * size.
 *
 * Sender: receivers' acks tell, per block, how many data segments each one misses and how
 * many parity segments of the block it already holds (Report). The parity due for a block
 * (Due) is, over its receivers, the largest number still needed (missing - held) raised so
 * that the repair suffices with probability >= the confidence given the receiver's loss
 * (Needed: a binomial tail), minus the parity of the block already in flight to that receiver
 * (sent after the packet its report answers: InFlight).
 *
 * A per-block target alone leaves a fraction (1 - confidence) of the blocks to another round
 * trip at every round: over the hundreds of blocks of a large message and its receivers some
 * block needs four or five round trips of repair. Hence two rules. A repair that failed is
 * sent again with a stricter target (Confidence): after k failed repairs of a block at a
 * receiver (every parity of the block sent so far has reached it or was lost and it still
 * misses segments, or a timeout found the parity in flight overdue: OnTimeout) the next one
 * suffices with probability >= 1 - (1 - confidence)^(k+1) (0.9, 0.99, 0.999 ...), as unicast
 * resends double their copies per repair round. And where the repairs must all succeed at
 * once (the caller says how many: after the last new segment nothing follows them to reveal a
 * failure but a timeout), the failure probability allowed is shared among them (Due's
 * jointly): the whole repair suffices with probability >= the confidence.
 */
class ParityRepair
{
  public:
    /// \p count segments in blocks of \p block (>= 1); \p confidence in [0, 1).
    ParityRepair(uint32_t count, uint32_t block, double confidence);

    uint32_t Block() const;
    uint32_t Blocks() const;
    uint32_t BlockOf(uint32_t seq) const;
    uint32_t BlockStart(uint32_t block) const;
    /// Data segments of \p block (Block(), or fewer for the last one).
    uint32_t BlockSize(uint32_t block) const;

    /// Decode rule: a receiver holding \p received of the \p size data segments of a block and
    /// \p parity distinct parity segments of it recovers the missing ones iff
    /// received + parity >= size.
    static bool Decodable(uint32_t size, uint32_t received, uint32_t parity);
    /// Probability that at least \p missing of \p sent parity segments arrive when each is lost
    /// independently with probability \p loss (the tail of a binomial).
    static double Sufficient(uint32_t sent, uint32_t missing, double loss);
    /// The fewest parity segments n >= \p missing with Sufficient(n, missing, loss) >=
    /// \p confidence (loss taken in [0, 0.5]; at most 4 missing + 16).
    static uint32_t Needed(uint32_t missing, double loss, double confidence);
    /// Target of a block's repair at a receiver after \p failed failed repairs of it:
    /// 1 - (1 - \p confidence)^(failed + 1) (\p confidence itself first; 0 stays 0).
    static double Confidence(double confidence, uint32_t failed);

    /// Loss estimate of the path to \p receiver: \p lost of \p described data segments missed
    /// at their first complete report.
    void SampleLoss(uint32_t receiver, uint32_t lost, uint32_t described);
    /// Estimated loss to \p receiver (0 without samples), in [0, 0.5].
    double Loss(uint32_t receiver) const;

    /// An ack of \p receiver, sent on receipt of a packet sent at \p echo, says it misses
    /// \p missing data segments of \p block and holds \p held parity segments of it. Older
    /// reports than the last one of that receiver for that block are ignored. A report of a
    /// need with no parity of the block in flight after \p echo, though some was sent since
    /// the last failure counted, counts a failed repair (Failures).
    void Report(uint32_t receiver, uint32_t block, uint32_t missing, uint32_t held, double echo);
    /// Failed repairs of \p block at \p receiver so far (0 once it needs nothing).
    uint32_t Failures(uint32_t receiver, uint32_t block) const;
    /// Parity segments of \p block to send now (0 if enough are in flight). Parity sent
    /// before \p lostBefore counts as lost whatever the reports say (a timeout: its acks are
    /// overdue). \p jointly: the repair of each need is one of that many that must all
    /// succeed at once (after the last new segment, every pending need: Needs()), and the
    /// failure probability allowed is shared among them: (1 - Confidence) / jointly.
    uint32_t Due(uint32_t block, double lostBefore = -1e300, uint32_t jointly = 1) const;
    /// A timeout: parity of \p block sent before \p lostBefore and after the packet a
    /// receiver's last report answers is lost, one more failed repair there (Failures).
    void OnTimeout(uint32_t block, double lostBefore);
    /// (block, receiver) pairs still needing parity.
    uint32_t Needs() const;
    /// Blocks some receiver still needs parity of.
    std::vector<uint32_t> Pending() const;
    /// A parity segment of \p block sent at \p now.
    void OnSent(uint32_t block, double now);
    /// Parity segments of \p block sent after \p since (still travelling towards a receiver
    /// whose report answers a packet sent at \p since).
    uint32_t InFlight(uint32_t block, double since) const;
    /// Parity segments sent so far.
    uint64_t Sent() const;

  private:
    struct Need
    {
        uint32_t count = 0;     ///< missing - held
        double echo = 0;        ///< send time of the packet the last report answers
        uint32_t failures = 0;  ///< failed repairs of the block at the receiver
        double judged = -1e300; ///< parity sent up to here was counted in a failure
    };

    uint32_t m_count;
    uint32_t m_block;
    double m_confidence;
    std::map<uint32_t, std::map<uint32_t, Need>> m_needs; ///< block -> receiver -> need
    std::map<uint32_t, std::vector<double>> m_sentAt;     ///< block -> parity send times
    std::map<uint32_t, std::pair<uint64_t, uint64_t>> m_loss; ///< receiver -> lost, described
    uint64_t m_sent = 0;
    uint32_t m_needCount = 0; ///< entries of m_needs' inner maps
};

} // namespace ns3

#endif
