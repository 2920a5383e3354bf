/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ns-3 TestSuite "intelligent-network-options": the options object of every program
// (ExperimentOptions): one setting per option and attribute, one set of defaults, checks at
// the boundary, conversions for the fluid model, overridden attributes caught after Build,
// every setting recorded.

#include "test-util.h"

#include "ns3/core-module.h"
#include "ns3/heap-allocator.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/test.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>

using namespace ns3;
using namespace ns3::intelligent_network_test;

namespace
{

const std::vector<std::string> kAllGroups{"topology",  "network", "exchange", "schedule",
                                          "optimizer", "island",  "fpga",     "run",
                                          "packet",    "output",  "simulator"};

std::string
InitialValue(const std::string& path)
{
    auto colon = path.rfind("::");
    TypeId tid = TypeId::LookupByName(path.substr(0, colon));
    TypeId::AttributeInformation info;
    tid.LookupAttributeByName(path.substr(colon + 2), &info);
    return info.initialValue->SerializeToString(info.checker);
}

/// Every option of the table: a unique name, an attribute that exists (its own or the mapped
/// one), a default its own check accepts; and the defaults of options mapped to the module's
/// own attributes are those attributes' initial values (one source).
class TableTestCase : public TestCase
{
  public:
    TableTestCase()
        : TestCase("every option: unique, an attribute, a valid default (one set of defaults)")
    {
    }

  private:
    void DoRun() override
    {
        Config::Reset();
        std::set<std::string> names;
        std::set<std::string> groups;
        for (const OptionSpec& spec : ExperimentOptions::Table())
        {
            bool unique = names.insert(spec.name).second;
            NS_TEST_ASSERT_MSG_EQ(unique, true, "twice: " + spec.name);
            groups.insert(spec.group);
            std::string attribute =
                spec.attribute.empty()
                    ? "ns3::ExperimentOptions::" + std::string(1, std::toupper(spec.name[0])) +
                          spec.name.substr(1)
                    : spec.attribute;
            auto colon = attribute.rfind("::");
            TypeId tid;
            TypeId::AttributeInformation info;
            bool exists = TypeId::LookupByNameFailSafe(attribute.substr(0, colon), &tid) &&
                          tid.LookupAttributeByName(attribute.substr(colon + 2), &info);
            NS_TEST_ASSERT_MSG_EQ(exists, true, "--" + spec.name + ": no attribute " + attribute);
        }
        ExperimentOptions all("test", {});
        for (const std::string& g : groups)
        {
            all.Use(g); // throws if a default is invalid
        }
        all.ParseArguments({});
        NS_TEST_EXPECT_MSG_EQ(all.GetDouble("computeTime"), 0.01,
                              "computeTime's default is TrainingIsland::ComputeTime's (10 ms)");
        NS_TEST_EXPECT_MSG_EQ(all.GetInteger("modelBytes"), 100000000u, "modelBytes default");
        NS_TEST_EXPECT_MSG_EQ(all.GetInteger("slots"), NetworkCapabilities().aggregationSlots,
                              "slots' default is the FPGA's");
        // The defaults of mapped options become the attributes' defaults for the program.
        NS_TEST_EXPECT_MSG_EQ(InitialValue("ns3::TrainingIsland::Rounds"), "4",
                              "--rounds' default applied to TrainingIsland::Rounds");
        NS_TEST_EXPECT_MSG_EQ(InitialValue("ns3::PointToPointNetDevice::Mtu"), "9000",
                              "--mtu's default applied to PointToPointNetDevice::Mtu");
        bool listed = ExperimentOptions::RstTable().find("``--computeTime``") != std::string::npos;
        NS_TEST_EXPECT_MSG_EQ(listed, true, "the rst table lists the options");
        Config::Reset();
    }
};

/// An option and the attribute it maps to are one setting: either form takes effect, both
/// agreeing are accepted, both disagreeing refused; an option that is its own attribute too.
class TwoFormsTestCase : public TestCase
{
  public:
    TwoFormsTestCase()
        : TestCase("--computeTime and --ns3::TrainingIsland::ComputeTime are one setting")
    {
    }

