/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ns-3 TestSuite "intelligent-network-fluid": the fluid CostModel (which the schedule optimizer
// ranks schedules with) against the packet-level simulation of the same schedule on the
// nine-city network: every round within 3%, in every mode, latency- and bandwidth-bound; and
// the RateController's rates, as streams start and end, bit for bit those of MaxMinAllocator
// over the streams then active (the allocation the fluid model makes).

#include "ns3/core-module.h"
#include "ns3/intelligent-network-module.h"
#include "ns3/test.h"

#include <cstdio>
#include <map>

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

/**
 * RateController against MaxMinAllocator from zero: streams on random resources start, end
 * (mostly the fastest first, as in a round, some at random), join a shared stream and start
 * again; after every change each active stream's rate, and the last rate its callback got,
 * must equal bit for bit the allocation of the active streams from zero (the controller
 * replays the unchanged part of its last allocation when streams have only ended).
 */
class RateControllerTestCase : public TestCase
{
  public:
    RateControllerTestCase()
        : TestCase("RateController rates equal an allocation from zero as streams start and end")
    {
    }

  private:
    void DoRun() override
    {
        uint64_t state = 4242;
        auto next = [&state]() {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            return static_cast<uint32_t>(state >> 33);
        };
        std::vector<double> cap(30);
        for (auto& c : cap)
        {
            c = next() % 7 == 0 ? 10e9 : 1e9 * (1 + next() % 40) / 3;
        }
        auto randomUsage = [&]() {
            FlowUsage u;
            for (std::size_t i = 0, n = 1 + next() % 6; i < n; ++i)
            {
                u.usage.push_back(
                    {next() % static_cast<uint32_t>(cap.size()), next() % 4 ? 1.0 : 2.0});
            }
            if (next() % 5 == 0)
            {
                u.maxRate = 1e8 * (1 + next() % 30);
            }
            return u;
        };
        Ptr<RateController> controller = CreateObject<RateController>();
        controller->SetCapacities(cap);
        std::map<uint64_t, FlowUsage> active;  // stream (first participant) -> usage
        std::map<uint64_t, double> told;       // participant -> last rate its callback got
        std::map<uint64_t, uint64_t> streamOf; // participant -> stream
        // ns-3 3.37 callbacks do not take capturing lambdas: a static trampoline instead.
        static std::map<uint64_t, double>* s_told;
        s_told = &told;
        struct Trampoline
        {
            static void Rate(uint64_t participant, double rate)
            {
                (*s_told)[participant] = rate;
            }
        };
        uint64_t expectedNext = 1;
        auto add = [&](const FlowUsage& u) {
            uint64_t id =
                controller->Register(u, MakeBoundCallback(&Trampoline::Rate, expectedNext));
            NS_TEST_ASSERT_MSG_EQ(id, expectedNext, "participant ids are handed out in order");
            ++expectedNext;
            active[id] = u;
            streamOf[id] = id;
        };
        auto check = [&](const std::string& when) {
            std::vector<FlowUsage> flows;
            std::vector<uint64_t> ids;
            for (const auto& [id, u] : active)
            {
                flows.push_back(u);
                ids.push_back(id);
            }
            std::vector<double> rates = MaxMinAllocator::Allocate(cap, flows);
            NS_TEST_ASSERT_MSG_EQ(controller->ActiveStreams(), ids.size(), when);
            for (const auto& [participant, stream] : streamOf)
            {
                std::size_t i = std::lower_bound(ids.begin(), ids.end(), stream) - ids.begin();
                NS_TEST_ASSERT_MSG_EQ(controller->GetRate(participant), rates[i],
                                      when << ": participant " << participant);
                NS_TEST_ASSERT_MSG_EQ(told.count(participant) ? told[participant] : -1.0, rates[i],
                                      when << ": participant " << participant);
            }
        };
        auto fastestFirst = [&]() {
            uint64_t best = streamOf.begin()->first;
            double bestRate = -1;
            for (const auto& [participant, stream] : streamOf)
            {
                if (participant == stream && controller->GetRate(stream) > bestRate)
                {
                    bestRate = controller->GetRate(stream);
                    best = stream;
                }
            }
            return best;
        };
        auto release = [&](uint64_t participant) {
            controller->Release(participant);
            uint64_t stream = streamOf.at(participant);
            streamOf.erase(participant);
            bool last = true;
            for (const auto& [p, st] : streamOf)
            {
                last = last && st != stream;
            }
            if (last)
            {
                active.erase(stream);
            }
        };

        for (int i = 0; i < 60; ++i)
        {
            add(randomUsage());
        }
        // A shared stream of two participants (an aggregation's members).
        FlowUsage shared = randomUsage();
        uint64_t sharedFirst = controller->RegisterShared(
            "agg", shared, MakeBoundCallback(&Trampoline::Rate, expectedNext));
        active[sharedFirst] = shared;
        streamOf[sharedFirst] = sharedFirst;
        ++expectedNext;
        uint64_t sharedSecond = controller->RegisterShared(
            "agg", shared, MakeBoundCallback(&Trampoline::Rate, expectedNext));
        streamOf[sharedSecond] = sharedFirst;
        ++expectedNext;
        Simulator::Run();
        check("start");
        for (int step = 0; step < 80 && !streamOf.empty(); ++step)
        {
            uint32_t what = next() % 10;
            if (what < 6)
            {
                // One to three streams end, the fastest first.
                for (uint32_t n = 1 + next() % 3; n > 0 && !streamOf.empty(); --n)
                {
                    release(fastestFirst());
                }
            }
            else if (what < 8)
            {
                auto it = streamOf.begin();
                std::advance(it, next() % streamOf.size());
                release(it->first);
            }
            else if (what < 9 && streamOf.count(sharedSecond))
            {
                release(sharedSecond);
            }
            else
            {
                add(randomUsage());
            }
            Simulator::Run();
            check("step " + std::to_string(step));
        }
        Simulator::Destroy();
    }
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
        AddTestCase(new RateControllerTestCase, TestCase::QUICK);
    }
};

static FluidAgreementTestSuite g_fluidAgreementTestSuite;

} // namespace
