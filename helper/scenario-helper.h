/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_SCENARIO_HELPER_H
#define INTELLIGENT_NETWORK_SCENARIO_HELPER_H

#include "link-monitor.h"
#include "training-island-helper.h"
#include "wan-network-helper.h"
#include "wan-network.h"
#include "wan-queue-helper.h"

#include "ns3/application-container.h"
#include "ns3/fpga-aggregator.h"
#include "ns3/network-capabilities.h"
#include "ns3/network-graph.h"
#include "ns3/nstime.h"
#include "ns3/rate-controller.h"
#include "ns3/route-planner.h"
#include "ns3/scenario-result.h"
#include "ns3/schedule.h"
#include "ns3/topology.h"
#include "ns3/traffic-planner.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Builds a whole experiment from a Topology and a Schedule and runs it.
 *
 * Build(): NetworkGraph from the topology -> RoutePlanner -> TrafficPlanner (capabilities) ->
 * ns-3 network (WanNetworkHelper: nodes, links, static routes, loss) -> one TrainingIsland per
 * city of the schedule, each given its per-round plan -> RateController (network-assisted
 * max-min rates, on by default) -> LinkMonitor. Run(): simulates until every island finished
 * every round (or MaxSimTime) and returns a ScenarioResult for the ResultsDatabase.
 *
 * Rounds are barrier-synchronised by default (round r+1 starts on every island when the last
 * island finished round r), which is the semantics of the fluid CostModel; SetBarrier(false)
 * lets each island move on as soon as its own clique is done.
 *
 * Configuration errors (unknown city in the schedule, islands that cannot reach each other,
 * segment larger than the MTU, no FPGA for a clique) throw from Build() with a clear message.
 */
class ScenarioHelper
{
  public:
    ScenarioHelper();
    ~ScenarioHelper();
    ScenarioHelper(const ScenarioHelper&) = delete;
    ScenarioHelper& operator=(const ScenarioHelper&) = delete;

    void SetTopology(const Topology& topology);
    void SetGraphOptions(const NetworkGraphOptions& options);
    void SetSchedule(const Schedule& schedule);
    void SetCapabilities(const NetworkCapabilities& capabilities);
    /// Set an attribute of every TrainingIsland (ModelBytes, SegmentSize, ComputeTime, ...).
    void SetIslandAttribute(const std::string& name, const AttributeValue& value);
    /// Set an attribute of one island only (e.g. a straggler's ComputeTime); after Build().
    void SetIslandAttribute(const std::string& city,
                            const std::string& name,
                            const AttributeValue& value);
    /**
     * The link between graph nodes \p a and \p b (device or city names) fails at \p at: it
     * drops everything from then on; \p detection later the network reroutes around it
     * (routes, multicast trees, rate allocation recomputed without it). After Build().
     */
    void FailLink(const std::string& a, const std::string& b, Time at, Time detection);
    /// The FPGA on \p device fails at \p at (aggregation mode; after Build()).
    void FailFpga(const std::string& device, Time at);
    /**
     * Aggregate clique \p clique of period round \p periodRound along \p tree (root first,
     * see AggregationNode) instead of the planned one; before Build(). The tree must reach
     * every member exactly once, through FPGA devices only; Build() throws otherwise.
     */
    void SetAggregationTree(uint32_t periodRound,
                            uint32_t clique,
                            const std::vector<AggregationNode>& tree);
    /// The aggregation tree installed for a clique of a period round (after Build()).
    const std::vector<AggregationNode>& GetAggregationTree(uint32_t periodRound,
                                                           uint32_t clique) const;
    /// Slots per FPGA pool of that clique (its members' contribution window; after Build()).
    uint32_t GetAggregationWindow(uint32_t periodRound, uint32_t clique) const;
    /// Island \p city trains \p learner (real values through the exchange); before Build().
    void SetLearner(const std::string& city, std::shared_ptr<IslandLearner> learner);
    /// Called with (round, time) when the last island finished a round (after every island's
    /// synchronisation of that round, before the next one starts when rounds are barriers).
    void SetRoundObserver(std::function<void(uint32_t, double)> observer);
    /// Called with (city, round) when that island finished the round (its synchronisation of
    /// the round merged; before the round observer when it is the last island). Without
    /// barriers faster islands go on: what an island holds after round r is only there then.
    void SetIslandRoundObserver(std::function<void(const std::string&, uint32_t)> observer);
    /// The structure of one clique's exchange under a pattern (members are island nodes).
    using ExchangeProvider =
        std::function<CliqueExchange(const std::vector<uint32_t>& members, ExchangePattern)>;
    /**
     * Where the ring order, the trees and the parameter server of RING, TREE and
     * PARAMETER_SERVER cliques come from. The default is TrafficPlanner::Exchange, sized for
     * the islands' ModelBytes and SegmentSize (the structure the fluid CostModel charges); a
     * provider given here (e.g. a test's hand-built structure) replaces it. Asked once per
     * clique in Build(); the structures stay when the network reroutes.
     */
    void SetExchangeProvider(ExchangeProvider provider);
    /// Number of rounds to simulate (the schedule's period repeats).
    void SetRounds(uint32_t rounds);
    /// MTU of every link (default 9000).
    void SetMtu(uint16_t mtu);
    /// Random packet loss on every link direction (RateErrorModel, per packet).
    void SetLossRate(double rate);
    /// Network-assisted max-min rates under the ideal transport (default on); off: islands
    /// split their SendRate (no congestion control at all).
    void SetRateControl(bool on);
    /**
     * How islands move their messages: "ideal" (UDP paced at the rates a central allocator
     * assigns: the idealised max-min fair reference, reproduced by the fluid model),
     * "cc" (the same UDP protocols with an end-to-end congestion window per stream) or "tcp"
     * (ns-3's TCP for unicast messages, cc for multicast and aggregation). Attributes of the
     * transports (ns3::TcpTransport::CongestionControl, ns3::CcTransport::..., ns3::
     * UdpTransport::...) are set through their attribute defaults (Config / --ns3::...).
     */
    void SetTransport(const std::string& kind);
    const std::string& GetTransport() const;
    /// The links' channel: "fifo" (FifoPointToPointChannel, the default: one pending event
    /// per link direction) or "ns3" (ns-3's PointToPointChannel: one per packet in flight);
    /// the same arrivals either way. Throws std::invalid_argument for anything else.
    void SetChannel(const std::string& kind);
    /// Egress queue discipline of every device ("none", "pfifo", "red-ecn", "fq-codel").
    void SetQueueDisc(const std::string& kind);
    /// Packets an egress queue holds (default 2000).
    void SetQueueSize(uint32_t packets);
    /// Device queue under a queue discipline (default 16 packets).
    void SetDeviceQueue(uint32_t packets);
    /// Barrier-synchronised rounds (default on).
    void SetBarrier(bool on);
    /// Safety limit of simulated time (default 1e5 s); hitting it makes the run incomplete.
    void SetMaxSimTime(Time limit);
    /// First random stream number used by the loss models.
    void SetRandomStream(int64_t stream);