  private:
    void DoRun() override
    {
        Config::Reset();
        {
            ExperimentOptions o("test", kAllGroups);
            o.ParseArguments({"--ns3::TrainingIsland::ComputeTime=250ms"});
            NS_TEST_EXPECT_MSG_EQ(o.GetDouble("computeTime"), 0.25, "attribute form read");
            NS_TEST_EXPECT_MSG_EQ(o.WasGiven("computeTime"), true, "given");
            NS_TEST_EXPECT_MSG_EQ(o.ToCostParameters().computeTimeS, 0.25,
                                  "the fluid model sees the attribute form");
            NS_TEST_EXPECT_MSG_EQ(InitialValue("ns3::TrainingIsland::ComputeTime"), "+2.5e+08ns",
                                  "the islands see it");
        }
        Config::Reset();
        {
            ExperimentOptions o("test", kAllGroups);
            o.ParseArguments({"--computeTime=0.25", "--ns3::TrainingIsland::ComputeTime=250ms"});
            NS_TEST_EXPECT_MSG_EQ(o.GetDouble("computeTime"), 0.25, "agreeing forms accepted");
        }
        Config::Reset();
        {
            ExperimentOptions o("test", kAllGroups);
            std::string e = ErrorOf([&] {
                o.ParseArguments({"--computeTime=0.5", "--ns3::TrainingIsland::ComputeTime=1s"});
            });
            NS_TEST_EXPECT_MSG_NE(e.find("same setting with different values"), std::string::npos,
                                  "disagreeing forms refused: " + e);
        }
        Config::Reset();
        {
            ExperimentOptions o("test", kAllGroups);
            o.ParseArguments({"--ns3::ExperimentOptions::LinkRate=2.5e9", "--mode=multicast"});
            NS_TEST_EXPECT_MSG_EQ(o.ToGraphOptions().privateRateBps, 2.5e9, "own attribute");
            NS_TEST_EXPECT_MSG_EQ(o.ToGraphOptions().metroRateBps, 0,
                                  "--linkRate leaves the metro links alone (one meaning)");
            NS_TEST_EXPECT_MSG_EQ(o.ToGraphOptions().exchangeRateBps, 0,
                                  "--linkRate leaves the exchange links alone (one meaning)");
            NS_TEST_EXPECT_MSG_EQ(o.ToCapabilities(Topology()).multicast, true, "mode");
        }
        Config::Reset();
        {
            // A script's Config::SetDefault of an option attribute is that option's default.
            Config::SetDefault("ns3::ExperimentOptions::Mode", StringValue("aggregation"));
            ExperimentOptions o("test", kAllGroups);
            o.ParseArguments({});
            NS_TEST_EXPECT_MSG_EQ(o.GetText("mode"), "aggregation", "script default");
        }
        Config::Reset();
    }
};

/// Values are checked at the boundary, the flag named in the message.
class ValidationTestCase : public TestCase
{
  public:
    ValidationTestCase()
        : TestCase("bad values refused with the flag and the accepted range named")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
            {{"--computeTime=1e300"}, "--computeTime=1e300: out of range"},
            {{"--linkRate=0.5"}, "--linkRate=0.5: out of range"},
            {{"--rounds=-1"}, "--rounds=-1: out of range"},
            {{"--rounds=1.5"}, "--rounds=1.5: not a whole number"},
            {{"--modelBytes=nan"}, "--modelBytes=nan: not a number"},
            {{"--segmentSize=9000"}, "more than the MTU"},
            {{"--modelBytes=1e14", "--segmentSize=8"}, "32-bit sequence numbers"},
            {{"--mode=anycast"}, "--mode=anycast: not one of"},
            {{"--ns3::UdpTransport::MinRto=inf"}, "--ns3::UdpTransport::MinRto=inf"},
            {{"--ns3::TrainingIsland::Nope=1"}, "has no attribute 'Nope'"},
            {{"--horizon=5"}, "--horizon is not an option of test"},
            {{"--ns3::ExperimentOptions::Horizon=5"}, "would have no effect in test"},
            {{"--schedule=ring", "--islands=AMS,FRA"}, "--islands=AMS,FRA would have no effect"},
            {{"junk"}, "unexpected argument 'junk'"},
        };
        for (const auto& [args, want] : cases)
        {
            Config::Reset();
            ExperimentOptions o("test", kAllGroups);
            std::string e = ErrorOf([&] { o.ParseArguments(args); });
            NS_TEST_EXPECT_MSG_NE(e.find(want), std::string::npos,
                                  args.front() + ": got '" + e + "', want '" + want + "'");
        }
        Config::Reset();
        ExperimentOptions fluid("fluid", {"island"});
        fluid.SetSimulates(false);
        std::string e = ErrorOf([&] { fluid.ParseArguments({"--RngRun=2"}); });
        NS_TEST_EXPECT_MSG_NE(e.find("would have no effect"), std::string::npos,
                              "a fluid program refuses ns-3 globals: " + e);
        Config::Reset();
    }
};

