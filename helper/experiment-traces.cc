/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "experiment-traces.h"

#include "experiment-options.h"
#include "scenario-helper.h"

#include "ns3/flow-monitor-helper.h"
#include "ns3/flow-monitor.h"
#include "ns3/netanim-module.h"
#include "ns3/point-to-point-helper.h"

#include <cmath>
#include <iostream>
#include <set>
#include <stdexcept>
#include <sys/stat.h>

namespace ns3
{

namespace
{
/// NetAnim writes at most this many packets into netanim.xml (warned when reached).
constexpr uint64_t kMaxAnimPackets = 1000000;
} // namespace

ExperimentTraces::ExperimentTraces() = default;
ExperimentTraces::~ExperimentTraces() = default;

void
ExperimentTraces::Install(const ExperimentOptions& options, const ScenarioHelper& scenario,
                          const Topology& topology)
{
    bool pcap = options.GetFlag("pcap");
    bool flowmon = options.GetFlag("flowmon");
    bool netanim = options.GetFlag("netanim");
    if (!pcap && !flowmon && !netanim)
    {
        return;
    }
    m_dir = options.GetText("traceDir");
    if (m_dir.empty())
    {
        m_dir = ".";
    }
    // Before anything runs: a file there, or a directory we cannot write, would abort the
    // pcap writers (or lose the FlowMonitor file) only later.
    struct stat st;
    if (stat(m_dir.c_str(), &st) != 0)
    {
        if (mkdir(m_dir.c_str(), 0777) != 0)
        {
            throw std::invalid_argument("--traceDir=" + m_dir + ": cannot create the directory");
        }
    }
    else if (!S_ISDIR(st.st_mode))
    {
        throw std::invalid_argument("--traceDir=" + m_dir + ": exists and is not a directory");
    }
    ExperimentOptions::CheckWritableDirectory("--traceDir", m_dir);
    const WanNetwork& network = scenario.GetNetwork();
    const NetworkGraph& graph = scenario.GetGraph();
    if (pcap)
    {
        PointToPointHelper p2p;
        std::set<std::string> used;
        for (uint32_t e = 0; e < graph.EdgeCount(); ++e)
        {
            const GraphEdge& edge = graph.Edges()[e];
            const uint32_t ends[2] = {edge.a, edge.b};
            for (uint32_t side = 0; side < 2; ++side)
            {
                // Names may hold '-': P-Q -> R and P -> Q-R would both be P-Q-R; the second
                // gets its link index (two writers of one file overwrite each other).
                std::string base =
                    graph.Nodes()[ends[side]].name + "-" + graph.Nodes()[ends[1 - side]].name;
                if (!used.insert(base).second)
                {
                    base += "~" + std::to_string(e);
                    used.insert(base);
                }
                std::string file = m_dir + "/" + base + ".pcap";
                p2p.EnablePcap(file, network.Edge(e).device[side], false, true);
                m_files.push_back(file);
            }
        }
    }
    if (flowmon)
    {
        m_flowHelper = std::make_unique<FlowMonitorHelper>();
        m_flowMonitor = m_flowHelper->Install(network.Nodes());
    }
    if (netanim)
    {
        // Positions first: AnimationInterface looks for a mobility model on every node.
        for (uint32_t id = 0; id < graph.NodeCount(); ++id)
        {
            const GraphNode& n = graph.Nodes()[id];
            const City* city = topology.FindCity(n.city);
            double lon = city && !std::isnan(city->longitude) ? city->longitude : 0.0;
            double lat = city && !std::isnan(city->latitude) ? city->latitude : 0.0;
            double shift = n.kind == NodeKind::ISLAND ? 0.0 : 1.5 + 0.5 * (id % 4);
            AnimationInterface::SetConstantPosition(network.GetNode(id),
                                                    (lon + 180.0) * 10 + shift * 10,
                                                    (90.0 - lat) * 10 + shift * 5);
        }
        std::string file = m_dir + "/netanim.xml";
        m_anim = std::make_unique<AnimationInterface>(file);
        m_anim->EnablePacketMetadata(false);
        m_anim->SetMaxPktsPerTraceFile(kMaxAnimPackets);
        for (uint32_t id = 0; id < graph.NodeCount(); ++id)
        {
            m_anim->UpdateNodeDescription(network.GetNode(id), graph.Nodes()[id].name);
        }
        m_files.push_back(file);
    }
}

std::vector<std::string>
ExperimentTraces::Finish()
{
    if (m_flowMonitor)
    {
        m_flowMonitor->CheckForLostPackets();
        std::string file = m_dir + "/flowmon.xml";
        m_flowMonitor->SerializeToXmlFile(file, true, true);
        m_files.push_back(file);
        m_flowMonitor = nullptr;
    }
    if (m_anim && m_anim->GetTracePktCount() >= kMaxAnimPackets)
    {
        std::cerr << "warning: " << m_dir << "/netanim.xml holds the first " << kMaxAnimPackets
                  << " packets only (NetAnim's per-file limit); later ones are not in it\n";
    }
    m_anim.reset();
    return m_files;
}

} // namespace ns3
