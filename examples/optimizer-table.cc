/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Generate the optimizer table (reStructuredText) of doc/optimizer-table.rst: for every exchange
// mode, link rate and model size, the best schedule the optimizer finds beside every baseline.
// Run through scripts/optimizer-table.sh.
//
//   ./optimizer-table --topology=data/nine-city.topology --computeTime=0.1 --out=table.rst
//
// Options: those of every program that apply here (ExperimentOptions; --PrintHelp): the
// topology, the compute time, the optimizer's period, seed and iterations, --out (default:
// standard output). Modes, link rates and model sizes are the table's axes.

#include "ns3/baseline-schedules.h"
#include "ns3/cost-model.h"
#include "ns3/data-directory.h"
#include "ns3/experiment-options.h"
#include "ns3/schedule-optimizer.h"
#include "ns3/topology-reader.h"

#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

using namespace ns3;

namespace
{

std::string
Fixed(double v, int digits)
{
    std::ostringstream o;
    o << std::fixed << std::setprecision(digits) << v;
    return o.str();
}

std::string
Cell(const ConsensusScore& s)
{
    if (!std::isfinite(s.secondsToTarget))
    {
        return "never";
    }
    std::string t = Fixed(s.secondsToTarget, 2) + " s";
    return std::isinf(s.rate) ? t : t + " (" + Fixed(s.rate, 3) + "/s)";
}

std::string
Bytes(double b)
{
    return b >= 1e9 ? Fixed(b / 1e9, 0) + " GB" : Fixed(b / 1e6, 0) + " MB";
}

/// Islands per clique, averaged over the islands of every round (an island alone counts 1).
double
MeanCliqueSize(const Schedule& s, std::size_t islands)
{
    double sum = 0;
    for (const ScheduleRound& r : s.Rounds())
    {
        std::size_t covered = 0;
        for (const Clique& c : r.cliques)
        {
            sum += static_cast<double>(c.size() * c.size());
            covered += c.size();
        }
        sum += static_cast<double>(islands - covered);
    }
    return sum / static_cast<double>(islands * s.Period());
}

} // namespace