/// The metro fabric's, the latency check's and the routing metric's options reach the graph:
/// defaults are NetworkGraphOptions' own, given values land in their fields and change the
/// graph built from the nine cities; bad values are refused with the flag named.
class NetworkOptionsTestCase : public TestCase
{
  public:
    NetworkOptionsTestCase()
        : TestCase("network options: metro, exchange, latency check and routing metric")
    {
    }

  private:
    void DoRun() override
    {
        const NetworkGraphOptions d;
        Config::Reset();
        {
            ExperimentOptions o("test", kAllGroups);
            o.ParseArguments({});
            NetworkGraphOptions g = o.ToGraphOptions();
            NS_TEST_EXPECT_MSG_EQ(g.metroRateBps, d.metroRateBps, "metro rate default");
            NS_TEST_EXPECT_MSG_EQ(g.metroLatencyS, d.metroLatencyS, "metro latency default");
            NS_TEST_EXPECT_MSG_EQ(g.exchange, d.exchange, "exchange default");
            NS_TEST_EXPECT_MSG_EQ(g.exchangeLatencyS, d.exchangeLatencyS, "exchange latency");
            NS_TEST_EXPECT_MSG_EQ((g.latencyCheck == d.latencyCheck), true, "check default");
            NS_TEST_EXPECT_MSG_EQ((g.routing.metric == d.routing.metric), true, "metric");
            NS_TEST_EXPECT_MSG_EQ(g.routing.hopCostS, d.routing.hopCostS, "hop cost");
            NS_TEST_EXPECT_MSG_EQ(g.routing.capacityCostBits, d.routing.capacityCostBits,
                                  "capacity cost");
        }
        Config::Reset();
        {
            ExperimentOptions o("test", kAllGroups);
            o.ParseArguments({"--accessRate=5e9", "--metroLatency=1e-4", "--cityExchange=false",
                              "--exchangeLatency=1e-3", "--latencyCheck=fix",
                              "--routingMetric=latency+capacity", "--hopCost=2e-4",
                              "--capacityCost=1e6"});
            NetworkGraphOptions g = o.ToGraphOptions();
            NS_TEST_EXPECT_MSG_EQ(g.metroRateBps, 5e9, "--accessRate: metro links");
            NS_TEST_EXPECT_MSG_EQ(g.exchangeRateBps, 5e9, "--accessRate: exchange links");
            NS_TEST_EXPECT_MSG_EQ(g.accessRateBps, 0, "the island's own link keeps its default");
            NS_TEST_EXPECT_MSG_EQ(g.metroLatencyS, 1e-4, "--metroLatency");
            NS_TEST_EXPECT_MSG_EQ(g.exchange, false, "--cityExchange");
            NS_TEST_EXPECT_MSG_EQ(g.exchangeLatencyS, 1e-3, "--exchangeLatency");
            NS_TEST_EXPECT_MSG_EQ((g.latencyCheck == LatencyCheckMode::FIX), true,
                                  "--latencyCheck");
            NS_TEST_EXPECT_MSG_EQ((g.routing.metric == RoutingMetric::LATENCY_CAPACITY), true,
                                  "--routingMetric");
            NS_TEST_EXPECT_MSG_EQ(g.routing.hopCostS, 2e-4, "--hopCost");
            NS_TEST_EXPECT_MSG_EQ(g.routing.capacityCostBits, 1e6, "--capacityCost");

            // They change the graph: no exchange node, metro links at 100 us and 5 Gbit/s,
            // SEO1-TYO2 raised to the fibre bound (5.648 ms for 1152.6 km).
            Topology topo = TopologyReader::ReadFile(std::string(INTELLIGENT_NETWORK_DATA_DIR) +
                                                     "/nine-city.topology");
            NetworkGraph graph = NetworkGraph::FromTopology(topo, g);
            bool exchangeNode = false;
            for (const GraphNode& n : graph.Nodes())
            {
                exchangeNode = exchangeNode || n.kind == NodeKind::EXCHANGE;
            }
            NS_TEST_EXPECT_MSG_EQ(exchangeNode, false, "no exchange node");
            int64_t metro = graph.FindEdge(graph.NodeByName("FRA1"),
                                           static_cast<uint32_t>(graph.MetroNode("FRA")));
            NS_TEST_ASSERT_MSG_NE(metro, -1, "FRA1's metro link");
            NS_TEST_EXPECT_MSG_EQ(graph.Edges()[metro].latencyS, 1e-4, "metro latency");
            NS_TEST_EXPECT_MSG_EQ(graph.Edges()[metro].capacityBps, 5e9, "metro rate");
            int64_t seoTyo = graph.FindEdgeByNames("SEO1", "TYO2");
            NS_TEST_ASSERT_MSG_NE(seoTyo, -1, "SEO1-TYO2");
            NS_TEST_EXPECT_MSG_EQ_TOL(graph.Edges()[seoTyo].latencyS, 5.648e-3, 1e-6,
                                      "raised to the bound");
        }
        for (const auto& [arg, want] : std::vector<std::pair<std::string, std::string>>{
                 {"--latencyCheck=maybe", "--latencyCheck=maybe: not one of"},
                 {"--routingMetric=hops", "--routingMetric=hops: not one of"},
                 {"--metroLatency=0", "--metroLatency=0: out of range"},
                 {"--hopCost=-1", "--hopCost=-1: out of range"},
                 {"--capacityCost=nan", "--capacityCost=nan: not a number"}})
        {
            Config::Reset();
            ExperimentOptions o("test", kAllGroups);
            std::string e = ErrorOf([&] { o.ParseArguments({arg}); });
            NS_TEST_EXPECT_MSG_NE(e.find(want), std::string::npos,
                                  arg + ": got '" + e + "', want '" + want + "'");
        }
        Config::Reset();
    }
};