    /// Create everything. Throws InputError / std::invalid_argument on bad configuration.
    void Build();
    /// Build if needed, simulate, and return the measurements. Does not destroy the simulator.
    ScenarioResult Run();

    const NetworkGraph& GetGraph() const;
    const RoutePlanner& GetRoutes() const;
    const TrafficPlanner& GetTraffic() const;
    const WanNetwork& GetNetwork() const;
    const LinkMonitor& GetLinkMonitor() const;
    const Schedule& GetSchedule() const;
    const NetworkCapabilities& GetCapabilities() const;
    /// City codes of the islands that run (the schedule's cities), in graph order.
    std::vector<std::string> GetIslandCities() const;
    ApplicationContainer GetIslands() const;
    Ptr<TrainingIsland> GetIsland(const std::string& city) const;
    Ptr<RateController> GetRateController() const;
    /// The FPGA aggregators installed (aggregation mode), by device node.
    const std::map<uint32_t, Ptr<FpgaAggregator>>& GetAggregators() const;
    /// Multicast group of \p island's stream in period round \p round (multicast mode).
    Ipv4Address GetGroup(uint32_t round, uint32_t island) const;

  private:
    struct IslandRoundKey
    {
        uint32_t island;
        uint32_t round;

        bool operator<(const IslandRoundKey& o) const
        {
            return island < o.island || (island == o.island && round < o.round);
        }
    };

    struct IslandRoundStats
    {
        double start = 0;
        double computeEnd = 0;
        double end = 0;
        uint64_t sent = 0;
        uint64_t received = 0;
        uint64_t retxSegments = 0;
        uint64_t retxBytes = 0;
        uint64_t ecnEchoes = 0;     ///< Echoes the island's streams of this round heard.
        uint64_t ecnReductions = 0; ///< Window reductions marks caused in them.
    };

