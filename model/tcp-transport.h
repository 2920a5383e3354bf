/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TCP_TRANSPORT_H
#define INTELLIGENT_NETWORK_TCP_TRANSPORT_H

#include "island-transport.h"

#include "ns3/data-rate.h"
#include "ns3/socket.h"
#include "ns3/tcp-header.h"
#include "ns3/traced-callback.h"
#include "ns3/type-id.h"

#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

class TcpSocketBase;
class RfcTimerTcpSocket;

/**
 * \ingroup intelligent-network
 * \brief Unicast messages over ns-3's own TCP (`--transport=tcp`).
 *
 * Each message is written to a TCP connection from this island to the receiver as a 28-byte
 * frame header (an IslandHeader: round, tag, payload length, number of values) followed by its
 * payload (the real values first, then opaque bytes). Connections persist across rounds by
 * default (the congestion window stays warm, as between the steps of a real job);
 * FreshConnections opens a new one per message (slow start every round). The congestion
 * control is ns-3's (CongestionControl: ns3::TcpNewReno, ns3::TcpCubic, ns3::TcpBbr,
 * ns3::TcpDctcp, ...), set on the node's TcpL4Protocol. Socket buffers default to the path's
 * bandwidth-delay product (SetBufferHints; SndBufSize / RcvBufSize override), segments to
 * SegmentSize (the helper sets MTU - 52: IPv4 + TCP with timestamps). Multicast and
 * aggregation cannot run over TCP: an island using this transport carries them over a UDP
 * transport (CcTransport) beside it.
 */
class TcpTransport : public IslandTransport
{
  public:
    /// Bytes of IPv4 (20) and TCP with its timestamp option (32) per segment: the default
    /// segment size is the MTU minus this.
    static constexpr uint32_t HEADER_BYTES = 52;

    static TypeId GetTypeId();
    TcpTransport();
    ~TcpTransport() override;

    /// Bandwidth-delay product of the path to each peer island (bytes).
    void SetBufferHints(const std::map<uint32_t, uint64_t>& bdpBytes);

    void Start() override;
    void Stop() override;
    uint64_t Send(const OutMessage& message) override;
    void Cancel(uint64_t handle) override;
    bool SupportsGroups() const override;
    Time LastProgress(uint64_t handle) const override;
    /// Bytes TCP sent again (segments whose sequence was sent before).
    uint64_t GetRetransmissions() const override;
    /// Connections opened so far.
    uint64_t GetConnectionsOpened() const;
    /// Retransmission timeouts ignored because nothing was outstanding (RetransmitTimer
    /// rfc6298; always 0 under ns3, whose sockets take them for losses).
    uint64_t GetIgnoredTimeouts() const;
    /// Connections that failed: a connection attempt that ran out of SYN retries
    /// (SynRetries), or a connection the socket dropped after DataRetries retransmission
    /// timeouts in a row without an ack.
    uint64_t GetConnectionsFailed() const;

    /// Signature of the ConnectionFailed trace: this island, the peer, the cause.
    typedef void (*ConnectionFailedCallback)(uint32_t island,
                                             uint32_t peer,
                                             const std::string& cause);

  protected:
    void DoDispose() override;

  private:
    struct Outgoing
    {
        uint64_t handle;
        OutMessage msg;
        std::vector<uint8_t> prefix; ///< Frame header and value bytes.
        uint64_t written = 0;        ///< Of prefix + payload beyond the values.
    };

    struct Connection
    {
        Ptr<Socket> socket;
        uint32_t peer = 0;
        bool connected = false;
        bool closeWhenDone = false;
        std::deque<Outgoing> queue;
        uint32_t highestTx = 0; ///< One past the highest sequence number sent.
        bool anyTx = false;
        uint32_t round = 0; ///< Round of the message being written (for statistics).
        uint32_t sndBuf = 0;     ///< The socket's SndBufSize.
        uint32_t peerWindow = 0; ///< The receive window the peer last advertised (RWND).
        bool windowCapped = false; ///< Pump stopped at the peer-window cap (see Pump).
    };

    struct Incoming
    {
        uint8_t header[28];
        uint32_t headerHave = 0;
        bool inBody = false;
        uint64_t bodyLeft = 0;
        uint64_t bodyDone = 0;
        uint64_t valueBytes = 0;
        bool accepted = false;
        std::vector<uint8_t> valueBuffer;
        InMessage msg;
    };

    Connection& Open(uint32_t peer, uint32_t round);
    Ptr<Socket> CreateTcpSocket();
    uint64_t Bdp(uint32_t peer) const;
    /// True if the congestion control cannot work without pacing (BBR).
    bool NeedsPacing() const;
    /// Dctcp: ECN on whatever Ecn says (DCTCP without ECN is NewReno-like, ignoring marks).
    bool NeedsEcn() const;
    void Pump(Connection& c);
    void OnConnected(Ptr<Socket> socket);
    void OnConnectFailed(Ptr<Socket> socket);
    /// The socket closed with an error (ns-3: DataRetries exhausted): messages on it can
    /// never arrive.
    void OnErrorClose(Ptr<Socket> socket);
    void ReportFailure(Ptr<Socket> socket, const std::string& cause);
    void OnSendReady(Ptr<Socket> socket, uint32_t available);
    bool OnConnectionRequest(Ptr<Socket> socket, const Address& from);
    void OnAccepted(Ptr<Socket> socket, const Address& from);
    void OnRecv(Ptr<Socket> socket);
    void Consume(Incoming& in, Ptr<Packet> packet);
    void OnTx(uint64_t id, Ptr<const Packet> packet, const TcpHeader& header);
    void OnPeerWindow(uint64_t id, uint32_t window);
    Connection* Find(Ptr<Socket> socket);

    uint16_t m_port;
    TypeId m_congestionControl;
    bool m_fresh;
    uint32_t m_sndBuf;
    uint32_t m_rcvBuf;
    double m_bufferFactor;
    uint32_t m_tcpSegmentSize;
    bool m_ecn;
    bool m_pacing;
    std::string m_retransmitTimer;                    ///< rfc6298 or ns3
    std::vector<Ptr<RfcTimerTcpSocket>> m_rfcSockets; ///< sockets made with rfc6298
    DataRate m_maxPacingRate;
    uint32_t m_dataRetries;
    uint32_t m_synRetries;
    uint64_t m_failed = 0;
    TracedCallback<uint32_t, uint32_t, const std::string&> m_connectionFailed;

    std::map<uint32_t, uint64_t> m_bdp;
    Ptr<Socket> m_listener;
    uint64_t m_nextHandle = 1;
    uint64_t m_nextConnection = 1;
    std::map<uint64_t, Connection> m_connections; ///< by connection id
    std::map<uint32_t, uint64_t> m_persistent;    ///< peer -> connection id (persistent mode)
    std::map<Ptr<Socket>, Incoming> m_incoming;
    uint64_t m_retransmittedBytes = 0;
    uint64_t m_opened = 0;
};

} // namespace ns3

#endif
