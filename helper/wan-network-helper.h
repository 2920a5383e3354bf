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
 * its latency; device attributes (Mtu, queue) apply to every device. Routing is static and
 * comes from the RoutePlanner (one host route per island on every node), so the simulated
 * packets follow exactly the paths the fluid cost model charges.
 */
class WanNetworkHelper
{
  public:
    WanNetworkHelper();

    /// Set an attribute of every ns3::PointToPointNetDevice (e.g. "Mtu").
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /// Set the type and attributes of every device's transmit queue.
    void SetQueue(const std::string& type, const std::string& name, const AttributeValue& value);

    /// Create nodes, links, the IPv4 stack and addresses for \p graph.
    WanNetwork Install(const NetworkGraph& graph) const;

    /// Install static host routes to every island on every node, along \p routes' paths.
    static void InstallRoutes(const WanNetwork& network, const RoutePlanner& routes);
    /// Install static host routes to the given graph nodes' addresses on every node.
    static void InstallRoutesTo(const WanNetwork& network,
                                const RoutePlanner& routes,
                                const std::vector<uint32_t>& destinations);
    /**
     * Install the multicast routes of one distribution tree (RoutePlanner::Tree of \p root):
     * every node of the tree forwards \p group from its parent's interface to its children's
     * (one copy per tree edge); the root gets a unicast-table route for \p group on each of
     * its branches. Returns the root's device indices the tree leaves by (for
     * MulticastSender).
     */
    static std::vector<uint32_t> InstallMulticastTree(const WanNetwork& network,
                                                      const RoutePlanner::Path& tree,
                                                      uint32_t root,
                                                      Ipv4Address group);

    /// Remove every host route and multicast route (before installing new ones).
    static void ClearRoutes(const WanNetwork& network);
    /// Drop every packet on both directions of \p edge from now on (a failed link).
    static void FailEdge(const WanNetwork& network, uint32_t edge);

    /// Drop each received packet with probability \p rate on every device (RateErrorModel);
    /// uses random streams from \p stream on. Returns the number of streams used.
    static int64_t SetLossRate(const WanNetwork& network, double rate, int64_t stream);

  private:
    ObjectFactory m_deviceFactory;
    ObjectFactory m_queueFactory;
};

} // namespace ns3

#endif
