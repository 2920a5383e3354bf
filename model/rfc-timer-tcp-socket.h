/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_RFC_TIMER_TCP_SOCKET_H
#define INTELLIGENT_NETWORK_RFC_TIMER_TCP_SOCKET_H

#include "ns3/tcp-socket-base.h"

namespace ns3
{

class Node;

/**
 * \ingroup intelligent-network
 * \brief ns-3's TcpSocketBase with a retransmission timer that runs only while data is
 * outstanding (RFC 6298, section 5.2).
 *
 * ns-3 3.37's TcpSocketBase re-arms the retransmission timer on every new acknowledgement
 * while its send buffer holds data, even when every byte sent has been acknowledged and the
 * rest waits, unsent, for the pacing timer. When pacing holds a segment longer than the RTO
 * (BBR at a low pacing rate; any paced socket under a low MaxPacingRate), the timer expires
 * with nothing in flight and ReTxTimeout treats it as a loss: the congestion window falls to
 * one segment, the state to CA_LOSS, and the next segment leaves at once, sent by the timer
 * instead of the pacer. Under BBR every delivery-rate sample then spans a timeout, the
 * bandwidth estimate stays below one segment per RTO and each segment is sent by another
 * spurious timeout: a self-sustaining stall (doc/intelligent-network.rst, "tcp Bbr").
 *
 * This socket ignores a timeout that fires while established with nothing outstanding
 * (HeadSequence >= HighTxMark) and lets the pacer send the waiting data; the timer is armed
 * again by the next data segment sent, as RFC 6298 (5.1) says. Every other timeout (data
 * outstanding, connection set-up and tear-down) is ns-3's own ReTxTimeout. Create it with
 * Create(), which builds it as TcpL4Protocol::CreateSocket builds a TcpSocketBase (the node's
 * SocketType, RecoveryType and RttEstimatorType).
 */
class RfcTimerTcpSocket : public TcpSocketBase
{
  public:
    static TypeId GetTypeId();
    RfcTimerTcpSocket() = default;
    RfcTimerTcpSocket(const RfcTimerTcpSocket& sock) = default;

    /// A new socket on \p node's TcpL4Protocol, registered with it (as CreateSocket does).
    static Ptr<RfcTimerTcpSocket> Create(Ptr<Node> node);

    /// Timeouts this socket ignored because nothing was outstanding.
    uint64_t GetIgnoredTimeouts() const;

  protected:
    void ReTxTimeout() override;
    Ptr<TcpSocketBase> Fork() override;

  private:
    uint64_t m_ignoredTimeouts{0};
};

} // namespace ns3

#endif
