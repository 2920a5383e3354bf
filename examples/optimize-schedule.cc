/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Search the rotating-clique schedule, and the exchange pattern of every clique, that minimises
// the objective (--objective: by default the predicted training time, or the seconds to
// consensus) on a topology for a capability set; print it beside the baselines
// (ring and tree all-reduce, parameter server, all-to-all, grid, exponential graph, DiLoCo),
// and write it as a schedule file the ns-3 scenario can run.
//
//   ./optimize-schedule --topology=data/nine-city.topology --capabilities=unicast,multicast
//       --modelBytes=1e9 --linkRate=100e9 --period=2 --computeTime=0.1
//       --islands=AMS,FRA,LON,NYC --seed=1 --out=schedule.json
//   ./optimize-schedule --synthetic=32 --topologySeed=1 --capabilities=unicast --json=-
//   ./optimize-schedule --synthetic=64 --optimizerBudget=45   # best so far after 45 s, with gap
//
// --json=FILE writes (--json=- prints, instead of the text) the whole result as one JSON object
// (OptimizationReport::ToJson): "best" (the schedule with the pattern of every clique,
// "round_times_s", "score" in seconds, lower is better, and the bound and gap of the search) and
// "baselines" (each with "name", "patterns", "round_times_s" and "score"; or "name" and "excluded",
// the reason, for a baseline whose fixed pattern the capabilities or --patterns exclude).
//
// The options are those of every program (ExperimentOptions, doc/options-table.rst), with the
// same defaults and meaning: the same flags given to nine-city-training simulate the network
// this program predicts (--linkRate sets the private links only; --accessRate the islands'
// access links). Impossible input (unreadable or disconnected topology, unknown island or more
// islands than cities, out-of-range numbers, bad capability set, pattern or aggregation design)
// exits with status 2 and a message; a progress line goes to stderr during long searches.

#include "ns3/baseline-schedules.h"
#include "ns3/cost-model.h"
#include "ns3/experiment-options.h"
#include "ns3/optimization-report.h"
#include "ns3/schedule-optimizer.h"
#include "ns3/topology-reader.h"

#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{
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

} // namespace

int
main(int argc, char* argv[])
{
    ExperimentOptions options("optimize-schedule", {"topology", "network", "exchange",
                                                     "optimizer", "island", "fpga", "fluid",
                                                     "synthetic", "report"});
    options.Add("json");
    options.SetSimulates(false);
    options.Parse(argc, argv);
    const std::string out = options.GetText("out");
    const std::string writeTopology = options.GetText("writeTopology");
    // --json=FILE writes the whole result as JSON (FILE '-': standard output, instead of the
    // text); without --json only the text is printed.
    const std::string jsonPath = options.WasGiven("json") ? options.GetText("json") : "";
    const bool json = jsonPath == "-";
    const bool baselines = options.GetFlag("baselines");

    try
    {
        // An output naming the topology it reads, or another output: refused before anything
        // is written (the topology file was overwritten by the schedule).
        ExperimentOptions::CheckOutputFiles(
            {{"out", out}, {"writeTopology", writeTopology}, {"json", json ? "" : jsonPath}},
            {{"topology", options.GetText("topology")}});
        Topology topology = options.LoadTopology();
        if (!writeTopology.empty())
        {
            TopologyReader::WriteFile(topology, writeTopology);
        }
        NetworkGraph graph = NetworkGraph::FromTopology(topology, options.ToGraphOptions());
        std::vector<std::string> islands = options.OptimizerIslands(topology, graph);
        CostParameters params = options.ToCostParameters();
        NetworkCapabilities caps = options.ToCapabilities(topology);
        CostModel cost(graph, caps, params);

        OptimizerOptions oo = options.ToOptimizerOptions(islands.size());
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
             << AggregationDesignName(caps.aggregationDesign) << "), model " << params.modelBytes
             << " B, link ";
        if (options.GetDouble("linkRate") == 0)
        {
            desc << "topology's";
        }
        else
        {
            desc << options.GetDouble("linkRate") << " bit/s";
        }
        desc << ", compute " << params.computeTimeS << " s x " << params.localSteps
             << ", period <= " << oo.maxPeriod << ", seed " << oo.seed << "; score "
             << SecondsText(best.score) << " (" << report.objectiveDescription << ")";
        best.schedule.SetName(ExperimentOptions::OptimizedName(best.schedule));
        best.schedule.SetDescription(desc.str());
        if (!jsonPath.empty() && !json)
        {
            std::ofstream file(jsonPath);
            file << report.ToJson() << "\n";
            file.close();
            if (file.fail())
            {
                throw std::invalid_argument("--json=" + jsonPath + ": cannot write the file");
            }
        }
        if (json)
        {
            std::cout << report.ToJson() << "\n";
        }
        else
        {
            std::cout << "Best schedule (" << best.method << ", "
                      << (best.optimal ? "proven optimal" : "gap to bound ")
                      << (best.optimal ? "" : Percent(best.gap))
                      << (best.budgetExhausted ? ", budget spent: best so far" : "") << ", "
                      << best.evaluated
                      << " candidates, " << best.simulated << " rounds costed, " << std::fixed
                      << std::setprecision(2) << report.searchSeconds << " s):\n"
                      << best.schedule.Describe()
                      << "clique sizes: " << ScheduleOptimizer::CliqueSizes(best.schedule)
                      << "\npatterns: " << Patterns(best.schedule)
                      << "\nscore: " << SecondsText(best.score);
            // The consensus figures are filled by the consensus objective only.
            if (best.consensus.roundsToTarget !=
                std::numeric_limits<decltype(best.consensus.roundsToTarget)>::max())
            {
                std::cout << " (rate " << Rate(best.consensus) << ", "
                          << best.consensus.roundsToTarget << " rounds to 1e-3)";
            }
            std::cout << " (" << report.objective << "), round times:";
            for (double t : best.roundTimes)
            {
                // Microseconds: the tests compare them with the simulated rounds.
                std::cout << " " << std::fixed << std::setprecision(6) << t << " s";
            }
            std::cout << "\n";
            if (baselines)
            {
                std::cout << "\nBaselines (islands in nearest-neighbour order):\n";
                for (const BaselineResult& b : report.baselines)
                {
                    if (!b.excluded.empty())
                    {
                        std::cout << "  " << std::left << std::setw(17)
                                  << b.baseline.schedule.GetName() << std::right
                                  << " not evaluated: " << b.excluded << "\n";
                        continue;
                    }
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
        return options.Fail(e);
    }
    return ExperimentOptions::EXIT_COMPLETE;
}