int
main(int argc, char* argv[])
{
    ExperimentOptions options("optimizer-table", {"topology", "optimizer"});
    options.Drop("islands");
    options.Add("computeTime");
    options.Add("out");
    options.SetSimulates(false);
    options.Parse(argc, argv);
    const std::string out = options.GetText("out");
    const double computeTime = options.GetDouble("computeTime");
    const OptimizerOptions searchOptions = options.ToOptimizerOptions();
    const std::size_t period = searchOptions.maxPeriod;
    const uint64_t seed = searchOptions.seed;

    try
    {
        Topology topology = options.LoadTopology();
        const std::vector<std::string> islands = topology.CityCodes();
        const std::vector<std::pair<ExchangePattern, std::string>> modes{
            {ExchangePattern::ALL_TO_ALL, "unicast"},
            {ExchangePattern::MULTICAST, "multicast"},
            {ExchangePattern::AGGREGATION, "multicast+aggregation"}};
        const std::vector<double> rates{10e9, 100e9};
        const std::vector<double> sizes{100e6, 1e9, 10e9};
        const std::vector<std::string> baseNames{"all-reduce", "ring", "exp-graph",
                                                 "grid",       "star", "DiLoCo-4"};

        std::ostringstream rows;
        std::map<std::string, std::vector<double>> meanSize;
        std::map<std::string, int> beatsAll;
        std::map<std::string, int> matchesAll;
        std::string server;
        std::vector<std::string> geo;
        for (const auto& [mode, modeName] : modes)
        {
            for (double rate : rates)
            {
                NetworkGraphOptions go;
                go.privateRateBps = rate;
                go.metroRateBps = rate; // the devices' attachment (device edge)
                go.exchangeRateBps = rate;
                NetworkGraph graph = NetworkGraph::FromTopology(topology, go);
                for (double size : sizes)
                {
                    CostParameters params;
                    params.modelBytes = size;
                    params.computeTimeS = computeTime;
                    CostModel cost(graph, NetworkCapabilities::ForPattern(mode), params);
                    ScheduleOptimizer opt(cost, islands, searchOptions);
                    OptimizerResult best = opt.Optimize();
                    geo = BaselineSchedules::NearestNeighbourOrder(cost.Routes(), islands);
                    server = BaselineSchedules::CentralIsland(cost.Routes(), islands);
                    std::vector<Schedule> bases = BaselineSchedules::All(geo, server, 4);
                    rows << "   * - " << modeName << "\n     - " << Fixed(rate / 1e9, 0)
                         << " Gbps\n     - " << Bytes(size)
                         << "\n     - p=" << best.schedule.Period() << ": "
                         << ScheduleOptimizer::CliqueSizes(best.schedule) << "\n     - "
                         << Cell(best.score) << "\n";
                    bool strictly = true;
                    bool atLeast = true;
                    for (const Schedule& b : bases)
                    {
                        OptimizerResult r = opt.Evaluate(b);
                        rows << "     - " << Cell(r.score) << "\n";
                        strictly = strictly && ConsensusMetric::Better(best.score,
                                                                       best.schedule.Period(),
                                                                       r.score, b.Period());
                        atLeast = atLeast && !ConsensusMetric::Better(r.score, b.Period(),
                                                                      best.score,
                                                                      best.schedule.Period());
                    }
                    beatsAll[modeName] += strictly ? 1 : 0;
                    matchesAll[modeName] += atLeast ? 1 : 0;
                    meanSize[modeName].push_back(MeanCliqueSize(best.schedule, islands.size()));
                    std::cerr << modeName << " " << rate / 1e9 << " Gbps " << Bytes(size) << ": "
                              << best.schedule.Describe() << std::flush;
                }
            }
        }

        std::ofstream file;
        if (!out.empty())
        {
            file.open(out);
            if (!file)
            {
                throw std::invalid_argument("--out=" + out + ": cannot write the file");
            }
        }
        std::ostream& f = out.empty() ? std::cout : file;
        const std::string title = "Optimizer table: " + topology.GetName() + " topology";
        std::string source = options.GetText("topology");
        source = source.substr(source.find_last_of('/') + 1);
        if (options.GetText("topology") == IntelligentNetworkDataDir() + "/" + source)
        {
            source = "data/" + source; // a shipped topology
        }
        f << ".. Generated by scripts/optimizer-table.sh (examples/optimizer-table.cc); do not "
             "edit.\n\n"
          << title << "\n"
          << std::string(title.size(), '=') << "\n\n"
          << "Best rotating-clique schedule found by ``ScheduleOptimizer`` (periods 1.." << period
          << ", seed " << seed << ") on ``" << source << "``, for each exchange mode, "
          << "private and access link rate (public paths stay at 1 Gbps) and model size, beside "
          << "the baselines. Compute: " << Fixed(computeTime, 2)
          << " s per round (one local step), no overlap; segments of 8192 payload bytes; FPGA "
          << "defaults (100 Gbps, 32768 slots of 8192 bytes per clique). Cells give the "
          << "fluid-model seconds to reach consensus error 1e-3 (worst case over start vectors: ||W_k..W_1 - J||_2 <= 1e-3), and "
          << "the rate -ln||W_T..W_1 - J||/T in parentheses when the period does not average "
          << "exactly (an exact period has an unbounded rate and is ranked by seconds). Baselines "
          << "use the nearest-neighbour order " <<
            [&geo]() {
                std::string s;
                for (const auto& c : geo)
                {
                    s += (s.empty() ? "" : " ") + c;
                }
                return s;
            }()
          << "; the star's server is " << server
          << " (smallest worst-case latency). \"p=2: 3+3+3 | 3+3+3\" reads: period 2, three "
             "cliques of three in each round.\n\n"
          << ".. list-table::\n   :header-rows: 1\n\n"
          << "   * - Mode\n     - Links\n     - Model\n     - Best schedule\n     - Best\n";
        for (const auto& b : baseNames)
        {
            f << "     - " << b << "\n";
        }
        f << rows.str() << "\n"
          << "Mean clique size of the best schedule (islands per clique, averaged over islands "
             "and rounds; 9 = everyone in one clique), per mode over the six link/model "
             "cases:\n\n";
        for (const auto& [mode, modeName] : modes)
        {
            double sum = 0;
            for (double v : meanSize[modeName])
            {
                sum += v;
            }
            f << "- " << modeName << ": " << Fixed(sum / meanSize[modeName].size(), 2)
              << " (cases: ";
            for (std::size_t i = 0; i < meanSize[modeName].size(); ++i)
            {
                f << (i ? ", " : "") << Fixed(meanSize[modeName][i], 1);
            }
            f << "); at least as good as every baseline in " << matchesAll[modeName]
              << " of 6 cases, strictly better than all of them in " << beatsAll[modeName]
              << ".\n";
        }
    }
    catch (const std::exception& e)
    {
        return options.Fail(e);
    }
    return ExperimentOptions::EXIT_COMPLETE;
}
