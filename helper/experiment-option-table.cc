/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The table of every program option (ExperimentOptions::Table). Adding an option is one entry:
//
//   {"name", "Help sentence", "default", V::Kind(range...), "ns3::Type::Attribute", "group"},
//
// - default: as typed on the command line; kFromAttribute = the mapped attribute's initial
//   value (one source of truth for options mapped to the module's own attributes);
// - attribute: the ns-3 attribute the option maps to; "" = the option is its own attribute
//   ns3::ExperimentOptions::<Name>;
// - group: where the option takes effect; programs Use() the groups they honour:
//     topology   reading the topology            network   graph rate overrides
//     exchange   exchange pattern                schedule  the schedule to run
//     optimizer  the schedule optimizer          island    the training islands
//     fpga       in-network aggregation          run       rounds to simulate
//     packet     packet-level (ns-3) only         fluid     fluid model only
//     output     where results go (not recorded)  trace     trace files (not recorded)
//     report     tool output (not recorded)       training  proxy task and optimisers
//     simulator  the simulating process: exposed by every program that simulates packets
//                (ExperimentOptions::SetSimulates), not chosen with Use()
//     curves, synthetic, dumbbell, star, comparison, bench, validation: one program each
// doc/options-table.rst is generated from this table (--PrintOptionsRst) and checked
// against it by a test.
#include "experiment-options.h"

#include "ns3/data-directory.h"
#include "ns3/graphml-topology-reader.h"
#include "ns3/network-graph.h"
#include "ns3/proxy-task.h"
#include "ns3/training-time-objective.h"

#include <string>

