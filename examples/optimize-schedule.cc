/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Search the rotating-clique schedule, and the exchange pattern of every clique, that minimises
// the seconds to consensus on a topology for a capability set; print it beside the baselines
// (ring and tree all-reduce, parameter server, all-to-all, grid, exponential graph, DiLoCo),
// and write it as a schedule file the ns-3 scenario can run.
//
//   ./optimize-schedule --topology=data/nine-city.topology --capabilities=unicast,multicast
//       --modelBytes=1e9 --linkRate=100e9 --period=2 --computeTime=0.1
//       --islands=AMS,FRA,LON,NYC --seed=1 --out=schedule.json
//   ./optimize-schedule --synthetic=32 --topologySeed=1 --capabilities=unicast --json
//
// --json prints the whole result as one JSON object (OptimizationReport::ToJson): "best" (the
// schedule with the pattern of every clique, "round_times_s", "score" in seconds, lower is
// better, and the bound and gap of the search) and "baselines" (each with "name", "patterns",
// "round_times_s" and "score").
//
// --linkRate sets every private link and, unless --accessRate is given, the islands' access
// links too (a faster WAN behind 10 Gbps access links would change nothing).
//
// Every option has a default; --PrintHelp lists them. Impossible input (unreadable or
// disconnected topology, unknown island or more islands than cities, zero or negative
// bandwidth, bad capability, pattern or aggregation design) exits with status 2 and a message; a progress line goes to stderr
// during long searches.

#include "ns3/baseline-schedules.h"
#include "ns3/command-line.h"
#include "ns3/cost-model.h"
#include "ns3/optimization-report.h"
#include "ns3/schedule-optimizer.h"
#include "ns3/synthetic-topology.h"
#include "ns3/topology-reader.h"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{

std::vector<std::string>
SplitList(const std::string& s)
{
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ','))
    {
        if (!item.empty())
        {
            out.push_back(item);
        }
    }
    return out;
}

std::string
Rate(const ConsensusScore& s)
{
    if (std::isinf(s.rate))
    {
        return "exact";
    }
    std::ostringstream o;
    o << std::setprecision(4) << s.rate << "/s";
    return o.str();
}

std::string
SecondsText(double s)
{
    if (!std::isfinite(s))
    {
        return "never";
    }
    std::ostringstream o;
    o << std::fixed << std::setprecision(3) << s << " s";
    return o.str();
}

std::string
Percent(double gap)
{
    std::ostringstream o;
    o << std::fixed << std::setprecision(1) << 100 * gap << "%";
    return o.str();
}

/// Pattern of every clique, rounds separated by " | ".
std::string
Patterns(const Schedule& s)
{
    std::string out;
    for (const ScheduleRound& r : s.Rounds())
    {
        std::string round;
        for (std::size_t c = 0; c < r.cliques.size(); ++c)
        {
            if (r.cliques[c].size() >= 2 && c < r.patterns.size())
            {
                round += (round.empty() ? "" : ",") + PatternName(r.patterns[c]);
            }
        }
        out += (out.empty() ? "" : " | ") + (round.empty() ? "-" : round);
    }
    return out;
}