/// After Build, every attribute given on the command line must hold on every object of its
/// type: an island whose attribute the program changed is caught (the check can fail), and a
/// scenario that honours it passes; every setting lands in the parameters.
class AppliedTestCase : public TestCase
{
  public:
    AppliedTestCase()
        : TestCase("an attribute the program overrides is caught; settings recorded")
    {
    }

  private:
    static std::string Run(bool overrideOne, std::string* parameters)
    {
        Config::Reset();
        ExperimentOptions o("test", kAllGroups);
        o.ParseArguments({"--ns3::TrainingIsland::CheckValues=12", "--modelBytes=1e5", "--rounds=1",
                          "--computeTime=0"});
        Topology t = ChainTopology({1e9}, {1e-3});
        Schedule s("pair", {ScheduleRound{{{"C0", "C1"}}}});
        ScenarioHelper scenario;
        o.Configure(scenario, t, s);
        scenario.Build();
        if (overrideOne)
        {
            scenario.SetIslandAttribute("C1", "CheckValues", UintegerValue(16));
        }
        std::string error = ErrorOf([&] { o.CheckAttributesApplied(); });
        if (parameters)
        {
            *parameters = o.ParametersJson();
        }
        Simulator::Destroy();
        Ipv4AddressGenerator::Reset();
        return error;
    }

    void DoRun() override
    {
        std::string parameters;
        NS_TEST_EXPECT_MSG_EQ(Run(false, &parameters), "", "honoured attribute passes");
        std::string e = Run(true, nullptr);
        NS_TEST_EXPECT_MSG_NE(e.find("--ns3::TrainingIsland::CheckValues=12 did not take effect"),
                              std::string::npos, "override caught: " + e);
        NS_TEST_EXPECT_MSG_NE(e.find("1 of 2"), std::string::npos, "one island of two: " + e);
        auto p = nlohmann::json::parse(parameters);
        NS_TEST_EXPECT_MSG_EQ(p.value("ns3::TrainingIsland::CheckValues", ""), "12",
                              "user attribute recorded");
        bool own = p.contains("ns3::FpgaAggregator::Timeout");
        NS_TEST_EXPECT_MSG_EQ(own, true, "own TypeIds recorded");
        uint64_t model = p.value("modelBytes", uint64_t{0});
        NS_TEST_EXPECT_MSG_EQ(model, 100000u, "option recorded");
        bool db = p.contains("db");
        NS_TEST_EXPECT_MSG_EQ(db, false, "outputs are not settings");
        Config::Reset();
    }
};

