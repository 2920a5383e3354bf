/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tcp-transport.h"

#include "rfc-timer-tcp-socket.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpTransport");
NS_OBJECT_ENSURE_REGISTERED(TcpTransport);

namespace
{
constexpr uint32_t kFrameHeaderBytes = IslandHeader::SERIALIZED_SIZE;
/// Smallest and largest socket buffer the BDP rule may give.
constexpr uint64_t kMinBuffer = 131072;
constexpr uint64_t kMaxBuffer = 2000000000;
} // namespace

TypeId
TcpTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TcpTransport")
            .SetParent<IslandTransport>()
            .SetGroupName("IntelligentNetwork")
            .AddConstructor<TcpTransport>()
            .AddAttribute("Port",
                          "TCP port the islands listen on.",
                          UintegerValue(9200),
                          MakeUintegerAccessor(&TcpTransport::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("CongestionControl",
                          "ns-3 TCP congestion control (TcpL4Protocol::SocketType of the node).",
                          TypeIdValue(TypeId::LookupByName("ns3::TcpCubic")),
                          MakeTypeIdAccessor(&TcpTransport::m_congestionControl),
                          MakeTypeIdChecker())
            .AddAttribute("FreshConnections",
                          "Open a new connection for every message (slow start every round) "
                          "instead of keeping one per peer across rounds.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&TcpTransport::m_fresh),
                          MakeBooleanChecker())
            .AddAttribute("SndBufSize",
                          "Send buffer, bytes (0: the path's bandwidth-delay product).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TcpTransport::m_sndBuf),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("BufferFactor",
                          "Default socket buffers = this x the path's bandwidth-delay product. "
                          "Under a two-way exchange each direction's acks queue behind the "
                          "other's bursts, so buffers of one BDP leave the pipe partly empty "
                          "(ns-3's TCP as raw BulkSend does: 6.6 of 10 Gbps at 10 ms, 64 KB "
                          "segments); larger factors fill more of it.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&TcpTransport::m_bufferFactor),
                          MakeDoubleChecker<double>(0.1, 100))
            .AddAttribute("RcvBufSize",
                          "Receive buffer, bytes (0: the largest bandwidth-delay product of "
                          "the island's paths).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TcpTransport::m_rcvBuf),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SegmentSize",
                          "TCP maximum segment size, bytes (0: the island's MTU - 52, i.e. "
                          "IPv4 and TCP headers with timestamps).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TcpTransport::m_tcpSegmentSize),
                          MakeUintegerChecker<uint32_t>(0, 65483))
            .AddAttribute("MaxPacingRate",
                          "Largest pacing rate of a socket (ns-3's own default, 4 Gbit/s, is "
                          "below a 10G link).",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&TcpTransport::m_maxPacingRate),
                          MakeDataRateChecker())
            .AddAttribute("Ecn",
                          "Negotiate ECN (needed by DCTCP; useful with a marking queue).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&TcpTransport::m_ecn),
                          MakeBooleanChecker())
            .AddAttribute("RetransmitTimer",
                          "When the retransmission timer runs: ns3 (ns-3 3.37's TcpSocketBase as "
                          "shipped: also while paced data waits unsent with nothing in flight, "
                          "and its expiry is taken for a loss) or rfc6298 (only while data is "
                          "outstanding, RFC 6298 5.2: RfcTimerTcpSocket). Matters only for "
                          "paced sockets (Bbr, Pacing); see doc/intelligent-network.rst, 'tcp "
                          "Bbr'.",
                          StringValue("ns3"),
                          MakeStringAccessor(&TcpTransport::m_retransmitTimer),
                          MakeStringChecker())
            .AddAttribute("DataRetries",
                          "Retransmission timeouts in a row without an ack after which a "
                          "connection is given up (ns3::TcpSocket::DataRetries; ns-3's own "
                          "default is 6, Linux's tcp_retries2 15). A connection given up ends "
                          "the run INCOMPLETE with the cause (trace ConnectionFailed).",
                          UintegerValue(15),
                          MakeUintegerAccessor(&TcpTransport::m_dataRetries),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("SynRetries",
                          "Connection attempts (SYNs) before a connection is given up "
                          "(ns3::TcpSocket::ConnCount; Linux's tcp_syn_retries is 6).",
                          UintegerValue(6),
                          MakeUintegerAccessor(&TcpTransport::m_synRetries),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddTraceSource("ConnectionFailed",
                            "A connection failed: it ran out of SYN retries, or the socket "
                            "gave it up after DataRetries timeouts in a row (island, peer, "
                            "cause). Its messages can never arrive.",
                            MakeTraceSourceAccessor(&TcpTransport::m_connectionFailed),
                            "ns3::TcpTransport::ConnectionFailedCallback")
            .AddAttribute("Pacing",
                          "Pace segments at the congestion control's rate (always on under ns3::TcpBbr, "
                          "which needs it).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&TcpTransport::m_pacing),
                          MakeBooleanChecker());
    return tid;
}

TcpTransport::TcpTransport() = default;
TcpTransport::~TcpTransport() = default;

void
TcpTransport::DoDispose()
{
    m_listener = nullptr;
    m_connections.clear();
    m_incoming.clear();
    m_rfcSockets.clear();
    IslandTransport::DoDispose();
}

void
TcpTransport::SetBufferHints(const std::map<uint32_t, uint64_t>& bdpBytes)
{
    m_bdp = bdpBytes;
}

uint64_t
TcpTransport::Bdp(uint32_t peer) const
{
    auto it = m_bdp.find(peer);
    double b = it == m_bdp.end() ? kMinBuffer : m_bufferFactor * static_cast<double>(it->second);
    return std::clamp<uint64_t>(static_cast<uint64_t>(b), kMinBuffer, kMaxBuffer);
}

bool
TcpTransport::NeedsPacing() const
{
    return m_congestionControl.GetName() == "ns3::TcpBbr";
}

bool
TcpTransport::NeedsEcn() const
{
    // ns-3's TcpDctcp turns ECN on in its Init; a socket told Off afterwards ignores the marks
    // DCTCP reacts to.
    return m_congestionControl.GetName() == "ns3::TcpDctcp";
}

bool
TcpTransport::SupportsGroups() const
{
    return false;
}

Time
TcpTransport::LastProgress(uint64_t) const
{
    return Simulator::Now();
}

uint64_t
TcpTransport::GetRetransmissions() const
{
    return m_retransmittedBytes;
}

uint64_t
TcpTransport::GetConnectionsOpened() const
{
    return m_opened;
}

uint64_t
TcpTransport::GetIgnoredTimeouts() const
{
    uint64_t n = 0;
    for (const auto& s : m_rfcSockets)
    {
        n += s->GetIgnoredTimeouts();
    }
    return n;
}

void
TcpTransport::Start()
{
    if (m_listener)
    {
        return;
    }
    Ptr<TcpL4Protocol> tcp = m_node->GetObject<TcpL4Protocol>();
    NS_ABORT_MSG_UNLESS(tcp, "island " << m_islandId << ": the node has no TCP");
    NS_ABORT_MSG_UNLESS(m_retransmitTimer == "rfc6298" || m_retransmitTimer == "ns3",
                        "ns3::TcpTransport::RetransmitTimer: '" << m_retransmitTimer
                                                                << "' is not rfc6298 or ns3");
    tcp->SetAttribute("SocketType", TypeIdValue(m_congestionControl));
    if (m_tcpSegmentSize == 0)
    {
        // MTU - 52 of the island's first point-to-point device.
        uint32_t mtu = 1500;
        for (uint32_t d = 0; d < m_node->GetNDevices(); ++d)
        {
            if (DynamicCast<PointToPointNetDevice>(m_node->GetDevice(d)))
            {
                mtu = m_node->GetDevice(d)->GetMtu();
                break;
            }
        }
        m_tcpSegmentSize = mtu - HEADER_BYTES;
    }
    m_listener = CreateTcpSocket();
    uint64_t rcv = m_rcvBuf;
    if (rcv == 0)
    {
        for (const auto& [peer, bdp] : m_bdp)
        {
            rcv = std::max(rcv, Bdp(peer));
        }
        rcv = std::max(rcv, kMinBuffer);
    }
    m_listener->SetAttribute("RcvBufSize", UintegerValue(rcv));
    m_listener->SetAttribute("SndBufSize", UintegerValue(kMinBuffer));
    m_listener->SetAttribute("SegmentSize", UintegerValue(m_tcpSegmentSize));
    if (auto base = DynamicCast<TcpSocketBase>(m_listener))
    {
        base->SetUseEcn(m_ecn || NeedsEcn() ? TcpSocketState::On : TcpSocketState::Off);
        base->SetPacingStatus(m_pacing || NeedsPacing());
    }
    NS_ABORT_MSG_IF(m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                    "island " << m_islandId << ": cannot bind TCP port " << m_port);
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeCallback(&TcpTransport::OnConnectionRequest, this),
                                  MakeCallback(&TcpTransport::OnAccepted, this));
}

void
TcpTransport::Stop()
{
    for (auto& [id, c] : m_connections)
    {
        if (c.socket)
        {
            c.socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
            c.socket->Close();
        }
    }
    m_connections.clear();
    m_persistent.clear();
    for (auto& [socket, in] : m_incoming)
    {
        socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        socket->Close();
    }
    m_incoming.clear();
    if (m_listener)
    {
        m_listener->Close();
        m_listener = nullptr;
    }
}

Ptr<Socket>
TcpTransport::CreateTcpSocket()
{
    // The socket's TcpSocketState takes MaxPacingRate from the attribute default when it is
    // created: set it for this socket only, then restore what was there.
    TypeId state = TypeId::LookupByName("ns3::TcpSocketState");
    TypeId::AttributeInformation info;
    NS_ABORT_UNLESS(state.LookupAttributeByName("MaxPacingRate", &info));
    Ptr<const AttributeValue> previous = info.initialValue;
    Config::SetDefault("ns3::TcpSocketState::MaxPacingRate", DataRateValue(m_maxPacingRate));
    Ptr<Socket> s;
    if (m_retransmitTimer == "rfc6298")
    {
        Ptr<RfcTimerTcpSocket> rfc = RfcTimerTcpSocket::Create(m_node);
        m_rfcSockets.push_back(rfc);
        s = rfc;
    }
    else
    {
        s = Socket::CreateSocket(m_node, TcpSocketFactory::GetTypeId());
    }
    Config::SetDefault("ns3::TcpSocketState::MaxPacingRate", *previous);
    return s;
}

TcpTransport::Connection&
TcpTransport::Open(uint32_t peer, uint32_t round)
{
    if (!m_fresh)
    {
        auto it = m_persistent.find(peer);
        if (it != m_persistent.end())
        {
            return m_connections.at(it->second);
        }
    }
    uint64_t id = m_nextConnection++;
    Connection& c = m_connections[id];
    c.peer = peer;
    c.round = round;
    c.closeWhenDone = m_fresh;
    c.socket = CreateTcpSocket();
    uint64_t snd = m_sndBuf ? m_sndBuf : Bdp(peer);
    snd = std::min<uint64_t>(snd, UINT32_MAX);
    c.socket->SetAttribute("SndBufSize", UintegerValue(snd));
    c.socket->SetAttribute("RcvBufSize", UintegerValue(kMinBuffer));
    c.socket->SetAttribute("SegmentSize", UintegerValue(m_tcpSegmentSize));
    c.socket->SetAttribute("DataRetries", UintegerValue(m_dataRetries));
    c.socket->SetAttribute("ConnCount", UintegerValue(m_synRetries));
    c.sndBuf = static_cast<uint32_t>(snd);
    if (auto base = DynamicCast<TcpSocketBase>(c.socket))
    {
        base->SetUseEcn(m_ecn || NeedsEcn() ? TcpSocketState::On : TcpSocketState::Off);
        base->SetPacingStatus(m_pacing || NeedsPacing());
        base->TraceConnectWithoutContext(
            "Tx",
            Callback<void, Ptr<const Packet>, const TcpHeader&, Ptr<const TcpSocketBase>>(
                [this, id](Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>) {
                    OnTx(id, p, h);
                }));
        base->TraceConnectWithoutContext(
            "RWND",
            Callback<void, uint32_t, uint32_t>(
                [this, id](uint32_t, uint32_t window) { OnPeerWindow(id, window); }));
    }
    NS_ABORT_MSG_IF(c.socket->Bind() != 0, "island " << m_islandId << ": cannot bind TCP");
    c.socket->SetConnectCallback(MakeCallback(&TcpTransport::OnConnected, this),
                                 MakeCallback(&TcpTransport::OnConnectFailed, this));
    c.socket->SetSendCallback(MakeCallback(&TcpTransport::OnSendReady, this));
    c.socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                MakeCallback(&TcpTransport::OnErrorClose, this));
    c.socket->Connect(InetSocketAddress(m_directory.at(peer), m_port));
    ++m_opened;
    if (!m_fresh)
    {
        m_persistent[peer] = id;
    }
    return c;
}

