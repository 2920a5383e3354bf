/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rfc-timer-tcp-socket.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/rtt-estimator.h"
#include "ns3/simulator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-recovery-ops.h"
#include "ns3/tcp-tx-buffer.h"
#include "ns3/type-id.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RfcTimerTcpSocket");
NS_OBJECT_ENSURE_REGISTERED(RfcTimerTcpSocket);

TypeId
RfcTimerTcpSocket::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RfcTimerTcpSocket")
                            .SetParent<TcpSocketBase>()
                            .SetGroupName("IntelligentNetwork")
                            .AddConstructor<RfcTimerTcpSocket>();
    return tid;
}

Ptr<RfcTimerTcpSocket>
RfcTimerTcpSocket::Create(Ptr<Node> node)
{
    Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>();
    NS_ABORT_MSG_UNLESS(tcp, "node " << node->GetId() << " has no TCP");
    auto factoryOf = [&tcp](const std::string& attribute) {
        TypeIdValue type;
        tcp->GetAttribute(attribute, type);
        ObjectFactory factory;
        factory.SetTypeId(type.Get());
        return factory;
    };
    Ptr<RfcTimerTcpSocket> socket = CreateObject<RfcTimerTcpSocket>();
    socket->SetNode(node);
    socket->SetTcp(tcp);
    socket->SetRtt(factoryOf("RttEstimatorType").Create<RttEstimator>());
    socket->SetCongestionControlAlgorithm(factoryOf("SocketType").Create<TcpCongestionOps>());
    socket->SetRecoveryAlgorithm(factoryOf("RecoveryType").Create<TcpRecoveryOps>());
    tcp->AddSocket(socket);
    return socket;
}

uint64_t
RfcTimerTcpSocket::GetIgnoredTimeouts() const
{
    return m_ignoredTimeouts;
}

void
RfcTimerTcpSocket::ReTxTimeout()
{
    bool idle = m_txBuffer->HeadSequence() >= m_tcb->m_highTxMark.Get();
    if ((m_state == ESTABLISHED || m_state == CLOSE_WAIT) && idle && m_txBuffer->Size() > 0)
    {
        // Nothing outstanding: the data waits for the pacer, not for an acknowledgement.
        NS_LOG_LOGIC(this << " timeout at " << Simulator::Now().As(Time::S)
                          << " with nothing outstanding: ignored");
        ++m_ignoredTimeouts;
        SendPendingData(m_connected);
        return;
    }
    TcpSocketBase::ReTxTimeout();
}

Ptr<TcpSocketBase>
RfcTimerTcpSocket::Fork()
{
    return CopyObject<RfcTimerTcpSocket>(this);
}

} // namespace ns3
