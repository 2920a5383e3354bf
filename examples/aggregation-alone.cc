/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Aggregation alone: N islands around one hub router (a star), all in one clique. In unicast
// and in multicast every island must receive the N-1 other models, so the hub's link towards
// each island carries N-1 models. With in-network aggregation an FPGA at the hub sums the
// contributions and multicasts the sum back: every link carries one model each way. Three
// simulations of the same round: the model bytes on one island's links, the round time, and
// what the FPGA did.
//
//   ./aggregation-alone --hubIslands=4 --modelBytes=10e6 --linkRate=1e9   (options: --PrintHelp)

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/ipv4-address-generator.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// HUB with \p leaves islands L0, L1, ... on links of \p rateBps (default 1 Gbit/s; --linkRate
/// overrides it like any topology's) and 5 ms.
Topology
Star(uint32_t leaves, double rateBps = 1e9)
{
    Topology t("star");
    t.AddCity(City{"HUB", "HUB", 0.0, 0.0});
    t.AddDevice(Device{"HUBD", "HUB", 100e9, ""});
    for (uint32_t i = 0; i < leaves; ++i)
    {
        std::string c = "L" + std::to_string(i);
        t.AddCity(City{c, c, 0.0, 0.0});
        t.AddDevice(Device{c + "D", c, 100e9, ""});
        t.AddLink(TopologyLink{LinkKind::PRIVATE, c + "D", "HUBD", 5e-3, rateBps});
    }
    return t;
}

/// One simulation of one round in \p mode (link rates, island attributes, FPGA, MTU and loss
/// from the options); the simulator and the address generator are reset after it.
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
        caps.aggregation = mode == ExchangePattern::AGGREGATION;
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

/// Model bytes on the link direction from \p from to \p to.
uint64_t
Payload(const ScenarioResult& r, const std::string& from, const std::string& to)
{
    for (const LinkRecord& l : r.links)
    {
        if (l.from == from && l.to == to)
        {
            return l.payloadBytes;
        }
    }
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    // One round each: --rounds is not an option here; the three modes are all run. Public
    // paths: the star has none.
    ExperimentOptions options("aggregation-alone", {"star", "network", "island", "fpga", "packet"});
    options.Drop("publicRate");
    options.Parse(argc, argv);
    const auto islands = static_cast<uint32_t>(options.GetInteger("hubIslands"));
    const double modelBytes = static_cast<double>(options.GetInteger("modelBytes"));
    const double linkRate =
        options.GetDouble("linkRate") > 0 ? options.GetDouble("linkRate") : 1e9;

    Topology topology = Star(islands);
    Clique all;
    for (uint32_t i = 0; i < islands; ++i)
    {
        all.push_back("L" + std::to_string(i));
    }
    Schedule schedule("one-clique", {ScheduleRound{{all}}});
    const std::vector<std::pair<std::string, ExchangePattern>> modes{
        {"unicast", ExchangePattern::ALL_TO_ALL},
        {"multicast", ExchangePattern::MULTICAST},
        {"aggregation", ExchangePattern::AGGREGATION}};
    std::vector<ScenarioResult> results;
    try
    {
        for (const auto& [name, mode] : modes)
        {
            results.push_back(RunOnce(options, topology, schedule, mode));
        }
    }
    catch (const std::exception& e)
    {
        return options.Fail(e);
    }

    std::cout << islands << " islands around a hub, " << modelBytes / 1e6 << " MB model, links "
              << linkRate / 1e9 << " Gbit/s\n\n"
              << std::left << std::setw(26) << "" << std::right;
    for (const auto& [name, mode] : modes)
    {
        std::cout << std::setw(13) << name;
    }
    std::cout << "\n" << std::fixed;
    auto row = [&](const std::string& label, auto value, int precision) {
        std::cout << std::left << std::setw(26) << label << std::right
                  << std::setprecision(precision);
        for (const ScenarioResult& r : results)
        {
            std::cout << std::setw(13) << value(r);
        }
        std::cout << "\n";
    };
    auto up = [](const ScenarioResult& r) { return Payload(r, "L0D", "HUBD") / 1e6; };
    auto down = [](const ScenarioResult& r) { return Payload(r, "HUBD", "L0D") / 1e6; };
    row("model MB L0D->HUBD", up, 1);
    row("model MB HUBD->L0D", down, 1);
    auto roundTime = [](const ScenarioResult& r) { return r.RoundDuration(0); };
    row("round time (s)", roundTime, 4);

    const ScenarioResult& agg = results.back();
    for (const AggregationRecord& a : agg.aggregation)
    {
        std::cout << "\nFPGA on " << a.aggregator << " summed " << a.segments
                  << " segments of clique " << a.members << "; a slot waited "
                  << std::setprecision(1) << a.meanSlotWaitS * 1e6 << " us on average (at most "
                  << a.maxSlotWaitS * 1e6 << " us) for all contributions; at most "
                  << a.maxSlotsInUse << " slots in use; " << a.timeouts << " straggler timeouts\n";
    }
    for (const FpgaRecord& f : agg.fpgas)
    {
        std::cout << "FPGA " << f.device << ": " << f.contributions << " contributions, "
                  << f.results << " results, busy " << std::setprecision(1) << 100 * f.utilization
                  << "% of the run\n";
    }
    int status = 0;
    for (const ScenarioResult& r : results)
    {
        if (!r.complete)
        {
            std::cerr << "INCOMPLETE: " << r.error << "\n";
            status = ExperimentOptions::EXIT_INCOMPLETE;
        }
    }
    return status;
}