TcpTransport::Connection*
TcpTransport::Find(Ptr<Socket> socket)
{
    for (auto& [id, c] : m_connections)
    {
        if (c.socket == socket)
        {
            return &c;
        }
    }
    return nullptr;
}

uint64_t
TcpTransport::Send(const OutMessage& message)
{
    NS_ABORT_MSG_IF(message.type != IslandHeader::DATA || message.dest.IsMulticast() ||
                        message.receivers.size() != 1,
                    "island " << m_islandId << ": TCP carries unicast messages only");
    NS_ABORT_MSG_IF(message.values.count > 0 && message.values.fixedPoint,
                    "island " << m_islandId << ": TCP carries doubles only");
    Outgoing o;
    o.handle = m_nextHandle++;
    o.msg = message;
    uint64_t valueBytes =
        std::min<uint64_t>(static_cast<uint64_t>(message.values.count) * 8, message.bytes);
    IslandHeader h;
    h.type = IslandHeader::DATA;
    h.flags = message.flags | (valueBytes ? IslandHeader::FLAG_VALUES : 0);
    h.island = static_cast<uint16_t>(m_islandId);
    h.origin = static_cast<uint16_t>(m_islandId);
    h.extra = message.tag;
    h.round = message.round;
    h.seq = static_cast<uint32_t>(message.bytes & 0xFFFFFFFFu);
    h.count = static_cast<uint32_t>(message.bytes >> 32);
    h.timestamp = valueBytes / 8;
    Buffer buffer;
    buffer.AddAtStart(kFrameHeaderBytes);
    h.Serialize(buffer.Begin());
    o.prefix.resize(kFrameHeaderBytes + valueBytes);
    buffer.CopyData(o.prefix.data(), kFrameHeaderBytes);
    if (valueBytes)
    {
        std::memcpy(o.prefix.data() + kFrameHeaderBytes,
                    message.values.data->data() + message.values.offset, valueBytes);
    }
    Connection& c = Open(message.receivers.front(), message.round);
    c.queue.push_back(std::move(o));
    uint64_t handle = c.queue.back().handle;
    Pump(c);
    return handle;
}

