/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Search the rotating-clique schedule that maximises consensus per second on a topology, print
// it beside the baselines, and write it as a schedule file the ns-3 scenario can run.
//
//   ./optimize-schedule --topology=data/nine-city.topology --mode=multicast
//       --modelBytes=1e9 --linkRate=100e9 --period=2 --computeTime=0.1
//       --islands=AMS,FRA,LON,NYC --seed=1 --out=schedule.json
//   ./optimize-schedule --synthetic=32 --topologySeed=1 --mode=unicast   # 32-city benchmark
//
// The options are those of every program (ExperimentOptions, doc/options-table.rst), with the
// same defaults and meaning: the same flags given to nine-city-training simulate the network
// this program predicts (--linkRate sets the private links only; --accessRate the islands'
// access links). Impossible input (unreadable or disconnected topology, unknown island or more
// islands than cities, out-of-range numbers, bad mode) exits with status 2 and a message; a
// progress line goes to stderr during long searches.

#include "ns3/baseline-schedules.h"
#include "ns3/cost-model.h"
#include "ns3/experiment-options.h"
#include "ns3/schedule-optimizer.h"
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

} // namespace

int
main(int argc, char* argv[])
{
    ExperimentOptions options("optimize-schedule", {"topology", "network", "exchange",
                                                     "optimizer", "island", "fpga", "fluid",
                                                     "synthetic", "report"});
    options.SetSimulates(false);
    options.Parse(argc, argv);
    const std::string mode = options.GetText("mode");
    const std::string out = options.GetText("out");
    const std::string writeTopology = options.GetText("writeTopology");

    try
    {
        Topology topology = options.LoadTopology();
        if (!writeTopology.empty())
        {
            TopologyReader::WriteFile(topology, writeTopology);
        }
        NetworkGraph graph = NetworkGraph::FromTopology(topology, options.ToGraphOptions());
        std::vector<std::string> islands = options.OptimizerIslands(topology, graph);
        CostParameters params = options.ToCostParameters();
        CostModel cost(graph, options.ToCapabilities(topology), params);

        OptimizerOptions oo = options.ToOptimizerOptions();
        auto started = std::chrono::steady_clock::now();
        auto lastReport = started;
        bool reported = false;
        oo.progress = [&](const OptimizerProgress& p) {
            auto now = std::chrono::steady_clock::now();
            if (now - lastReport < std::chrono::milliseconds(500) && p.done < p.total)
            {
                return;
            }
            lastReport = now;
            reported = true;
            std::cerr << "\rperiod " << p.period << " (" << p.method << "): " << p.done << "/"
                      << p.total << " candidates, best " << SecondsText(p.bestSeconds)
                      << " to target, " << std::chrono::duration<double>(now - started).count()
                      << " s elapsed   " << std::flush;
        };
        ScheduleOptimizer optimizer(cost, islands, oo);
        OptimizerResult best = optimizer.Optimize();
        if (reported)
        {
            std::cerr << "\n";
        }
        double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

        std::ostringstream desc;
        desc << "optimize-schedule: mode " << mode << ", model " << params.modelBytes
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
             << ", period <= " << oo.maxPeriod << ", seed " << oo.seed << "; rate "
             << Rate(best.score) << ", " << SecondsText(best.score.secondsToTarget) << " to 1e-3";
        best.schedule.SetName(ExperimentOptions::OptimizedName(best.schedule));
        best.schedule.SetDescription(desc.str());

        std::cout << "Best schedule (" << best.method << ", " << best.evaluated << " candidates, "
                  << best.simulated << " rounds costed, " << std::fixed << std::setprecision(2)
                  << elapsed << " s):\n"
                  << best.schedule.Describe()
                  << "clique sizes: " << ScheduleOptimizer::CliqueSizes(best.schedule)
                  << "\nrate: " << Rate(best.score)
                  << ", to 1e-3: " << SecondsText(best.score.secondsToTarget) << " ("
                  << best.score.roundsToTarget << " rounds), round times:";
        for (double t : best.roundTimes)
        {
            // Microseconds: the tests compare them with the simulated rounds.
            std::cout << " " << std::fixed << std::setprecision(6) << t << " s";
        }
        std::cout << "\n";
        if (options.GetFlag("baselines"))
        {
            auto geo = BaselineSchedules::NearestNeighbourOrder(cost.Routes(), islands);
            std::string server = BaselineSchedules::CentralIsland(cost.Routes(), islands);
            std::cout << "\nBaselines (islands in nearest-neighbour order, star server " << server
                      << "):\n";
            for (const Schedule& s : BaselineSchedules::All(geo, server, 4))
            {
                OptimizerResult r = optimizer.Evaluate(s);
                std::cout << "  " << std::left << std::setw(12) << s.GetName() << std::right
                          << " period " << s.Period() << "  rate " << std::setw(10) << Rate(r.score)
                          << "  to 1e-3 " << SecondsText(r.score.secondsToTarget) << "\n";
            }
        }
        if (!out.empty())
        {
            best.schedule.Save(out);
            std::cout << "\nWrote " << out << "\n";
        }
    }
    catch (const std::exception& e)
    {
        return options.Fail(e);
    }
    return ExperimentOptions::EXIT_COMPLETE;
}