/// A positive bandwidth, or NaN = not given.
void
CheckRate(const std::string& name, double v)
{
    if (!std::isnan(v) && !(v > 0 && std::isfinite(v)))
    {
        throw std::invalid_argument("--" + name + " must be a bandwidth greater than zero (bit/s)");
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string topologyPath = std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology";
    std::string capabilities = "unicast";
    std::string aggregation = "tree";
    std::string patterns;
    double fpgaMemory = NetworkCapabilities().fpgaMemoryBytes;
    bool json = false;
    std::string islandList;
    std::string out;
    double modelBytes = 1e9;
    uint32_t segmentSize = 8192;
    double computeTime = 0;
    uint32_t localSteps = 1;
    bool overlap = false;
    double linkRate = std::nan("");
    double accessRate = std::nan("");
    double publicRate = std::nan("");
    uint32_t period = 2;
    uint64_t seed = 1;
    uint32_t iterations = 4000;
    bool baselines = true;
    uint32_t synthetic = 0;
    uint64_t topologySeed = 1;
    std::string writeTopology;

    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "Topology file (or DoubleZero sample directory)", topologyPath);
    cmd.AddValue("synthetic", "Use a synthetic topology of this many cities instead of --topology",
                 synthetic);
    cmd.AddValue("topologySeed", "Seed of the synthetic topology", topologySeed);
    cmd.AddValue("writeTopology", "Also write the topology used to this file", writeTopology);
    cmd.AddValue("capabilities", "Capability set: unicast[,multicast][,aggregation]",
                 capabilities);
    cmd.AddValue("aggregation", "Aggregation design: tree | single (one FPGA per clique)",
                 aggregation);
    cmd.AddValue("patterns", "Restrict the exchange patterns (e.g. ring,tree; default: all)",
                 patterns);
    cmd.AddValue("fpgaMemory", "Aggregation memory of one FPGA, bytes", fpgaMemory);
    cmd.AddValue("json", "Print the whole result as one JSON object", json);
    cmd.AddValue("modelBytes", "Model size M in bytes", modelBytes);
    cmd.AddValue("segmentSize", "Segment payload S in bytes", segmentSize);
    cmd.AddValue("linkRate", "Rate of every private link, bit/s (default: topology's)", linkRate);
    cmd.AddValue("accessRate",
                 "Island access rate, bit/s (default: linkRate if given, else device edge)",
                 accessRate);
    cmd.AddValue("publicRate", "Rate of public paths, bit/s (default: topology's, 1 Gbps)",
                 publicRate);
    cmd.AddValue("period", "Longest schedule period searched", period);
    cmd.AddValue("computeTime", "Compute time of one local step, s", computeTime);
    cmd.AddValue("localSteps", "Local steps per round", localSteps);
    cmd.AddValue("overlap", "Overlap communication with the next round's compute", overlap);
    cmd.AddValue("islands", "Comma-separated island cities (default: every city)", islandList);
    cmd.AddValue("seed", "Seed of the heuristic search", seed);
    cmd.AddValue("iterations", "Annealing proposals per start and period round", iterations);
    cmd.AddValue("baselines", "Also print the baselines", baselines);
    cmd.AddValue("out", "Write the best schedule (JSON schedule file) here", out);
    cmd.Parse(argc, argv);

    try
    {
        NetworkCapabilities caps;
        caps.SetSwitches(capabilities);
        caps.SetAggregationDesign(aggregation);
        caps.fpgaMemoryBytes = fpgaMemory;
        if (!patterns.empty())
        {
            caps.SetPatterns(patterns);
        }
        caps.Validate();
        CheckRate("linkRate", linkRate);
        CheckRate("accessRate", accessRate);
        CheckRate("publicRate", publicRate);
        if (period == 0)
        {
            throw std::invalid_argument("--period must be at least 1");
        }
        Topology topology("none");
        if (synthetic > 0)
        {
            SyntheticTopologyOptions so;
            so.cities = synthetic;
            so.seed = topologySeed;
            topology = SyntheticTopology::Generate(so);
            topologyPath = topology.GetSource();
        }
        else
        {
            topology =
                TopologyReader::Read(topologyPath, std::isnan(publicRate) ? 1e9 : publicRate);
        }
        if (!writeTopology.empty())
        {
            TopologyReader::WriteFile(topology, writeTopology);
        }
        NetworkGraphOptions go;
        go.privateRateBps = std::isnan(linkRate) ? 0 : linkRate;
        go.accessRateBps = !std::isnan(accessRate) ? accessRate : go.privateRateBps;
        go.publicRateBps = std::isnan(publicRate) ? 0 : publicRate;
        NetworkGraph graph = NetworkGraph::FromTopology(topology, go);

        std::vector<std::string> islands =
            islandList.empty() ? topology.CityCodes() : SplitList(islandList);
        if (islands.size() > topology.Cities().size())
        {
            throw std::invalid_argument(std::to_string(islands.size()) +
                                        " islands requested but the topology has only " +
                                        std::to_string(topology.Cities().size()) + " cities");
        }
        if (std::set<std::string>(islands.begin(), islands.end()).size() != islands.size())
        {
            throw std::invalid_argument("--islands lists a city twice");
        }
        for (const std::string& c : islands)
        {
            if (!topology.FindCity(c))
            {
                throw std::invalid_argument("island '" + c + "' is not a city of " + topologyPath);
            }
        }
        if (islands.size() < 2)
        {
            throw std::invalid_argument("at least two islands are needed");
        }
        RoutePlanner routes(graph);
        for (const std::string& c : islands)
        {
            if (!routes.Reachable(graph.IslandNode(c), graph.IslandNode(islands[0])))
            {
                throw std::invalid_argument("the topology is disconnected: no route from " + c +
                                            " to " + islands[0]);
            }
        }

        CostParameters params;
        params.modelBytes = modelBytes;
        params.segmentPayloadBytes = segmentSize;
        params.computeTimeS = computeTime;
        params.localSteps = localSteps;
        params.overlap = overlap;
        CostModel cost(graph, caps, params);

        OptimizerOptions oo;
        oo.maxPeriod = period;
        oo.seed = seed;
        oo.iterations = iterations;
        auto started = std::chrono::steady_clock::now();
        auto lastReport = started;
        bool reported = false;
        oo.progress = [&](const OptimizerProgress& p) {
            auto now = std::chrono::steady_clock::now();
            if (now - lastReport < std::chrono::milliseconds(500))
            {
                return;
            }
            lastReport = now;
            reported = true;
            std::cerr << "\rperiod " << p.period << " (" << p.method << "): " << p.done;
            if (p.total > 0)
            {
                std::cerr << "/" << p.total;
            }
            std::cerr << " candidates, best score " << SecondsText(p.bestScore) << ", "
                      << std::chrono::duration<double>(now - started).count()
                      << " s elapsed   " << std::flush;
        };
        OptimizationReport report = OptimizationReport::Run(cost, islands, oo, 4, baselines);
        if (reported)
        {
            std::cerr << "\n";
        }
        OptimizerResult& best = report.best;
        std::ostringstream desc;
        desc << "optimize-schedule: capabilities " << caps.SetName() << " (aggregation "
             << aggregation << "), model " << modelBytes << " B, link ";
        if (std::isnan(linkRate))
        {
            desc << "topology's";
        }
        else
        {
            desc << linkRate << " bit/s";
        }
        desc << ", compute " << computeTime << " s x " << localSteps << ", period <= " << period
             << ", seed " << seed << "; score " << SecondsText(best.score) << " ("
             << report.objectiveDescription << ")";
        best.schedule.SetDescription(desc.str());

        if (json)
        {
            std::cout << report.ToJson() << "\n";
        }
        else
        {
            std::cout << "Best schedule (" << best.method << ", "
                      << (best.optimal ? "proven optimal" : "gap to bound ")
                      << (best.optimal ? "" : Percent(best.gap)) << ", " << best.evaluated
                      << " candidates, " << best.simulated << " rounds costed, " << std::fixed
                      << std::setprecision(2) << report.searchSeconds << " s):\n"
                      << best.schedule.Describe()
                      << "clique sizes: " << ScheduleOptimizer::CliqueSizes(best.schedule)
                      << "\npatterns: " << Patterns(best.schedule)
                      << "\nscore: " << SecondsText(best.score) << " (rate " << Rate(best.consensus)
                      << ", " << best.consensus.roundsToTarget << " rounds to 1e-3), round times:";
            for (double t : best.roundTimes)
            {
                std::cout << " " << SecondsText(t);
            }
            std::cout << "\n";
            if (baselines)
            {
                std::cout << "\nBaselines (islands in nearest-neighbour order):\n";
                for (const BaselineResult& b : report.baselines)
                {
                    std::cout << "  " << std::left << std::setw(17) << b.baseline.schedule.GetName()
                              << std::right << " period " << b.result.schedule.Period()
                              << "  score " << std::setw(10) << SecondsText(b.result.score)
                              << "  patterns " << Patterns(b.result.schedule) << "\n";
                }
            }
        }
        if (!out.empty())
        {
            best.schedule.Save(out);
            if (!json)
            {
                std::cout << "\nWrote " << out << "\n";
            }
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "optimize-schedule: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
