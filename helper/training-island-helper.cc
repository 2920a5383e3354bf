/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-island-helper.h"

#include "ns3/uinteger.h"

namespace ns3
{

TrainingIslandHelper::TrainingIslandHelper()
{
    m_factory.SetTypeId(TrainingIsland::GetTypeId());
}

void
TrainingIslandHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
TrainingIslandHelper::Install(Ptr<Node> node, uint32_t islandId) const
{
    Ptr<TrainingIsland> app = m_factory.Create<TrainingIsland>();
    app->SetAttribute("IslandId", UintegerValue(islandId));
    node->AddApplication(app);
    return ApplicationContainer(app);
}

ApplicationContainer
TrainingIslandHelper::Install(NodeContainer nodes, uint32_t firstId) const
{
    ApplicationContainer apps;
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        apps.Add(Install(nodes.Get(i), firstId + i));
    }
    return apps;
}

} // namespace ns3