/// Optimized schedules get names from their cliques: equal cliques, equal names.
class OptimizedNameTestCase : public TestCase
{
  public:
    OptimizedNameTestCase()
        : TestCase("optimized schedules are told apart by name")
    {
    }

  private:
    void DoRun() override
    {
        Schedule a("x", {ScheduleRound{{{"A", "B"}, {"C", "D"}}}});
        Schedule b("y", {ScheduleRound{{{"A", "B"}, {"C", "D"}}}});
        Schedule c("x", {ScheduleRound{{{"A", "C"}, {"B", "D"}}}});
        NS_TEST_EXPECT_MSG_EQ(ExperimentOptions::OptimizedName(a),
                              ExperimentOptions::OptimizedName(b), "same cliques, same name");
        NS_TEST_EXPECT_MSG_NE(ExperimentOptions::OptimizedName(a),
                              ExperimentOptions::OptimizedName(c), "other cliques, other name");
        std::size_t prefix = ExperimentOptions::OptimizedName(a).rfind("optimized-", 0);
        NS_TEST_EXPECT_MSG_EQ(prefix, 0u, "prefix");
    }
};

/// The scheduler the options choose is the one that runs the events and the one recorded, also
/// when the simulator was made before the options were parsed (a node created first).
class SchedulerTestCase : public TestCase
{
  public:
    SchedulerTestCase()
        : TestCase("the scheduler chosen is the one that runs and the one recorded")
    {
    }

  private:
    /// Parses ARGS after a node has made the simulator with MapScheduler; returns the
    /// schedulers that ran the events (from their function log) and sets *recorded.
    static std::set<std::string> Run(const std::vector<std::string>& args, std::string* recorded)
    {
        Simulator::Destroy();
        Config::Reset();
        Config::SetGlobal("SchedulerType", StringValue("ns3::MapScheduler"));
        NodeContainer nodes;
        nodes.Create(1); // schedules the node's start: the simulator exists now, on MapScheduler
        ExperimentOptions o("test", kAllGroups);
        o.ParseArguments(args);
        *recorded = nlohmann::json::parse(o.ParametersJson()).value("SchedulerType", "");
        const char* names[] = {"MapScheduler", "PriorityQueueScheduler", "HeapScheduler"};
        std::ostringstream log;
        std::streambuf* saved = std::clog.rdbuf(log.rdbuf());
        for (const char* n : names)
        {
            LogComponentEnable(n, LOG_LEVEL_FUNCTION);
        }
        Simulator::Schedule(Seconds(1), [] {});
        Simulator::Run();
        for (const char* n : names)
        {
            LogComponentDisable(n, LOG_LEVEL_ALL);
        }
        std::clog.rdbuf(saved);
        std::set<std::string> used;
        std::istringstream lines(log.str());
        for (std::string line; std::getline(lines, line);)
        {
            std::size_t colon = line.find(":RemoveNext(");
            if (colon != std::string::npos)
            {
                std::size_t start = line.rfind(' ', colon);
                used.insert(line.substr(start == std::string::npos ? 0 : start + 1,
                                        colon - (start == std::string::npos ? 0 : start + 1)));
            }
        }
        Simulator::Destroy();
        Config::Reset();
        return used;
    }

    void DoRun() override
    {
        std::string recorded;
        std::set<std::string> used = Run({}, &recorded);
        NS_TEST_EXPECT_MSG_EQ(recorded, ExperimentOptions::DEFAULT_SCHEDULER, "default recorded");
        NS_TEST_EXPECT_MSG_EQ((used == std::set<std::string>{"PriorityQueueScheduler"}), true,
                              "the default scheduler runs the events (log names " << used.size()
                                                                                   << ")");
        used = Run({"--SchedulerType=ns3::HeapScheduler"}, &recorded);
        NS_TEST_EXPECT_MSG_EQ(recorded, "ns3::HeapScheduler", "option recorded");
        NS_TEST_EXPECT_MSG_EQ((used == std::set<std::string>{"HeapScheduler"}), true,
                              "the scheduler given runs the events");
    }
};

