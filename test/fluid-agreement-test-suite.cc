/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ns-3 TestSuite "intelligent-network-fluid": the fluid CostModel (which the schedule optimizer
// ranks schedules with) against the packet-level simulation of the same schedule on the
// nine-city network: every round within 3%, in every mode, latency- and bandwidth-bound.

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/test.h"

#include <cstdio>

using namespace ns3;

namespace
{

const std::string kData = INTELLIGENT_NETWORK_DATA_DIR;

class FluidAgreementTestCase : public TestCase
{
  public:
    FluidAgreementTestCase(ExchangePattern mode, const std::string& schedule, double linkRate)
        : TestCase("fluid vs packet, nine cities, " + schedule + ", " +
                   PatternName(mode) + ", " + std::to_string(int(linkRate / 1e9)) +
                   " Gbps"),
          m_mode(mode),
          m_schedule(schedule),
          m_linkRate(linkRate)
    {
    }

  private:
    void DoRun() override
    {
        // All-in-one unicast moves 72 models a round: a smaller model keeps the test short.
        const uint64_t model = m_schedule == "all-in-one" ? 8000000 : 20000000;
        const uint32_t segment = 8192;
        const double compute = 0.05;
        const uint32_t rounds = 2;
        Topology topo = TopologyReader::ReadFile(kData + "/nine-city.topology");
        Schedule sched =
            Schedule::Load(kData + "/schedules/" + m_schedule + ".json", topo.CityCodes());
        NetworkGraphOptions options;
        options.privateRateBps = m_linkRate;
        NetworkCapabilities caps = NetworkCapabilities::ForPattern(m_mode);
        // Aggregation: both run the planner's tree (TrafficPlanner::Exchange), the default.

        CostParameters params;
        params.modelBytes = model;
        params.segmentPayloadBytes = segment;
        params.computeTimeS = compute;
        CostModel fluid(NetworkGraph::FromTopology(topo, options), caps, params);
        std::vector<RoundCost> predicted = fluid.Run(sched, rounds);

        ScenarioHelper s;
        s.SetTopology(topo);
        s.SetGraphOptions(options);
        s.SetSchedule(sched);
        s.SetCapabilities(caps);
        s.SetRounds(rounds);
        s.SetIslandAttribute("ModelBytes", UintegerValue(model));
        s.SetIslandAttribute("SegmentSize", UintegerValue(segment));
        s.SetIslandAttribute("ComputeTime", TimeValue(Seconds(compute)));
        ScenarioResult r = s.Run();
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, r.error);
        for (uint32_t round = 0; round < rounds; ++round)
        {
            double packet = r.RoundDuration(round);
            double flow = predicted.at(round).roundS;
            std::printf("    round %u: packet %.2f ms, fluid %.2f ms (%+.2f%%)\n", round,
                        packet * 1e3, flow * 1e3, 100 * (flow - packet) / packet);
            NS_TEST_EXPECT_MSG_EQ_TOL(flow, packet, 0.03 * packet,
                                      "round " << round << ": fluid " << flow << " s, packet "
                                               << packet << " s");
        }
        Simulator::Destroy();
    }

    ExchangePattern m_mode;
    std::string m_schedule;
    double m_linkRate;
};

class FluidAgreementTestSuite : public TestSuite
{
  public:
    FluidAgreementTestSuite()
        : TestSuite("intelligent-network-fluid", UNIT)
    {
        for (ExchangePattern mode :
             {ExchangePattern::ALL_TO_ALL, ExchangePattern::MULTICAST, ExchangePattern::AGGREGATION})
        {
            for (const char* schedule : {"3x3-rotating", "all-in-one"})
            {
                for (double rate : {10e9, 1e9})
                {
                    AddTestCase(new FluidAgreementTestCase(mode, schedule, rate),
                                TestCase::QUICK);
                }
            }
        }
    }
};

static FluidAgreementTestSuite g_fluidAgreementTestSuite;

} // namespace