void
TcpTransport::Cancel(uint64_t handle)
{
    // A message not yet started is dropped; one being written cannot be taken back.
    for (auto& [id, c] : m_connections)
    {
        for (auto it = c.queue.begin(); it != c.queue.end(); ++it)
        {
            if (it->handle == handle && it->written == 0)
            {
                c.queue.erase(it);
                return;
            }
        }
    }
}

void
TcpTransport::OnConnected(Ptr<Socket> socket)
{
    Connection* c = Find(socket);
    if (c)
    {
        c->connected = true;
        Pump(*c);
    }
}

void
TcpTransport::OnConnectFailed(Ptr<Socket> socket)
{
    ReportFailure(socket,
                  "no answer to " + std::to_string(m_synRetries) +
                      " connection attempts (ns3::TcpTransport::SynRetries)");
}

void
TcpTransport::OnErrorClose(Ptr<Socket> socket)
{
    ReportFailure(socket,
                  "given up by the socket after " + std::to_string(m_dataRetries) +
                      " retransmission timeouts in a row without an ack "
                      "(ns3::TcpTransport::DataRetries)");
}

void
TcpTransport::ReportFailure(Ptr<Socket> socket, const std::string& cause)
{
    Connection* c = Find(socket);
    const uint32_t peer = c ? c->peer : 0;
    ++m_failed;
    NS_LOG_WARN("island " << m_islandId << ": TCP connection to island " << peer
                          << " failed: " << cause);
    if (c)
    {
        c->connected = false; // nothing more is written to it
    }
    m_connectionFailed(m_islandId, peer, cause);
}

