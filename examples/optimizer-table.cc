/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Generate the optimizer table (reStructuredText) of doc/optimizer-table.rst: for every link
// rate, model size and capability set ({unicast}, +multicast, +aggregation), the best schedule
// the optimizer finds (with the pattern of every clique) beside every baseline, and where the
// plain network's best collective wins. Run through scripts/optimizer-table.sh.
//
//   ./optimizer-table --topology=data/nine-city.topology --computeTime=0.1 --out=table.rst
//
// Options: those of every program that apply here (ExperimentOptions; --PrintHelp): the
// topology, the compute time, the optimizer's period, seed and iterations, the aggregation
// design, --out (default: standard output). Capability sets, link rates and model sizes are
// the table's axes.

#include "ns3/baseline-schedules.h"
#include "ns3/cost-model.h"
#include "ns3/data-directory.h"
#include "ns3/experiment-options.h"
#include "ns3/optimization-report.h"
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
SecondsText(double s)
{
    return std::isfinite(s) ? Fixed(s, 2) + " s" : "never";
}

std::string
Bytes(double b)
{
    return b >= 1e9 ? Fixed(b / 1e9, 0) + " GB" : Fixed(b / 1e6, 0) + " MB";
}

/// "+12%" / "-3%": how much slower (+) or faster (-) \p a is than \p b.
std::string
Relative(double a, double b)
{
    double r = 100 * (a / b - 1);
    return (r >= 0 ? "+" : "") + Fixed(r, 0) + "%";
}

/// Clique sizes with the pattern of every clique, e.g. "3 ring, 3 tree | 9 aggregation".
std::string
Structure(const Schedule& s)
{
    std::string out;
    for (const ScheduleRound& r : s.Rounds())
    {
        std::string round;
        for (std::size_t c = 0; c < r.cliques.size(); ++c)
        {
            if (r.cliques[c].size() < 2)
            {
                continue;
            }
            round += (round.empty() ? "" : ", ") + std::to_string(r.cliques[c].size()) + " " +
                     (c < r.patterns.size() ? PatternName(r.patterns[c]) : std::string("?"));
        }
        out += (out.empty() ? "" : " | ") + (round.empty() ? std::string("alone") : round);
    }
    return out;
}

/// Cities of every clique of every round, e.g. "AMS+FRA+LON, ... | ...".
std::string
Cities(const Schedule& s)
{
    std::string out;
    for (const ScheduleRound& r : s.Rounds())
    {
        std::string round;
        for (const Clique& c : r.cliques)
        {
            if (c.size() < 2)
            {
                continue;
            }
            std::string names;
            for (const auto& city : c)
            {
                names += (names.empty() ? "" : "+") + city;
            }
            round += (round.empty() ? "" : ", ") + names;
        }
        out += (out.empty() ? "" : " | ") + (round.empty() ? std::string("alone") : round);
    }
    return out;
}

struct Cell
{
    double rate;
    double size;
    std::map<std::string, OptimizationReport> bySet; ///< capability set -> report
    OptimizationReport multicastOnly;                ///< patterns restricted to multicast
    OptimizationReport aggregationOnly;              ///< patterns restricted to aggregation
};

} // namespace