    std::vector<IslandRoundPlan> PlanFor(uint32_t island) const;
    /// The pattern of clique \p c of period round \p p (the schedule's, else NetworkCapabilities::DefaultPattern).
    ExchangePattern PatternOf(std::size_t p, std::size_t c) const;
    /// True if some clique (of two or more) of the schedule's period uses \p pattern.
    bool UsesPattern(ExchangePattern pattern) const;
    /// Check every clique's pattern and plan the structure of the unicast collectives.
    void BuildCollectives();
    void BuildMulticast();
    void BuildAggregation();
    void InstallRouting();
    void Reroute(uint32_t edge);
    static uint16_t CliqueKey(std::size_t round, std::size_t clique);
    void ConnectTraces(Ptr<TrainingIsland> app, uint32_t island);
    void OnRoundGate(uint32_t island, uint32_t round);
    void OnIslandFinished();
    ScenarioResult Collect(double wallS) const;
    void InstallTransports(Ptr<TrainingIsland> app, uint32_t id,
                           const std::vector<IslandRoundPlan>& plan);

    Topology m_topology;
    bool m_haveTopology = false;
    NetworkGraphOptions m_graphOptions;
    Schedule m_schedule;
    bool m_haveSchedule = false;
    NetworkCapabilities m_caps;
    TrainingIslandHelper m_islandHelper;
    uint32_t m_rounds = 1;
    uint16_t m_mtu = 9000;
    double m_lossRate = 0;
    bool m_rateControl = true;
    std::string m_transport = "ideal";
    std::string m_channelType = WanNetworkHelper::ChannelTypeOf("fifo"); ///< SetChannel's.
    WanQueueHelper m_queues;
    bool m_barrier = true;
    Time m_maxSimTime = Seconds(1e5);
    int64_t m_stream = 1000;

    bool m_built = false;
    /// Why the run was stopped before every island finished (a partition); runs.error.
    std::string m_stopCause;
    std::unique_ptr<NetworkGraph> m_graph;
    std::unique_ptr<RoutePlanner> m_routes;
    std::unique_ptr<TrafficPlanner> m_traffic;
    std::unique_ptr<WanNetwork> m_network;
    std::unique_ptr<LinkMonitor> m_monitor;
    Ptr<RateController> m_controller;
    std::vector<uint32_t> m_islandIds; ///< Graph ids of the running islands.
    std::vector<uint32_t> m_serviceNodes; ///< Device nodes running an FpgaAggregator.
    ApplicationContainer m_apps;
    std::map<uint32_t, Ptr<TrainingIsland>> m_appOf;

    struct GroupInfo
    {
        Ipv4Address group;
        std::vector<uint32_t> devices;
    };

    std::map<std::tuple<std::size_t, std::size_t, uint32_t>, GroupInfo> m_groups; ///< multicast
    /// An installed aggregation tree of a clique (period round, clique).
    struct TreeInfo
    {
        std::vector<AggregationNode> nodes;  ///< Root first.
        std::map<uint32_t, uint32_t> leafOf; ///< Member island -> FPGA device it sends to.
        uint32_t window = 0;                 ///< Slots per pool.
        FlowUsage usage;                     ///< One copy per tree edge per direction + FPGAs.
        /// Longest member -> root latency (FPGA latencies included) + longest root -> member.
        double latencyS = 0;
        RoutePlanner::Path resultTree; ///< The root's multicast tree to the members.
    };

    void CheckTree(const std::vector<AggregationNode>& tree,
                   const std::vector<uint32_t>& members,
                   const std::string& what) const;
    /// \p resultTree: the root's multicast tree to the members (empty: the routes' tree).
    TreeInfo DescribeTree(const std::vector<AggregationNode>& tree,
                          const std::vector<uint32_t>& members,
                          RoutePlanner::Path resultTree) const;

    std::map<std::pair<std::size_t, std::size_t>, uint32_t> m_aggregatorOf; ///< clique -> root
    std::map<std::pair<std::size_t, std::size_t>, std::vector<AggregationNode>> m_treeOverrides;
    std::map<std::pair<std::size_t, std::size_t>, TreeInfo> m_trees;
    std::map<uint32_t, Ptr<FpgaAggregator>> m_aggregators;
    std::map<std::pair<uint32_t, uint32_t>, bool> m_fellBack; ///< (round, island) fell back
    ExchangeProvider m_exchangeProvider;
    ExchangeSizing m_sizing; ///< The islands' model and segment sizes (for the planner).
    /// (period round, clique) -> structure of its ring, tree or parameter server.
    std::map<std::pair<std::size_t, std::size_t>, CliqueExchange> m_collectives;

    std::map<uint32_t, uint32_t> m_gateCount; ///< round -> islands that finished it
    std::map<uint32_t, uint32_t> m_finishCount; ///< round -> islands that finished it (all modes)
    std::map<std::string, std::shared_ptr<IslandLearner>> m_learners;
    std::function<void(uint32_t, double)> m_roundObserver;
    std::function<void(const std::string&, uint32_t)> m_islandRoundObserver;
    uint32_t m_finishedIslands = 0;
    double m_lastFinish = 0;
    std::map<IslandRoundKey, IslandRoundStats> m_stats;
};

} // namespace ns3

#endif
