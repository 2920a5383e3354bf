/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The main experiment: nine training islands (AMS, BAR, FRA, LAX, LON, NYC, SEO, SIN, TYO) on
// the DoubleZero-like WAN exchange their models round after round following a schedule; the
// program prints a per-round summary and the busiest links, and appends the run to an SQLite
// results database.
//
//   ./nine-city-training --schedule=3x3-rotating --rounds=4 --modelBytes=100e6 --db=results.db
//
// Every option has a default; --PrintHelp lists them. Bad input (unknown file, malformed
// topology or schedule, unknown city, negative rate) exits with status 2 and a message naming
// the file, line and field.

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("NineCityTraining");

namespace
{

/// A schedule given by name ("3x3-rotating") is looked up among the shipped ones.
std::string
SchedulePath(const std::string& s)
{
    if (s.find('/') != std::string::npos || s.find(".json") != std::string::npos)
    {
        return s;
    }
    return std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/schedules/" + s + ".json";
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string topologyPath = std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology";
    std::string schedule = "3x3-rotating";
    std::string mode = "unicast";
    std::string db = "results.db";
    std::string runKey;
    uint32_t rounds = 4;
    double modelBytes = 100e6;
    uint32_t segmentSize = 8192;
    uint32_t mtu = 9000;
    double computeTime = 0.05;
    uint32_t localSteps = 1;
    double linkRate = 0;
    double accessRate = 0;
    double publicRate = 0;
    double lossRate = 0;
    uint32_t slotBytes = 0;
    uint32_t slots = NetworkCapabilities().aggregationSlots;
    double fpgaRate = NetworkCapabilities().fpgaThroughputBps;
    double fpgaLatency = NetworkCapabilities().fpgaLatencyS;
    double aggTimeout = NetworkCapabilities().aggregationTimeoutS;
    std::string fpgaDevices;
    bool barrier = true;
    bool rateControl = true;
    bool quiet = false;
    std::string transport = "ideal";
    std::string queueDisc = "none";
    uint32_t queueSize = 2000;

    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "Topology file, or a DoubleZero sample directory", topologyPath);
    cmd.AddValue("schedule", "Schedule file, or a shipped schedule name", schedule);
    cmd.AddValue("mode", "unicast | multicast | aggregation", mode);
    cmd.AddValue("rounds", "Rounds to simulate", rounds);
    cmd.AddValue("modelBytes", "Model bytes exchanged per island per round", modelBytes);
    cmd.AddValue("segmentSize", "Model bytes per simulated segment", segmentSize);
    cmd.AddValue("mtu", "MTU of every link, bytes", mtu);
    cmd.AddValue("computeTime", "Seconds of compute per local step", computeTime);
    cmd.AddValue("localSteps", "Local steps per round", localSteps);
    cmd.AddValue("linkRate", "Override private link rate, bit/s (0: topology's)", linkRate);
    cmd.AddValue("accessRate", "Island access rate, bit/s (0: device edge capacity)", accessRate);
    cmd.AddValue("publicRate", "Override public path rate, bit/s (0: topology's)", publicRate);
    cmd.AddValue("lossRate", "Random packet loss on every link", lossRate);
    cmd.AddValue("slotBytes", "Aggregation slot size, bytes (0: the segment size)", slotBytes);
    cmd.AddValue("slots", "Aggregation slots per clique at an FPGA", slots);
    cmd.AddValue("fpgaRate", "FPGA throughput, bit/s of contributions", fpgaRate);
    cmd.AddValue("fpgaLatency", "FPGA pipeline latency, seconds", fpgaLatency);
    cmd.AddValue("aggTimeout", "Aggregation straggler timeout, seconds", aggTimeout);
    cmd.AddValue("fpgaDevices", "Comma-separated devices with an FPGA (empty: all)", fpgaDevices);
    cmd.AddValue("barrier", "Barrier-synchronised rounds", barrier);
    cmd.AddValue("rateControl", "Network-assisted max-min rates", rateControl);
    cmd.AddValue("transport", "ideal | cc | tcp", transport);
    cmd.AddValue("queueDisc", "Egress queue discipline: none | pfifo | red-ecn | fq-codel", queueDisc);
    cmd.AddValue("queueSize", "Packets an egress queue holds", queueSize);
    cmd.AddValue("db", "SQLite results database, appended to (none: do not record)", db);
    cmd.AddValue("runKey", "Identity of this run in the database (sweeps)", runKey);
    cmd.AddValue("quiet", "Print only the summary line", quiet);
    cmd.Parse(argc, argv);

