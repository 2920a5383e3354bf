/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_WAN_NETWORK_HELPER_H
#define INTELLIGENT_NETWORK_WAN_NETWORK_HELPER_H

#include "wan-network.h"

#include "ns3/attribute.h"
#include "ns3/object-factory.h"
#include "ns3/route-planner.h"

#include <string>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Builds the ns-3 network of a NetworkGraph: nodes, point-to-point links, IPv4, routes.
 *
 * Each graph edge becomes a PointToPoint link with DataRate = the edge capacity and Delay =
 * its latency; device attributes (Mtu, queue) apply to every device. The channel is a
 * FifoPointToPointChannel (one pending event per link direction, the same arrivals as ns-3's
 * PointToPointChannel) unless SetChannelType chooses another. Every node's only routing
 * protocol is PlannedRouting, filled from the RoutePlanner (hash-map lookups, so forwarding
 * costs the same per packet whatever the number of islands), so the simulated packets follow
 * exactly the paths the fluid cost model charges.
 */
class WanNetworkHelper
{
  public:
    WanNetworkHelper();

    /// Set an attribute of every ns3::PointToPointNetDevice (e.g. "Mtu").
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /// Set the type and attributes of every device's transmit queue.
    void SetQueue(const std::string& type, const std::string& name, const AttributeValue& value);

    /// The channel of every link: ns3::PointToPointChannel or a subclass of it (default
    /// ns3::FifoPointToPointChannel); throws std::invalid_argument for anything else.
    void SetChannelType(const std::string& type);
    /// The channel type of a --channel choice: "fifo" (FifoPointToPointChannel) or "ns3"
    /// (ns-3's PointToPointChannel); throws std::invalid_argument for anything else.
    static std::string ChannelTypeOf(const std::string& kind);
    /// Create nodes, links, the IPv4 stack and addresses for \p graph.
    WanNetwork Install(const NetworkGraph& graph) const;

    /// Install host routes to every island on every node, along \p routes' paths.
    static void InstallRoutes(const WanNetwork& network, const RoutePlanner& routes);
    /// Install host routes to every address of the given graph nodes on every node (each along
    /// the planned path to the node; e.g. the FPGA service nodes).
    static void InstallRoutesTo(const WanNetwork& network,
                                const RoutePlanner& routes,
                                const std::vector<uint32_t>& destinations);
    /**
     * Install the multicast routes of one distribution tree (RoutePlanner::Tree of \p root):
     * every node of the tree forwards \p group from its parent's interface to its children's
     * (one copy per tree edge); the root may source \p group on each of its branches. The
     * nodes in \p receivers (default: every leaf and every island of the tree) also deliver
     * \p group locally. Returns the root's device indices the tree leaves by (for
     * MulticastSender).
     */
    static std::vector<uint32_t> InstallMulticastTree(const WanNetwork& network,
                                                      const RoutePlanner::Path& tree,
                                                      uint32_t root,
                                                      Ipv4Address group,
                                                      const std::vector<uint32_t>& receivers = {});

    /// Remove every host route, multicast route and group membership (before installing new
    /// ones).
    static void ClearRoutes(const WanNetwork& network);
    /// Drop every packet on both directions of \p edge from now on (a failed link).
    static void FailEdge(const WanNetwork& network, uint32_t edge);

    /// Drop each received packet with probability \p rate on every device (RateErrorModel);
    /// uses random streams from \p stream on. Returns the number of streams used.
    static int64_t SetLossRate(const WanNetwork& network, double rate, int64_t stream);

  private:
    ObjectFactory m_deviceFactory;
    ObjectFactory m_queueFactory;
    ObjectFactory m_channelFactory;
};

} // namespace ns3

#endif