uint64_t
TcpTransport::GetConnectionsFailed() const
{
    return m_failed;
}

void
TcpTransport::OnSendReady(Ptr<Socket> socket, uint32_t)
{
    Connection* c = Find(socket);
    if (c)
    {
        Pump(*c);
    }
}

void
TcpTransport::Pump(Connection& c)
{
    if (!c.connected || !c.socket)
    {
        return;
    }
    while (!c.queue.empty())
    {
        Outgoing& o = c.queue.front();
        c.round = o.msg.round;
        uint64_t valueBytes = o.prefix.size() - kFrameHeaderBytes;
        uint64_t total = kFrameHeaderBytes + o.msg.bytes;
        uint32_t room = c.socket->GetTxAvailable();
        // Work-around for ns-3 3.37 (TcpTxBuffer::NextSeg, rule 2, tests sent <= rWnd instead
        // of sent < rWnd): when the bytes sent and not yet acknowledged equal the peer's
        // receive window exactly while SACKed bytes leave AvailableWindow() > 0, NextSeg
        // returns an empty range, SendPendingData sends a segment of 0 bytes, CopyFromSequence
        // returns nullptr and TcpRateLinux::SkbSent dereferences it (segfault). A persistent
        // connection with a warm window larger than the peer's window reaches that state in
        // loss recovery. ns-3-dev's NextSeg tests sent < rWnd. Keeping fewer bytes in the
        // socket than the peer's window (sent <= buffered < rWnd) makes equality impossible;
        // the rest waits in our queue, which changes nothing on the wire: TCP cannot have more
        // than the peer's window in flight anyway.
        uint32_t buffered = c.sndBuf > room ? c.sndBuf - room : 0;
        uint32_t limit = c.peerWindow > 0 ? c.peerWindow - 1 : 0;
        c.windowCapped = buffered + room > limit;
        room = buffered >= limit ? 0 : std::min(room, limit - buffered);
        if (room == 0)
        {
            return;
        }
        uint64_t n = std::min<uint64_t>(total - o.written, room);
        Ptr<Packet> p;
        if (o.written < o.prefix.size())
        {
            uint64_t real = std::min<uint64_t>(n, o.prefix.size() - o.written);
            p = Create<Packet>(o.prefix.data() + o.written, static_cast<uint32_t>(real));
            if (n > real)
            {
                p->AddAtEnd(Create<Packet>(static_cast<uint32_t>(n - real)));
            }
        }
        else
        {
            p = Create<Packet>(static_cast<uint32_t>(n));
        }
        int sent = c.socket->Send(p);
        if (sent <= 0)
        {
            return;
        }
        uint64_t headerPart = o.written < kFrameHeaderBytes
                                  ? std::min<uint64_t>(kFrameHeaderBytes - o.written, n)
                                  : 0;
        o.written += static_cast<uint64_t>(sent);
        if (m_sent && n > headerPart)
        {
            m_sent(o.msg.round, o.msg.tag, 0, static_cast<uint32_t>(n - headerPart), false);
        }
        (void)valueBytes;
        if (o.written >= total)
        {
            c.queue.pop_front();
        }
    }
    if (c.closeWhenDone)
    {
        c.socket->Close(); // FIN after the queued data
        c.closeWhenDone = false;
    }
}

