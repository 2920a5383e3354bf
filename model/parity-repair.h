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

    /// Loss estimate of the path to \p receiver: \p lost of \p described data segments missed
    /// at their first complete report.
    void SampleLoss(uint32_t receiver, uint32_t lost, uint32_t described);
    /// Estimated loss to \p receiver (0 without samples), in [0, 0.5].
    double Loss(uint32_t receiver) const;

    /// An ack of \p receiver, sent on receipt of a packet sent at \p echo, says it misses
    /// \p missing data segments of \p block and holds \p held parity segments of it. Older
    /// reports than the last one of that receiver for that block are ignored.
    void Report(uint32_t receiver, uint32_t block, uint32_t missing, uint32_t held, double echo);
    /// Parity segments of \p block to send now (0 if enough are in flight). Parity sent
    /// before \p lostBefore counts as lost whatever the reports say (a timeout: its acks are
    /// overdue).
    uint32_t Due(uint32_t block, double lostBefore = -1e300) const;
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
        uint32_t count = 0; ///< missing - held
        double echo = 0;
    };

    uint32_t m_count;
    uint32_t m_block;
    double m_confidence;
    std::map<uint32_t, std::map<uint32_t, Need>> m_needs; ///< block -> receiver -> need
    std::map<uint32_t, std::vector<double>> m_sentAt;     ///< block -> parity send times
    std::map<uint32_t, std::pair<uint64_t, uint64_t>> m_loss; ///< receiver -> lost, described
    uint64_t m_sent = 0;
};

} // namespace ns3

#endif