namespace ns3
{

const std::vector<OptionSpec>&
ExperimentOptions::Table()
{
    using V = OptionValidator;
    const std::string A = OptionSpec::kFromAttribute;
    const std::string dataDir = IntelligentNetworkDataDir();
    const uint64_t maxSeed = 9007199254740992ULL; // 2^53: exact in JSON and in a double
    // clang-format off: one option per line
    static const std::vector<OptionSpec> table = {
        // topology
        {"topology", "Topology file (.topology, .graphml as the Internet Topology Zoo writes it) or DoubleZero sample directory", dataDir + "/nine-city.topology", V::Text(), "", "topology"},
        {"fibreFactor", "GraphML: one-way latency = great-circle distance x 4.9 us/km (light in fibre) x this factor (fibre routes are longer than the great circle; the synthetic topologies' route factor)", OptionValidator::ToText(GraphmlTopologyOptions().fibreFactor), V::Real(1, 10), "", "topology"},
        {"graphmlLinkRate", "GraphML: rate of links without LinkSpeed/LinkSpeedRaw, bit/s", "10e9", V::Rate(), "", "topology"},
        // network
        {"linkRate", "Rate of every private link, bit/s (0: the topology's)", "0", V::Rate(true), "", "network"},
        {"accessRate", "Rate of every device's attachment to its city: its metro link (to the city's island and internet edge) and its exchange link, bit/s (0: the device's edge capacity; the island's own link always carries what its metro can)", "0", V::Rate(true), "", "network"},
        {"metroLatency", "One-way latency of a device's metro link (device - city's metro fabric), s (default: 10 km of metro fibre)", OptionValidator::ToText(NetworkGraphOptions().metroLatencyS), V::Seconds(1e-9, 1), "", "network"},
        {"cityExchange", "Join the devices of a city with two or more through an exchange node (a cross-connect site, DoubleZero's DZX); off: only the topology's own intra-city links join them", "true", V::Flag(), "", "network"},
        {"exchangeLatency", "One-way latency of a device's exchange link, s (default: 50 km of metro fibre, so that the topology's intra-city links are preferred)", OptionValidator::ToText(NetworkGraphOptions().exchangeLatencyS), V::Seconds(1e-9, 1), "", "network"},
        {"latencyCheck", "Links faster than light in fibre (4.9 us/km) over the great-circle distance of their cities: warn (on standard error), fix (raise them to that bound) or off", "warn", V::Choice({"warn", "fix", "off"}), "", "network"},
        {"routingMetric", "What routes minimise: latency, latency+hops (latency + --hopCost per hop) or latency+capacity (latency + --capacityCost / rate per hop)", "latency", V::Choice({"latency", "latency+hops", "latency+capacity"}), "", "network"},
        {"hopCost", "Per-hop term of --routingMetric=latency+hops, s", OptionValidator::ToText(RoutingOptions().hopCostS), V::Seconds(0, 1), "", "network"},
        {"capacityCost", "Capacity term of --routingMetric=latency+capacity, bits: a hop costs the time to send this many bits over it", OptionValidator::ToText(RoutingOptions().capacityCostBits), V::Real(0, 1e15), "", "network"},
        {"publicRate", "Rate of every public-internet path, bit/s (0: the topology's; DoubleZero samples and .topology files without one: 1 Gbps)", "0", V::Rate(true), "", "network"},
        // exchange, schedule, optimizer
        {"mode", "unicast | multicast | aggregation", "unicast", V::Choice({"unicast", "multicast", "aggregation"}), "", "exchange"},
        {"capabilities", "Capability set, the same setting as --mode written as a set (--mode=multicast is unicast,multicast): unicast[,multicast][,aggregation] (aggregation implies multicast; empty: the set of --mode). The fluid model and optimizer let every clique use any pattern the set allows; the packet level runs the set's richest pattern", "", V::Text(), "", "exchange"},
        {"patterns", "Restrict the exchange patterns a clique may use (comma-separated: all-to-all, ring, tree, ps, multicast, aggregation; empty: every pattern the capability set allows): an experiment's choice, not a network property", "", V::List(), "", "exchange"},
        {"schedule", "Schedule file or shipped schedule name (empty: the optimizer's best schedule for the topology, mode and model)", "", V::Text(), "", "schedule"},
        {"islands", "Comma-separated island cities of the optimizer's schedule (empty: every city that has a device)", "", V::List(), "", "optimizer"},
        {"period", "Longest schedule period the optimizer searches", "2", V::Integer(1, 8), "", "optimizer"},
        {"seed", "Seed of the optimizer's search and of the training proxy's task and minibatches (ns-3's own streams: RngSeed, RngRun)", "1", V::Integer(0, maxSeed), "", "optimizer"},
        {"objective", "What the optimizer minimises: training (predicted training time: mean round time x (1 + disagreementWeight x D + bestRoundWeight x D_best), D the steady-state disagreement of the islands' models with unit drift per round; validated against the proxy's time to target in doc/objective-validation.rst; periods >= 2 searched by the heuristic) | consensus (seconds until the worst-case consensus error reaches 1e-3: one exact average)", "training", V::Choice({"training", "consensus"}), "", "optimizer"},
        {"disagreementWeight", "--objective=training: the weight k of the steady-state disagreement D (rounds to target grow as 1 + k x D + m x D_best; chosen on a calibration configuration, doc/objective-validation.rst)", OptionValidator::ToText(TrainingTimeObjective::kDefaultWeight), V::Real(0, 1e6), "", "optimizer"},
        {"bestRoundWeight", "--objective=training: the weight m of D_best, the steady-state disagreement after the period's best-agreeing round", OptionValidator::ToText(TrainingTimeObjective::kDefaultBestWeight), V::Real(0, 1e6), "", "optimizer"},
        {"iterations", "Optimizer: annealing proposals per start and period round", "4000", V::Integer(1, 10000000), "", "optimizer"},
        {"optimizerBudget", "Optimizer: wall-clock budget of the search, s (0: none); when spent, the best schedule so far with its gap to the lower bound (then not reproducible: see optimizerCandidates)", "0", V::Seconds(0, 1e6), "", "optimizer"},
        {"optimizerCandidates", "Optimizer: budget in candidate schedules examined (0: none), deterministic for a given seed", "0", V::Integer(0, 1000000000000ULL), "", "optimizer"},
        // islands
        {"modelBytes", "Model bytes every island exchanges per round", A, V::Integer(1, 1000000000000000ULL), "ns3::TrainingIsland::ModelBytes", "island"},
        {"segmentSize", "Model bytes per simulated segment (datagram payload minus the 28-byte header)", A, V::Integer(8, 65479), "ns3::TrainingIsland::SegmentSize", "island"},
        {"computeTime", "Compute time of one local step, s", A, V::Seconds(0, 1e6), "ns3::TrainingIsland::ComputeTime", "island"},
        {"localSteps", "Local steps per round", A, V::Integer(1, 1000000), "ns3::TrainingIsland::LocalSteps", "island"},
        // in-network aggregation
        {"fpgaRate", "FPGA throughput, bit/s of contributions", A, V::Rate(), "ns3::FpgaAggregator::Throughput", "fpga"},
        {"fpgaLatency", "FPGA pipeline latency per slot, s", A, V::Seconds(0, 1), "ns3::FpgaAggregator::PipelineLatency", "fpga"},
        {"fpgaDevices", "Comma-separated devices that carry an FPGA (empty: every device)", "", V::List(), "", "fpga"},
        {"aggregation", "Aggregation design: tree (a reduction tree over the FPGAs on the members' paths, SHARP-like) | single (one FPGA per clique, SwitchML-like)", "tree", V::Choice({"tree", "single"}), "", "fpga"},
        {"fpgaMemory", "Aggregation slot memory of one FPGA, bytes, shared by the cliques it serves (fluid model; default: NetworkCapabilities, see doc)", OptionValidator::ToText(NetworkCapabilities().fpgaMemoryBytes), V::Real(1, 1e15), "", "fpga"},
        // rounds
        {"rounds", "Rounds to simulate (the schedule's period repeats)", "4", V::Integer(1, 1000000), "ns3::TrainingIsland::Rounds", "run"},
        // packet level
        {"mtu", "MTU of every link, bytes", "9000", V::Integer(576, 65535), "ns3::PointToPointNetDevice::Mtu", "packet"},
        {"lossRate", "Random packet loss on every link direction (per packet)", "0", V::Real(0, 1, true), "", "packet"},
        {"barrier", "Barrier-synchronised rounds (the fluid model's semantics)", "true", V::Flag(), "", "packet"},
        {"rateControl", "Network-assisted max-min rates (off: islands split their SendRate)", "true", V::Flag(), "", "packet"},
        {"slotBytes", "Aggregation slot size, bytes, a multiple of 4 (0: the segment size rounded up to a multiple of 4)", "0", V::Integer(0, 65479), "", "packet"},
        {"slots", "Aggregation slots per clique at an FPGA", A, V::Integer(1, 16777216), "ns3::FpgaAggregator::Slots", "packet"},
        {"aggTimeout", "Aggregation straggler timeout, s", A, V::Seconds(1e-6, 3600), "ns3::FpgaAggregator::Timeout", "packet"},
        // transports and queues (packet level)
        {"transport", "How islands move messages: ideal (UDP paced at a central allocator's max-min rates: an idealisation, the max-min fair reference, what the fluid model reproduces), cc (the UDP protocols with an end-to-end loss/ECN-driven congestion window per stream) or tcp (ns-3 TCP for unicast, cc for multicast and aggregation)", "ideal", V::Choice({"ideal", "cc", "tcp"}), "", "packet"},
        {"congestionControl", "TCP congestion control of --transport=tcp (ns-3's ns3::Tcp<name>)", A, V::TypeChoice("ns3::Tcp", {"NewReno", "Cubic", "Bbr", "Dctcp", "LinuxReno"}), "ns3::TcpTransport::CongestionControl", "packet"},
        {"tcpFreshConnections", "TCP: a new connection per message (slow start every round) instead of one per peer kept across rounds", A, V::Flag(), "ns3::TcpTransport::FreshConnections", "packet"},
        {"tcpSndBuf", "TCP send buffer, bytes (0: the path's bandwidth-delay product)", A, V::Integer(0, 4000000000ULL), "ns3::TcpTransport::SndBufSize", "packet"},
        {"tcpRcvBuf", "TCP receive buffer, bytes (0: the largest bandwidth-delay product of the island's paths)", A, V::Integer(0, 4000000000ULL), "ns3::TcpTransport::RcvBufSize", "packet"},
        {"tcpSegmentSize", "TCP maximum segment size, bytes (0: MTU - 52)", A, V::Integer(0, 65483), "ns3::TcpTransport::SegmentSize", "packet"},
        {"tcpPacing", "TCP: pace segments at the congestion control's rate (always on under Bbr, which needs it)", A, V::Flag(), "ns3::TcpTransport::Pacing", "packet"},
        {"tcpRetransmitTimer", "TCP: when the retransmission timer runs: ns3 (ns-3 3.37's socket as shipped: also while paced data waits unsent with nothing in flight, its expiry taken for a loss) or rfc6298 (only while data is outstanding, RFC 6298 5.2); matters for paced sockets only (Bbr, --tcpPacing)", A, V::Choice({"ns3", "rfc6298"}), "ns3::TcpTransport::RetransmitTimer", "packet"},
        {"tcpDataRetries", "TCP: retransmission timeouts in a row without an ack after which a connection is given up, ending the run INCOMPLETE with the cause (ns-3's own default is 6, Linux's tcp_retries2 15)", A, V::Integer(1, 1000), "ns3::TcpTransport::DataRetries", "packet"},
        {"tcpEcn", "TCP: negotiate ECN (Dctcp always does)", A, V::Flag(), "ns3::TcpTransport::Ecn", "packet"},
        {"ecn", "UDP transports (cc): send ECN-capable packets and echo congestion marks to the senders (marks need --queueDisc=red-ecn or fq-codel)", A, V::Flag(), "ns3::UdpTransport::Ecn", "packet"},
        {"multicastRepair", "How a multicast model's losses are repaired (UDP transports): parity (parity segments of an erasure code over blocks of --parityBlock segments, as many as the worst receiver of a block misses, raised to --parityConfidence: one parity segment repairs a different loss at every receiver) or resend (each missing segment again). Unicast always resends", A, V::Choice({"parity", "resend"}), "ns3::UdpTransport::MulticastRepair", "packet"},
        {"parityBlock", "--multicastRepair=parity: data segments per block of the erasure code", A, V::Integer(1, 4096), "ns3::UdpTransport::ParityBlock", "packet"},
        {"parityConfidence", "--multicastRepair=parity: a block's parity is raised until it suffices with at least this probability given each receiver's measured loss (0: exactly the most segments missing at one receiver); after k failed repairs of a block to 1 - (1 - this)^(k+1); after the last new segment the repairs still pending must suffice together with this probability", A, V::Real(0, 0.999), "ns3::UdpTransport::ParityConfidence", "packet"},
        {"ccAlgorithm", "cc: window growth in congestion avoidance (cubic: RFC 8312; reno: one segment per round trip)", A, V::Choice({"cubic", "reno"}), "ns3::CcTransport::Algorithm", "packet"},
        {"channel", "How a link delivers its packets: fifo (FifoPointToPointChannel: each direction's packets in flight in a queue, one pending simulator event per direction) or ns3 (ns-3's PointToPointChannel: one event per packet in flight; fires TxRxPointToPoint, which NetAnim reads). The same arrival times and results; fifo keeps the simulator's event set small on large networks", "fifo", V::Choice({"fifo", "ns3"}), "", "packet"},
        {"queueDisc", "Egress queue discipline of every device (ns-3 traffic-control): none (the device's drop-tail queue), pfifo, red-ecn (RED marking ECN-capable packets), fq-codel", "none", V::Choice({"none", "pfifo", "red-ecn", "fq-codel"}), "", "packet"},
        {"queueSize", "Packets an egress queue holds (the device queue, or the queue discipline's limit)", "2000", V::Integer(1, 10000000), "", "packet"},
        {"deviceQueue", "Device queue under a queue discipline, packets (the backlog sits in the discipline)", "16", V::Integer(1, 10000000), "", "packet"},
        // the simulating process (every packet-level program)
        {"hugePages", "Back the program's heap with transparent huge pages (2 MiB; glibc's malloc: madvise, as its malloc.hugetlb=1 tunable does, and the heap keeps the memory it frees; jemalloc: its thp:always): fewer TLB misses per packet-hop on large networks, the same results. Off: the kernel's ordinary 4 KiB pages (jemalloc: huge pages off for the process)", "true", V::Flag(), "", "simulator"},
        // fluid model only
        {"overlap", "Overlap communication with the next round's compute (fluid model only; the ns-3 scenario runs barrier rounds)", "false", V::Flag(), "", "fluid"},
        // outputs (not recorded as parameters)
        {"db", "SQLite results database, appended to (none: do not record)", "results.db", V::Text(), "", "output"},
        {"runKey", "Identity of this run in the database (sweeps)", "", V::Text(), "", "output"},
        {"quiet", "Print only the summary line", "false", V::Flag(), "", "output"},
        {"pcap", "Write pcap files <traceDir>/<device>-<peer>.pcap (one per point-to-point device, named by city/device at both ends)", "false", V::Flag(), "", "trace"},
        {"flowmon", "Write FlowMonitor statistics to <traceDir>/flowmon.xml (unicast flows only: FlowMonitor ignores multicast)", "false", V::Flag(), "", "trace"},
        {"netanim", "Write a NetAnim animation to <traceDir>/netanim.xml (nodes named by city and device, placed by latitude and longitude)", "false", V::Flag(), "", "trace"},
        {"traceDir", "Directory of the --pcap, --flowmon and --netanim files (created if needed)", "traces", V::Text(), "", "trace"},
        {"out", "Output file of the tool (optimize-schedule: the best schedule as JSON; optimizer-table: the .rst table; empty: none / standard output)", "", V::Text(), "", "report"},
        {"baselines", "Also evaluate and print the baseline schedules", "true", V::Flag(), "", "report"},
        // training: the proxy task and its optimisers (training-proxy, training-curves)
        {"task", "Proxy task: an MLP classifying label-skewed shards, or a linear model (least squares, logistic regression)", "classification", V::Choice({"classification", "least-squares", "logistic"}), "", "training"},
        {"dataset", "Classification data: a Gaussian mixture, or Fashion-MNIST as Debian's dataset-fashion-mnist ships it", ProxyTaskConfig().dataset, V::Choice({"synthetic", "fashion-mnist"}), "", "training"},
        {"datasetDir", "Classification: folder of the Fashion-MNIST IDX files", ProxyTaskConfig().datasetDir, V::Text(), "", "training"},
        {"hidden", "Classification: hidden layer widths, comma-separated, each 1 .. 65536 (none: a linear classifier)", ProxyTaskConfig::HiddenText(ProxyTaskConfig().hidden), V::Text(), "", "training"},
        {"alpha", "Classification: Dirichlet label skew of the islands' shards, a number in [1e-6, 1e6] (small: few classes per island) or inf (iid shards)", "0.1", V::Text(), "", "training"},
        {"classes", "Classification (synthetic data): number of classes", "10", V::Integer(2, 1000), "", "training"},
        {"samplesPerIsland", "Rows of every island's shard (0: 4096 synthetic, 1024 Fashion-MNIST and the linear tasks)", "0", V::Integer(0, 1000000), "", "training"},
        {"dimension", "Linear tasks: parameters of the model", "2048", V::Integer(1, 1000000), "", "training"},
        {"heterogeneity", "Linear tasks: non-iid shards (0: iid)", "1", V::Real(0, 100), "", "training"},
        {"optimizer", "Inner optimizer of every island (and of colocated training)", "sgd", V::Choice({"sgd", "adamw"}), "", "training"},
        {"lr", "Inner learning rate", "0.05", V::Real(1e-12, 100), "", "training"},
        {"sgdMomentum", "Inner SGD momentum (0: plain SGD; ignored by adamw)", "0.9", V::Real(0, 1, true), "", "training"},
        {"batch", "Rows per minibatch (0: the full shard)", "32", V::Integer(0, 1000000), "", "training"},
        {"outerLr", "DiLoCo outer learning rate at a synchronisation (1: plain averaging)", "1", V::Real(1e-12, 100), "", "training"},
        {"outerMomentum", "DiLoCo outer Nesterov momentum (0: plain averaging)", "0", V::Real(0, 1, true), "", "training"},
        {"fixedPointBits", "Fraction bits of the int32 fixed-point values sent for aggregation", A, V::Integer(0, 30), "ns3::TrainingIsland::FixedPointBits", "training"},
        // training curves
        {"horizon", "Simulated seconds of training per distributed curve", "300", V::Seconds(1e-3, 1e6), "", "curves"},
        {"referenceHorizon", "Simulated seconds of colocated training whose best held-out accuracy sets the target", "60", V::Seconds(1e-3, 1e6), "", "curves"},
        {"targetFraction", "Target accuracy: this fraction of the colocated run's best held-out accuracy (over --referenceHorizon)", "0.9", V::Real(1e-6, 1), "", "curves"},
        {"metric", "Score of the distributed runs: the mean or the worst of the islands' own models, or the average model", "islands-mean", V::Choice({"islands-mean", "islands-min", "average-model"}), "", "curves"},
        {"csv", "Output: every curve (series,time_s,loss,accuracy)", "training-curves.csv", V::Text(), "", "curves"},
        {"json", "Output: a JSON summary to this file (training-curves: the summary, every effective setting under 'parameters'; optimize-schedule, only when given: the whole result, the best schedule with the pattern of every clique, round times, score, bound and gap, and every baseline; '-': standard output)", "training-summary.json", V::Text(), "", "curves"},
        {"scheduleDir", "training-curves: also write every series' schedule to <dir>/<series>.json (packet-level reruns; empty: none)", "", V::Text(), "", "curves"},
        // objective validation
        {"targets", "objective-validation: target fractions of colocated's best held-out accuracy", "0.8,0.9", V::List(), "", "validation"},
        {"randomSchedules", "objective-validation: random connected schedules in the family", "30", V::Integer(0, 100000), "", "validation"},
        {"validationOut", "objective-validation: output CSV, one row per capability set and schedule", "objective-validation.csv", V::Text(), "", "validation"},
        // synthetic topologies
        {"synthetic", "Use a synthetic topology of this many cities instead of --topology (0: no)", "0", V::Integer(0, 10000), "", "synthetic"},
        {"topologySeed", "Seed of the synthetic topology", "1", V::Integer(0, maxSeed), "", "synthetic"},
        {"writeTopology", "Also write the topology used to this file (project format)", "", V::Text(), "", "synthetic"},
        // single programs
        {"wanRate", "multicast-alone: rate of the WAN link between the hubs, bit/s", "1e9", V::Rate(), "", "dumbbell"},
        {"wanLatency", "multicast-alone: one-way latency of the WAN link, s", "0.04", V::Seconds(1e-9, 10), "", "dumbbell"},
        {"hubIslands", "aggregation-alone: islands around the hub", "4", V::Integer(2, 64), "", "star"},
        {"schedules", "schedule-comparison: comma-separated schedules (files, shipped names, baselines: ring-allreduce, tree-allreduce, parameter-server, all-to-all, grid, exp-graph, diloco, ring (gossip))", "all-in-one,3x3-rotating,ring,grid", V::List(), "", "comparison"},
        {"monitor", "bench-raw-udp: also install the module's LinkMonitor (its cost)", "false", V::Flag(), "", "bench"},
        {"minCpu", "bench-fluid: repeat evaluations for at least this many CPU seconds", "0.5", V::Seconds(0, 3600), "", "bench"},
        {"gridOut", "bench-inputs: write the grid baseline schedule here", "", V::Text(), "", "bench"},
    };
    // clang-format on
    return table;
}

} // namespace ns3
