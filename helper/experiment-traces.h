/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_EXPERIMENT_TRACES_H
#define INTELLIGENT_NETWORK_EXPERIMENT_TRACES_H

#include "ns3/ptr.h"
#include "ns3/topology.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class AnimationInterface;
class ExperimentOptions;
class FlowMonitor;
class FlowMonitorHelper;
class ScenarioHelper;

/**
 * \ingroup intelligent-network
 * \brief The --pcap, --flowmon and --netanim outputs of a scenario (ns-3's own tools).
 *
 * Files go to --traceDir (created if needed; its parent must exist; an existing file or an
 * unwritable directory is refused before anything runs), named by the graph's node names
 * (city codes for islands, device names for routers, `<city>-metro` and the like):
 * - pcap: `<node>-<peer>.pcap` for the point-to-point device of `<node>` on its link to
 *   `<peer>` (e.g. `FRA1-AMS1.pcap`, `AMS-AMS-metro.pcap` for AMS's access link), PPP
 *   framing; names may hold '-', so a name already taken gets `~<link index>`;
 * - FlowMonitor: `flowmon.xml` (per-flow statistics with histograms). FlowMonitor classifies
 *   IPv4 unicast only: multicast streams and FPGA results are not in it (the LinkMonitor
 *   tables of the results database count every byte);
 * - NetAnim: `netanim.xml`, nodes described by name and placed by longitude and latitude of
 *   their city (devices next to their city's island); packet metadata off; at most 1,000,000
 *   packets (NetAnim's per-file limit: a warning says when a run had more).
 */
class ExperimentTraces
{
  public:
    ExperimentTraces();
    ~ExperimentTraces();
    ExperimentTraces(const ExperimentTraces&) = delete;
    ExperimentTraces& operator=(const ExperimentTraces&) = delete;

    /// Install what \p options ask for on the built \p scenario (after Build, before Run).
    void Install(const ExperimentOptions& options, const ScenarioHelper& scenario,
                 const Topology& topology);
    /// After the run: write the FlowMonitor file. Returns every file written.
    std::vector<std::string> Finish();

  private:
    std::string m_dir;
    std::vector<std::string> m_files;
    std::unique_ptr<FlowMonitorHelper> m_flowHelper;
    Ptr<FlowMonitor> m_flowMonitor;
    std::unique_ptr<AnimationInterface> m_anim;
};

} // namespace ns3

#endif