/// --hugePages: the kernel's view of the heap (/proc/self/smaps) is what the option asked for
/// and what the run records; large blocks come from the advised heap.
class HugePagesTestCase : public TestCase
{
  public:
    HugePagesTestCase()
        : TestCase("--hugePages advises the heap (kernel's VmFlags), off takes it back, recorded")
    {
    }

  private:
    struct Mapping
    {
        bool found = false;
        std::string flags;     ///< VmFlags of the mapping holding the address.
        std::string name;      ///< Its path or [heap].
        uint64_t hugeKiB = 0;  ///< Its AnonHugePages.
    };

    static Mapping MappingOf(const void* address)
    {
        auto a = reinterpret_cast<uintptr_t>(address);
        std::ifstream smaps("/proc/self/smaps");
        Mapping m;
        bool inside = false;
        for (std::string line; std::getline(smaps, line);)
        {
            std::size_t dash = line.find('-');
            std::size_t space = line.find(' ');
            if (dash != std::string::npos && space != std::string::npos && dash < space &&
                line.find_first_not_of("0123456789abcdef") == dash)
            {
                uintptr_t lo = std::stoull(line.substr(0, dash), nullptr, 16);
                uintptr_t hi = std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16);
                inside = lo <= a && a < hi;
                if (inside)
                {
                    m.found = true;
                    std::size_t last = line.find_last_of(' ');
                    m.name = line.substr(last + 1);
                }
            }
            else if (inside && line.rfind("VmFlags:", 0) == 0)
            {
                m.flags = line.substr(8) + " ";
            }
            else if (inside && line.rfind("AnonHugePages:", 0) == 0)
            {
                m.hugeKiB = std::stoull(line.substr(14));
            }
        }
        return m;
    }

    /// THP_enabled of /proc/self/status (0: PR_SET_THP_DISABLE), -1 if the kernel has no line.
    static int ThpEnabled()
    {
        std::ifstream status("/proc/self/status");
        for (std::string line; std::getline(status, line);)
        {
            if (line.rfind("THP_enabled:", 0) == 0)
            {
                return std::stoi(line.substr(12));
            }
        }
        return -1;
    }

    static std::string Recorded(const std::vector<std::string>& args, bool simulates = true)
    {
        ExperimentOptions o("test", kAllGroups);
        o.SetSimulates(simulates);
        o.ParseArguments(args);
        return nlohmann::json::parse(o.ParametersJson()).value("HugePageHeap", "");
    }

    void DoRun() override
    {
        std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
        std::string modes;
        std::getline(f, modes);
        bool kernelHas = modes.find("[madvise]") != std::string::npos ||
                         modes.find("[always]") != std::string::npos;

        std::string recorded = Recorded({});
        const HugePageHeap& st = GetHugePageHeap();
        // A system that refuses the address-space reservation (strict overcommit, a small
        // RLIMIT_DATA) runs without it: recorded so, nothing to check in the kernel's view.
        const bool refused = st.reason.rfind("the heap cannot grow", 0) == 0 ||
                             st.reason == "malloc did not extend the heap";
        kernelHas = kernelHas && !refused;
        NS_TEST_EXPECT_MSG_EQ(recorded, st.Describe(), "the state in effect is recorded");
        // A block as large as a model's buffers: from the heap, which the kernel now treats
        // as huge-page memory ("hg"), not from a separate mapping with ordinary pages.
        std::vector<char> block(8 << 20, 1);
        Mapping m = MappingOf(block.data());
#if defined(__linux__) && defined(__GLIBC__)
        const bool jemalloc = HeapAllocator().rfind("jemalloc", 0) == 0;
        if (jemalloc)
        {
            // jemalloc's own mappings, advised by jemalloc (thp:always, compiled into the
            // module's programs), with transparent huge pages on for the process.
            NS_TEST_EXPECT_MSG_EQ(st.advised, kernelHas, recorded);
            if (kernelHas)
            {
                NS_TEST_EXPECT_MSG_EQ(recorded.rfind("advised by jemalloc (thp:always)", 0), 0,
                                      recorded);
                NS_TEST_EXPECT_MSG_NE(m.flags.find(" hg "), std::string::npos,
                                      "jemalloc mapping " << m.name << " VmFlags:" << m.flags);
                NS_TEST_EXPECT_MSG_EQ(ThpEnabled(), 1, "THP_enabled in /proc/self/status");
            }
            recorded = Recorded({"--hugePages=false"});
            NS_TEST_EXPECT_MSG_EQ(GetHugePageHeap().advised, false, "off");
            NS_TEST_EXPECT_MSG_EQ(recorded.rfind("not advised: --hugePages=false", 0), 0,
                                  recorded);
            NS_TEST_EXPECT_MSG_EQ(ThpEnabled(), 0, "off for the process (PR_SET_THP_DISABLE)");
            Recorded({"--hugePages=true"});
            NS_TEST_EXPECT_MSG_EQ(ThpEnabled(), 1, "on again");
        }
        else if (kernelHas)
        {
            NS_TEST_EXPECT_MSG_EQ(st.advised, true, "advised with the kernel in " << modes
                                                                                  << ": " << st.reason);
            NS_TEST_EXPECT_MSG_EQ(recorded.rfind("advised ", 0), 0, recorded);
            NS_TEST_EXPECT_MSG_EQ(m.name, "[heap]", "an 8 MiB block comes from the heap");
            NS_TEST_EXPECT_MSG_NE(m.flags.find(" hg "), std::string::npos,
                                  "heap VmFlags:" << m.flags);
            NS_TEST_EXPECT_MSG_GT(st.advisedBytes, uint64_t(64) << 20, "the reservation");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(st.advised, false, "kernel without transparent huge pages");
            NS_TEST_EXPECT_MSG_EQ(recorded.rfind("not advised: ", 0), 0, recorded);
        }
#endif
        // Off: the advice is taken back (the kernel's "nh") and recorded so.
        recorded = Recorded({"--hugePages=false"});
        NS_TEST_EXPECT_MSG_EQ(GetHugePageHeap().advised, false, "off");
        NS_TEST_EXPECT_MSG_EQ(recorded.rfind("not advised: --hugePages=false", 0), 0, recorded);
#if defined(__linux__) && defined(__GLIBC__)
        if (kernelHas && !jemalloc)
        {
            m = MappingOf(block.data());
            NS_TEST_EXPECT_MSG_EQ(m.flags.find(" hg "), std::string::npos,
                                  "heap VmFlags:" << m.flags);
            NS_TEST_EXPECT_MSG_NE(m.flags.find(" nh "), std::string::npos,
                                  "heap VmFlags:" << m.flags);
            // On again (the reservation is made once; the advice comes back).
            Recorded({"--hugePages=true"});
            m = MappingOf(block.data());
            NS_TEST_EXPECT_MSG_NE(m.flags.find(" hg "), std::string::npos,
                                  "heap VmFlags:" << m.flags);
        }
        if (jemalloc)
        {
            Recorded({"--hugePages=true"}); // the process's default again, for later tests
        }
#endif
        // A program that simulates nothing has no such option.
        std::string e = ErrorOf([] { Recorded({"--hugePages=true"}, false); });
        NS_TEST_EXPECT_MSG_NE(e.find("--hugePages"), std::string::npos, e);
        NS_TEST_EXPECT_MSG_EQ(Recorded({}, false), "", "not recorded without simulation");
    }
};

class ExperimentOptionsTestSuite : public TestSuite
{
  public:
    ExperimentOptionsTestSuite()
        : TestSuite("intelligent-network-options", UNIT)
    {
        AddTestCase(new TableTestCase, TestCase::QUICK);
        AddTestCase(new TwoFormsTestCase, TestCase::QUICK);
        AddTestCase(new ValidationTestCase, TestCase::QUICK);
        AddTestCase(new NetworkOptionsTestCase, TestCase::QUICK);
        AddTestCase(new AppliedTestCase, TestCase::QUICK);
        AddTestCase(new OptimizedNameTestCase, TestCase::QUICK);
        AddTestCase(new SchedulerTestCase, TestCase::QUICK);
        AddTestCase(new HugePagesTestCase, TestCase::QUICK);
    }
};

ExperimentOptionsTestSuite g_experimentOptionsTestSuite;

} // namespace