void
TcpTransport::OnPeerWindow(uint64_t id, uint32_t window)
{
    auto it = m_connections.find(id);
    if (it == m_connections.end())
    {
        return;
    }
    Connection& c = it->second;
    bool grew = window > c.peerWindow;
    c.peerWindow = window;
    if (grew && c.windowCapped)
    {
        // Called inside the socket's ack processing: write once it has finished.
        Simulator::ScheduleNow([this, id]() {
            auto it = m_connections.find(id);
            if (it != m_connections.end())
            {
                Pump(it->second);
            }
        });
    }
}

void
TcpTransport::OnTx(uint64_t id, Ptr<const Packet> packet, const TcpHeader& header)
{
    uint32_t size = packet->GetSize();
    if (size == 0)
    {
        return;
    }
    auto it = m_connections.find(id);
    if (it != m_connections.end())
    {
        Connection& c = it->second;
        uint32_t seq = header.GetSequenceNumber().GetValue();
        uint32_t end = seq + size;
        if (c.anyTx && static_cast<int32_t>(seq - c.highestTx) < 0)
        {
            uint32_t again = static_cast<int32_t>(end - c.highestTx) > 0 ? c.highestTx - seq : size;
            m_retransmittedBytes += again;
            if (m_sent)
            {
                m_sent(c.round, 0, 0, again, true);
            }
        }
        if (!c.anyTx || static_cast<int32_t>(end - c.highestTx) > 0)
        {
            c.highestTx = end;
            c.anyTx = true;
        }
        return;
    }
}

