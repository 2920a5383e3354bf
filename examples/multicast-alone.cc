/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Multicast alone: two sites of two islands each (A1, A2 and B1, B2) joined by one long, slow
// WAN link between their hubs (a dumbbell). All four islands form one clique. In unicast every
// island sends its model to each of the three others, so each model of a site crosses the WAN
// link twice; with multicast the routers replicate and each model crosses it once. Same
// clique, same model, two simulations: the model bytes on every link direction and the round
// time, side by side.
//
//   ./multicast-alone --modelBytes=10e6 --wanRate=1e9   (options: --PrintHelp)

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/ipv4-address-generator.h"

#include <iomanip>
#include <iostream>
#include <map>

using namespace ns3;

namespace
{

/// A1, A2 -- HA ==== HB -- B1, B2: site links 10 Gbit/s and 1 ms, the WAN link as given.
Topology
Dumbbell(double wanRateBps, double wanLatencyS)
{
    Topology t("dumbbell");
    for (const char* c : {"A1", "A2", "HA", "HB", "B1", "B2"})
    {
        t.AddCity(City{c, c, 0.0, 0.0});
        t.AddDevice(Device{std::string(c) + "D", c, 100e9, ""});
    }
    for (const char* c : {"A1", "A2"})
    {
        t.AddLink(TopologyLink{LinkKind::PRIVATE, std::string(c) + "D", "HAD", 1e-3, 10e9});
    }
    for (const char* c : {"B1", "B2"})
    {
        t.AddLink(TopologyLink{LinkKind::PRIVATE, std::string(c) + "D", "HBD", 1e-3, 10e9});
    }
    t.AddLink(TopologyLink{LinkKind::PRIVATE, "HAD", "HBD", wanLatencyS, wanRateBps});
    return t;
}

/// One simulation of one round in \p mode (the island attributes, MTU and loss from the
/// options); the simulator and the address generator are reset after it.
ScenarioResult
RunOnce(const ExperimentOptions& options,
        const Topology& topology,
        const Schedule& schedule,
        ExchangePattern mode)
{
    ScenarioResult result;
    {
        ScenarioHelper scenario;
        options.Configure(scenario, topology, schedule);
        NetworkCapabilities caps = options.ToCapabilities(topology);
        caps.multicast = mode != ExchangePattern::ALL_TO_ALL;
        scenario.SetCapabilities(caps);
        scenario.SetRounds(1);
        scenario.Build();
        options.CheckAttributesApplied();
        result = scenario.Run();
        Simulator::Destroy();
    }
    Ipv4AddressGenerator::Reset();
    return result;
}

/// Model bytes per link direction ("HAD->HBD"), private links only.
std::map<std::string, uint64_t>
PayloadPerLink(const ScenarioResult& r)
{
    std::map<std::string, uint64_t> out;
    for (const LinkRecord& l : r.links)
    {
        if (l.kind == "private")
        {
            out[l.from + "->" + l.to] = l.payloadBytes;
        }
    }
    return out;
}

} // namespace

int
main(int argc, char* argv[])
{
    // One round each: --rounds is not an option here; the modes are both run.
    ExperimentOptions options("multicast-alone", {"dumbbell", "island", "packet"});
    options.Parse(argc, argv);
    const double modelBytes = static_cast<double>(options.GetInteger("modelBytes"));
    const double wanRate = options.GetDouble("wanRate");

    Schedule schedule("one-clique", {ScheduleRound{{{"A1", "A2", "B1", "B2"}}}});
    ScenarioResult unicast;
    ScenarioResult multicast;
    try
    {
        // (Inside: the topology refuses what its checks refuse, e.g. --wanLatency=0.)
        Topology topology = Dumbbell(wanRate, options.GetDouble("wanLatency"));
        unicast = RunOnce(options, topology, schedule, ExchangePattern::ALL_TO_ALL);
        multicast = RunOnce(options, topology, schedule, ExchangePattern::MULTICAST);
    }
    catch (const std::exception& e)
    {
        return options.Fail(e);
    }

    std::cout << "One clique A1+A2+B1+B2, " << modelBytes / 1e6 << " MB model, WAN link "
              << wanRate / 1e9 << " Gbit/s\n\n"
              << "model MB per link direction   unicast  multicast\n"
              << std::fixed << std::setprecision(1);
    auto u = PayloadPerLink(unicast);
    auto m = PayloadPerLink(multicast);
    for (const auto& [link, bytes] : u)
    {
        std::cout << std::left << std::setw(28) << link << std::right << std::setw(9) << bytes / 1e6
                  << std::setw(11) << m[link] / 1e6 << "\n";
    }
    std::cout << std::setprecision(4) << std::left << std::setw(28) << "round time (s)"
              << std::right << std::setw(9) << unicast.RoundDuration(0) << std::setw(11)
              << multicast.RoundDuration(0) << "\n\n"
              << "Unicast puts every model of a site on the WAN link once per remote member; "
                 "multicast once.\n";
    if (!unicast.complete || !multicast.complete)
    {
        std::cerr << "INCOMPLETE: " << unicast.error << " " << multicast.error << "\n";
        return ExperimentOptions::EXIT_INCOMPLETE;
    }
    return ExperimentOptions::EXIT_COMPLETE;
}