    ScenarioHelper scenario;
    RunRecord run;
    std::unique_ptr<ResultsDatabase> database; // opened and checked before the simulation
    try
    {
        // Command-line values that no loader checks.
        const std::pair<const char*, double> nonNegative[] = {{"linkRate", linkRate},
                                                              {"accessRate", accessRate},
                                                              {"publicRate", publicRate},
                                                              {"computeTime", computeTime},
                                                              {"lossRate", lossRate}};
        for (const auto& [name, value] : nonNegative)
        {
            if (value < 0)
            {
                throw std::invalid_argument(std::string("--") + name + " must not be negative");
            }
        }
        if (modelBytes < 1)
        {
            throw std::invalid_argument("--modelBytes must be at least 1");
        }
        if (mtu < 576 || mtu > 65535)
        {
            throw std::invalid_argument("--mtu must be between 576 and 65535");
        }
        Topology topology = TopologyReader::Read(topologyPath, publicRate > 0 ? publicRate : 1e9);
        Schedule sched = Schedule::Load(SchedulePath(schedule), topology.CityCodes());
        NetworkGraphOptions graphOptions;
        graphOptions.privateRateBps = linkRate;
        graphOptions.accessRateBps = accessRate;
        graphOptions.publicRateBps = publicRate;

        scenario.SetTopology(topology);
        scenario.SetGraphOptions(graphOptions);
        scenario.SetSchedule(sched);
        NetworkCapabilities caps =
            NetworkCapabilities::ForPattern(ParsePattern(mode));
        caps.slotBytes = slotBytes > 0 ? slotBytes : segmentSize;
        caps.aggregationSlots = slots;
        caps.fpgaThroughputBps = fpgaRate;
        caps.fpgaLatencyS = fpgaLatency;
        caps.aggregationTimeoutS = aggTimeout;
        std::stringstream devices(fpgaDevices);
        for (std::string d; std::getline(devices, d, ',');)
        {
            if (!topology.FindDevice(d))
            {
                throw std::invalid_argument("--fpgaDevices: unknown device '" + d + "'");
            }
            caps.fpgaDevices.push_back(d);
        }
        caps.fpgaOnAllDevices = caps.fpgaDevices.empty();
        caps.Validate();
        scenario.SetCapabilities(caps);
        scenario.SetRounds(rounds);
        scenario.SetMtu(static_cast<uint16_t>(mtu));
        scenario.SetLossRate(lossRate);
        scenario.SetBarrier(barrier);
        scenario.SetRateControl(rateControl);
        scenario.SetTransport(transport);
        scenario.SetQueueDisc(queueDisc);
        scenario.SetQueueSize(queueSize);
        scenario.SetIslandAttribute("ModelBytes", UintegerValue(static_cast<uint64_t>(modelBytes)));
        scenario.SetIslandAttribute("SegmentSize", UintegerValue(segmentSize));
        scenario.SetIslandAttribute("ComputeTime", TimeValue(Seconds(computeTime)));
        scenario.SetIslandAttribute("LocalSteps", UintegerValue(localSteps));
        scenario.Build();

        run.runKey = runKey;
        run.program = "nine-city-training";
        run.topology = topology.GetName();
        run.schedule = sched.GetName();
        run.mode = mode;
        run.seed = RngSeedManager::GetSeed();
        run.runNumber = RngSeedManager::GetRun();
        run.modelBytes = static_cast<uint64_t>(modelBytes);
        run.segmentSize = segmentSize;
        run.rounds = rounds;
        run.parametersJson =
            nlohmann::json{{"topology", topologyPath}, {"schedule", SchedulePath(schedule)},
                           {"mode", mode}, {"rounds", rounds}, {"modelBytes", modelBytes},
                           {"segmentSize", segmentSize}, {"mtu", mtu},
                           {"computeTime", computeTime}, {"localSteps", localSteps},
                           {"linkRate", linkRate}, {"accessRate", accessRate},
                           {"publicRate", publicRate}, {"lossRate", lossRate},
                           {"slotBytes", caps.slotBytes}, {"slots", slots},
                           {"fpgaRate", fpgaRate}, {"fpgaLatency", fpgaLatency},
                           {"aggTimeout", aggTimeout}, {"fpgaDevices", fpgaDevices},
                           {"barrier", barrier}, {"rateControl", rateControl},
                           {"transport", transport}, {"queueDisc", queueDisc},
                           {"queueSize", queueSize}}
                .dump();
        database = ResultsDatabase::OpenForRun(db, runKey);
        if (!quiet)
        {
            std::cout << "Nine-city training: " << scenario.GetIslandCities().size()
                      << " islands, schedule '" << sched.GetName() << "' (period "
                      << sched.Period() << "), mode " << mode << ", "
                      << modelBytes / 1e6 << " MB model, " << rounds << " rounds\n"
                      << sched.Describe();
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 2;
    }

    ScenarioResult result = scenario.Run();
    if (!quiet)
    {
        std::cout << "\nPer-round summary (simulated time):\n";
        result.PrintRoundTable(std::cout);
        std::cout << "\nBusiest link directions:\n";
        result.PrintLinkTable(std::cout, 8);
    }
    std::cout << "\n"
              << (result.complete ? "complete" : "INCOMPLETE") << ": " << result.rounds.size()
              << " clique-rounds, simulated " << result.simTimeS << " s in " << result.wallTimeS
              << " s wall time, " << result.events << " events; transport " << result.transport
              << ", queue drops " << result.queueDrops << ", ECN marks " << result.ecnMarks
              << ", retransmitted " << result.retransmittedBytes / 1e6 << " MB\n";
    int status = result.complete ? 0 : 1;
    if (!result.complete)
    {
        std::cerr << "error: " << result.error << std::endl;
    }
    if (database)
    {
        try
        {
            int64_t id = result.Write(*database, run);
            std::cout << "results: run " << id << " appended to " << db << "\n";
        }
        catch (const std::exception& e)
        {
            std::cerr << "error: " << e.what() << std::endl;
            status = 2;
        }
    }
    Simulator::Destroy();
    return status;
}