int
main(int argc, char* argv[])
{
    ExperimentOptions options("optimizer-table", {"topology", "optimizer"});
    options.Drop("islands");
    options.Add("computeTime");
    options.Add("aggregation");
    options.Add("out");
    options.SetSimulates(false);
    options.Parse(argc, argv);
    const std::string out = options.GetText("out");
    const double computeTime = options.GetDouble("computeTime");
    const std::string aggregation = options.GetText("aggregation");
    const std::size_t period = options.GetInteger("period");
    const uint64_t seed = options.GetInteger("seed");

    try
    {
        Topology topology = options.LoadTopology();
        // Every city that hosts a device (a city without devices is on the map only), checked
        // as every program checks its optimizer's islands.
        const std::vector<std::string> islands = options.OptimizerIslands(
            topology, NetworkGraph::FromTopology(topology, options.ToGraphOptions()));
        const OptimizerOptions searchOptions = options.ToOptimizerOptions(islands.size());
        const std::vector<std::string> sets{"unicast", "unicast,multicast",
                                            "unicast,multicast,aggregation"};
        const std::vector<double> rates{10e9, 100e9};
        const std::vector<double> sizes{100e6, 1e9, 10e9};
        std::vector<Cell> cells;
        std::vector<std::string> geo;
        std::vector<std::string> baseNames;
        for (double rate : rates)
        {
            NetworkGraphOptions go;
            go.privateRateBps = rate;
            go.metroRateBps = rate; // the devices' attachment (device edge)
            go.exchangeRateBps = rate;
            NetworkGraph graph = NetworkGraph::FromTopology(topology, go);
            for (double size : sizes)
            {
                Cell cell{rate, size, {}, {}, {}};
                CostParameters params;
                params.modelBytes = size;
                params.computeTimeS = computeTime;
                OptimizerOptions oo = searchOptions;
                auto run = [&](const std::string& set, const std::string& only, bool baselines) {
                    NetworkCapabilities caps;
                    caps.SetSwitches(set);
                    caps.SetAggregationDesign(aggregation);
                    if (!only.empty())
                    {
                        caps.SetPatterns(only);
                    }
                    CostModel cost(graph, caps, params);
                    return OptimizationReport::Run(cost, islands, oo, 4, baselines);
                };
                for (const std::string& set : sets)
                {
                    cell.bySet[set] = run(set, "", true);
                    std::cerr << Fixed(rate / 1e9, 0) << " Gbps " << Bytes(size) << " {" << set
                              << "}: " << Structure(cell.bySet[set].best.schedule) << ", "
                              << SecondsText(cell.bySet[set].best.score) << "\n";
                }
                cell.multicastOnly = run("unicast,multicast", "multicast", false);
                cell.aggregationOnly = run(sets[2], "aggregation", false);
                if (geo.empty())
                {
                    geo = BaselineSchedules::NearestNeighbourOrder(
                        CostModel(graph, NetworkCapabilities(), params).Routes(), islands);
                    for (const BaselineResult& b : cell.bySet[sets[0]].baselines)
                    {
                        baseNames.push_back(b.baseline.schedule.GetName());
                    }
                }
                cells.push_back(std::move(cell));
            }
        }

        std::ostringstream table;
        table << ".. list-table::\n   :header-rows: 1\n\n"
              << "   * - Links\n     - Model\n     - Capabilities\n     - Best schedule\n"
              << "     - Best\n";
        for (const auto& b : baseNames)
        {
            table << "     - " << b << "\n";
        }
        std::ostringstream summary;
        summary << ".. list-table::\n   :header-rows: 1\n\n"
                << "   * - Links\n     - Model\n     - Plain network's best collective\n"
                << "     - Best {unicast}\n     - Best +multicast\n     - Best +aggregation\n"
                << "     - Multicast only\n     - Aggregation only\n";
        std::ostringstream findings;
        std::ostringstream schedules;
        int plainWins = 0;
        bool allOptimal = true;
        for (const Cell& cell : cells)
        {
            std::string where = Fixed(cell.rate / 1e9, 0) + " Gbps, " + Bytes(cell.size);
            for (const std::string& set : sets)
            {
                const OptimizationReport& r = cell.bySet.at(set);
                allOptimal = allOptimal && r.best.optimal;
                table << "   * - " << Fixed(cell.rate / 1e9, 0) << " Gbps\n     - "
                      << Bytes(cell.size) << "\n     - " << set << "\n     - p="
                      << r.best.schedule.Period() << ": " << Structure(r.best.schedule)
                      << "\n     - " << SecondsText(r.best.score)
                      << (r.best.optimal ? "" : " (gap " + Fixed(100 * r.best.gap, 0) + "%)")
                      << "\n";
                for (const BaselineResult& b : r.baselines)
                {
                    table << "     - " << SecondsText(b.result.score) << "\n";
                }
                schedules << "- " << where << ", {" << set << "}: " << Cities(r.best.schedule)
                          << " (" << Structure(r.best.schedule) << ")\n";
            }
            // The plain network's best collective: the best fixed-pattern unicast baseline.
            const OptimizationReport& uni = cell.bySet.at(sets[0]);
            const BaselineResult* plain = nullptr;
            for (const BaselineResult& b : uni.baselines)
            {
                bool collective = b.baseline.schedule.Period() == 1 &&
                                  !b.baseline.schedule.Rounds()[0].patterns.empty();
                if (collective && (!plain || b.result.score < plain->result.score))
                {
                    plain = &b;
                }
            }
            double best3 = cell.bySet.at(sets[2]).best.score;
            double best2 = cell.bySet.at(sets[1]).best.score;
            double mc = cell.multicastOnly.best.score;
            double agg = cell.aggregationOnly.best.score;
            summary << "   * - " << Fixed(cell.rate / 1e9, 0) << " Gbps\n     - "
                    << Bytes(cell.size) << "\n     - " << plain->baseline.schedule.GetName()
                    << " " << SecondsText(plain->result.score) << "\n     - "
                    << SecondsText(uni.best.score) << "\n     - " << SecondsText(best2) << " ("
                    << Relative(best2, plain->result.score) << ")\n     - " << SecondsText(best3)
                    << " (" << Relative(best3, plain->result.score) << ")\n     - "
                    << SecondsText(mc) << " (" << Relative(mc, plain->result.score) << ")\n     - "
                    << SecondsText(agg) << " (" << Relative(agg, plain->result.score) << ")\n";
            bool intelligentGains = best3 < plain->result.score * (1 - 1e-9);
            bool wins = !intelligentGains || (mc >= plain->result.score && agg >= plain->result.score);
            plainWins += wins ? 1 : 0;
            findings << "- " << where << ": the plain network's best collective ("
                     << plain->baseline.schedule.GetName() << ", " << SecondsText(plain->result.score)
                     << ") ";
            if (!intelligentGains)
            {
                findings << "is the best schedule of every capability set: multicast and "
                            "aggregation gain nothing here (multicast alone "
                         << Relative(mc, plain->result.score) << ", aggregation alone "
                         << Relative(agg, plain->result.score) << ").\n";
            }
            else
            {
                findings << "is beaten by the best schedule with multicast and aggregation ("
                         << SecondsText(best3) << ", " << Relative(best3, plain->result.score)
                         << "); multicast alone " << Relative(mc, plain->result.score)
                         << ", aggregation alone " << Relative(agg, plain->result.score)
                         << (wins ? ": each mode alone loses to the plain collective, only "
                                    "their mix per clique wins"
                                  : "")
                         << ".\n";
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
        std::string order;
        for (const auto& c : geo)
        {
            order += (order.empty() ? "" : " ") + c;
        }
        f << ".. Generated by scripts/optimizer-table.sh (examples/optimizer-table.cc); do not "
             "edit.\n\n"
          << title << "\n"
          << std::string(title.size(), '=') << "\n\n"
          << "Best rotating-clique schedule, with the exchange pattern of every clique, found by "
             "``ScheduleOptimizer`` (periods 1.."
          << period << (allOptimal ? ", every result proven optimal by the exact search" : "")
          << ", seed " << seed << ") on ``" << source << "`` for each private and access link rate (public "
             "paths stay at 1 Gbps), model size and capability set, beside the baselines. "
             "Assumptions: the fluid ``CostModel`` (every clique's exchange in phases, max-min "
             "fair sharing, the ideal transport); compute "
          << Fixed(computeTime, 2)
          << " s per round (one local step), no overlap; segments of 8192 payload bytes; "
             "aggregation design ``"
          << aggregation
          << "``; FPGAs on every device with the defaults of ``NetworkCapabilities`` (100 Gbps, "
             "8 GiB of slot memory each). Cells are the score: seconds until the worst-case "
             "consensus error ||W_K..W_1 - J||_2 reaches 1e-3, counted in whole periods "
             "(``ConsensusTimeObjective``). Baselines use the nearest-neighbour order "
          << order
          << "; the collectives (ring-allreduce, tree-allreduce, parameter-server, all-to-all) "
             "fix their pattern, grid, exp-graph and diloco-4 get the best pattern the "
             "capability set allows for every clique. \"p=2: 3 ring, 3 tree, 3 ring | ...\" "
             "reads: period 2, three cliques of three in the first round, with patterns ring, "
             "tree and ring.\n\n"
          << table.str() << "\n"
          << "Where the plain network's best collective wins\n"
          << "----------------------------------------------\n\n"
          << "The plain network's best collective is the fastest of the fixed-pattern unicast "
             "baselines (ring, tree all-reduce, parameter server, all-to-all). \"Multicast "
             "only\" and \"aggregation only\" are the optimizer's best schedules when every "
             "clique must use that pattern (the single-mode runs of earlier versions); "
             "percentages are relative to the plain collective (+ = slower).\n\n"
          << summary.str() << "\n"
          << "In " << plainWins << " of " << cells.size()
          << " cases the plain network's best collective is not beaten by multicast or "
             "aggregation used alone:\n\n"
          << findings.str() << "\n"
          << "Best schedules, city by city\n"
          << "----------------------------\n\n"
          << schedules.str();
        if (file.is_open())
        {
            file.close();
            if (file.fail())
            {
                throw std::invalid_argument("--out=" + out + ": write failed");
            }
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "optimizer-table: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
