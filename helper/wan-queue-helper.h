/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_WAN_QUEUE_HELPER_H
#define INTELLIGENT_NETWORK_WAN_QUEUE_HELPER_H

#include "wan-network.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Egress queues of every device of a WanNetwork: the queue discipline (ns-3
 * traffic-control) and the queue size.
 *
 * - `none`: no queue discipline; each device's own drop-tail queue holds QueueSize packets
 *   (WanNetworkHelper creates it);
 * - `pfifo`: a FIFO queue disc (ns3::FifoQueueDisc) of QueueSize packets;
 * - `red-ecn`: RED (ns3::RedQueueDisc) marking ECN-capable packets instead of dropping them,
 *   MinTh = QueueSize/4, MaxTh = 3 QueueSize/4 packets, limit QueueSize, on the
 *   instantaneous queue (QW 1) with marking probability 1 at MaxTh (LInterm 1), so that marks
 *   reach the senders before the queue overflows (RED's default slow average let slow-start
 *   bursts fill the queue first: tail drops, few marks);
 * - `fq-codel`: ns3::FqCoDelQueueDisc (flow queueing with CoDel, target 5 ms, interval 100 ms,
 *   ECN marking on) of QueueSize packets.
 * With a queue discipline, the device queue shrinks to DeviceQueue packets and is flow
 * controlled (a NetDeviceQueueInterface is attached, as PointToPointHelper does), so the
 * backlog sits in the queue discipline, where it is managed.
 */
class WanQueueHelper
{
  public:
    /// "none" | "pfifo" | "red-ecn" | "fq-codel"; throws std::invalid_argument otherwise.
    void SetQueueDisc(const std::string& kind);
    /// Packets an egress queue holds (>= 1).
    void SetQueueSize(uint32_t packets);
    /// Device queue under a queue discipline (>= 1, default 16 packets).
    void SetDeviceQueue(uint32_t packets);
    const std::string& GetQueueDisc() const;
    uint32_t GetQueueSize() const;
    /// True if the discipline marks ECN-capable packets (red-ecn, fq-codel).
    bool Marks() const;

    /// Install on every device of \p network (before the simulation starts).
    void Install(const WanNetwork& network) const;

    /// Every queue-disc drop and mark so far, over the devices it was installed on.
    static void Count(const WanNetwork& network, uint64_t& drops, uint64_t& marks);

  private:
    std::string m_kind = "none";
    uint32_t m_queueSize = 2000;
    uint32_t m_deviceQueue = 16;
};

} // namespace ns3

#endif
