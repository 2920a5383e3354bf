/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TRAINING_ISLAND_HELPER_H
#define INTELLIGENT_NETWORK_TRAINING_ISLAND_HELPER_H

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/training-island.h"

#include <string>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Installs TrainingIsland applications (house style: SetAttribute, Install).
 *
 * The caller still gives each island its IslandId, directory and plan (ScenarioHelper does).
 */
class TrainingIslandHelper
{
  public:
    TrainingIslandHelper();

    /// Set an attribute of every TrainingIsland this helper creates.
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /// One TrainingIsland on each node; IslandId is set to \p firstId, firstId + 1, ...
    ApplicationContainer Install(NodeContainer nodes, uint32_t firstId = 0) const;
    /// One TrainingIsland on \p node with id \p islandId.
    ApplicationContainer Install(Ptr<Node> node, uint32_t islandId) const;

  private:
    ObjectFactory m_factory;
};

} // namespace ns3

#endif
