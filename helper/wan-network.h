/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_WAN_NETWORK_H
#define INTELLIGENT_NETWORK_WAN_NETWORK_H

#include "ns3/ipv4-address.h"
#include "ns3/network-graph.h"
#include "ns3/node-container.h"
#include "ns3/point-to-point-net-device.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief The ns-3 network built from a NetworkGraph by WanNetworkHelper::Install.
 *
 * ns-3 node i is graph node i (islands first); each graph edge is one point-to-point link
 * whose two devices, interface indices and addresses are kept here. Island i has one
 * interface (its access link to the metro node) and is reachable at IslandAddress(i) from
 * every node once routes are installed.
 */
class WanNetwork
{
  public:
    /// Both ends of one graph edge (index 0 = GraphEdge::a, 1 = GraphEdge::b).
    struct EdgeLink
    {
        Ptr<PointToPointNetDevice> device[2];
        uint32_t interface[2];
        Ipv4Address address[2];
    };

    const NetworkGraph& Graph() const;
    const NodeContainer& Nodes() const;
    Ptr<Node> GetNode(uint32_t graphNode) const;
    /// The island nodes (graph nodes 0 .. IslandCount()-1).
    NodeContainer IslandNodes() const;
    /// Address of island \p island.
    Ipv4Address IslandAddress(uint32_t island) const;
    /// Address of any graph node (the address of its first interface).
    Ipv4Address NodeAddress(uint32_t graphNode) const;
    /// Every address of a graph node, one per link, in edge order.
    const std::vector<Ipv4Address>& NodeAddresses(uint32_t graphNode) const;
    /// Addresses of all islands, indexed by island id.
    const std::vector<Ipv4Address>& IslandDirectory() const;
    const EdgeLink& Edge(uint32_t edge) const;
    /// Which end (0 or 1) of \p edge is graph node \p node.
    static uint32_t Side(const GraphEdge& e, uint32_t node);
    /// Interface index of \p edge on \p node.
    uint32_t InterfaceOn(uint32_t edge, uint32_t node) const;
    /// Address of \p edge's interface on \p node.
    Ipv4Address AddressOn(uint32_t edge, uint32_t node) const;
    /// Index (on the ns-3 node) of the device of \p edge on \p node.
    uint32_t DeviceIndexOn(uint32_t edge, uint32_t node) const;

  private:
    friend class WanNetworkHelper;

    NetworkGraph m_graph;
    NodeContainer m_nodes;
    std::vector<EdgeLink> m_edges;
    std::vector<Ipv4Address> m_islandAddresses;
    std::vector<Ipv4Address> m_nodeAddresses;
    std::vector<std::vector<Ipv4Address>> m_addresses;
};

} // namespace ns3

#endif