bool
TcpTransport::OnConnectionRequest(Ptr<Socket>, const Address&)
{
    return true;
}

void
TcpTransport::OnAccepted(Ptr<Socket> socket, const Address&)
{
    m_incoming[socket] = Incoming();
    socket->SetRecvCallback(MakeCallback(&TcpTransport::OnRecv, this));
}

void
TcpTransport::OnRecv(Ptr<Socket> socket)
{
    auto it = m_incoming.find(socket);
    if (it == m_incoming.end())
    {
        return;
    }
    // At most one segment per read: ns-3's TcpRxBuffer::Extract builds a read by appending
    // segment after segment to one packet (Packet::AddAtEnd), and an append of real bytes
    // copies the whole packet built so far. Reading all that is readable at once (Recv()'s
    // default) made that quadratic in the bytes a repaired loss releases together (tens of
    // MB in loss recovery); one segment per read copies each byte once. The bytes and the
    // simulated times are the same either way. (Start set the segment size before any socket.)
    Ptr<Packet> packet;
    while ((packet = socket->Recv(m_tcpSegmentSize, 0)))
    {
        if (packet->GetSize() == 0)
        {
            break;
        }
        Consume(it->second, packet);
    }
}

void
TcpTransport::Consume(Incoming& in, Ptr<Packet> packet)
{
    uint32_t size = packet->GetSize();
    uint32_t offset = 0;
    while (offset < size)
    {
        if (!in.inBody)
        {
            uint32_t n = std::min<uint32_t>(kFrameHeaderBytes - in.headerHave, size - offset);
            packet->CreateFragment(offset, n)->CopyData(in.header + in.headerHave, n);
            in.headerHave += n;
            offset += n;
            if (in.headerHave < kFrameHeaderBytes)
            {
                return;
            }
            Buffer buffer;
            buffer.AddAtStart(kFrameHeaderBytes);
            buffer.Begin().Write(in.header, kFrameHeaderBytes);
            IslandHeader h;
            h.Deserialize(buffer.Begin());
            in.inBody = true;
            in.bodyLeft = (static_cast<uint64_t>(h.count) << 32) | h.seq;
            in.bodyDone = 0;
            in.valueBytes = std::min<uint64_t>(h.timestamp * 8, in.bodyLeft);
            in.valueBuffer.assign(in.valueBytes, 0);
            in.msg = InMessage();
            in.msg.round = h.round;
            in.msg.tag = h.extra;
            in.msg.origin = h.origin;
            in.msg.type = IslandHeader::DATA;
            in.msg.flags = h.flags;
            in.accepted = m_accept && m_accept(h.round, h.origin, h.extra, h.type, h.flags);
        }
        uint64_t n = std::min<uint64_t>(in.bodyLeft, size - offset);
        if (in.bodyDone < in.valueBytes)
        {
            uint64_t take = std::min<uint64_t>(n, in.valueBytes - in.bodyDone);
            packet->CreateFragment(offset, static_cast<uint32_t>(take))
                ->CopyData(in.valueBuffer.data() + in.bodyDone, static_cast<uint32_t>(take));
        }
        if (m_received && in.accepted && n > 0)
        {
            m_received(in.msg.round, in.msg.origin, 0, static_cast<uint32_t>(n),
                       packet->CreateFragment(offset, static_cast<uint32_t>(n)));
        }
        in.bodyDone += n;
        in.bodyLeft -= n;
        in.msg.bytes += n;
        offset += static_cast<uint32_t>(n);
        if (in.bodyLeft == 0)
        {
            in.msg.values.resize(in.valueBytes / 8);
            if (in.valueBytes)
            {
                std::memcpy(in.msg.values.data(), in.valueBuffer.data(), in.valueBytes);
            }
            in.inBody = false;
            in.headerHave = 0;
            in.valueBuffer.clear();
            if (in.accepted)
            {
                InMessage msg = std::move(in.msg);
                in.msg = InMessage();
                m_deliver(msg);
            }
        }
    }
}

} // namespace ns3
