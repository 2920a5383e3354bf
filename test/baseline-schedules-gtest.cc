/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: the baseline schedules' structure.

#include "ns3/baseline-schedules.h"
#include "ns3/network-graph.h"
#include "ns3/route-planner.h"
#include "ns3/topology-reader.h"

#include <gtest/gtest.h>

#include <set>

using namespace ns3;

namespace
{

std::vector<std::string>
Islands(std::size_t n)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i)
    {
        out.push_back("I" + std::to_string(i));
    }
    return out;
}

/// Every clique of every round, as a set of sorted pairs/sets.
std::set<std::set<std::string>>
AllCliques(const Schedule& s)
{
    std::set<std::set<std::string>> out;
    for (const auto& r : s.Rounds())
    {
        for (const auto& c : r.cliques)
        {
            out.insert(std::set<std::string>(c.begin(), c.end()));
        }
    }
    return out;
}

} // namespace

TEST(BaselineSchedules, RingUsesEveryRingEdgeOnce)
{
    for (std::size_t n : {4u, 7u, 8u, 9u})
    {
        auto islands = Islands(n);
        Schedule s = BaselineSchedules::Ring(islands);
        EXPECT_EQ(s.Period(), n % 2 == 0 ? 2u : 3u);
        s.Validate(islands);
        auto cliques = AllCliques(s);
        EXPECT_EQ(cliques.size(), n);
        for (std::size_t i = 0; i < n; ++i)
        {
            EXPECT_TRUE(cliques.count({islands[i], islands[(i + 1) % n]})) << n << " " << i;
        }
    }
}

TEST(BaselineSchedules, ExponentialGraphPairsPowersOfTwoApart)
{
    auto islands = Islands(8);
    Schedule s = BaselineSchedules::ExponentialGraph(islands);
    ASSERT_EQ(s.Period(), 3u);
    for (std::size_t k = 0; k < 3; ++k)
    {
        ASSERT_EQ(s.Rounds()[k].cliques.size(), 4u);
        for (const auto& c : s.Rounds()[k].cliques)
        {
            ASSERT_EQ(c.size(), 2u);
            int a = std::stoi(c[0].substr(1));
            int b = std::stoi(c[1].substr(1));
            EXPECT_EQ(a ^ b, 1 << k); // hypercube dimension k
        }
    }
    Schedule nine = BaselineSchedules::ExponentialGraph(Islands(9));
    EXPECT_EQ(nine.Period(), 4u);
    nine.Validate(Islands(9));
}

TEST(BaselineSchedules, ExponentialGraphCoversEveryIslandEveryRound)
{
    for (std::size_t n = 3; n <= 33; ++n)
    {
        auto islands = Islands(n);
        Schedule s = BaselineSchedules::ExponentialGraph(islands);
        s.Validate(islands);
        std::size_t rounds = 0;
        for (std::size_t hop = 1; hop < n; hop *= 2)
        {
            ++rounds;
        }
        ASSERT_EQ(s.Period(), rounds) << n;
        for (std::size_t r = 0; r < s.Period(); ++r)
        {
            std::multiset<std::string> seen;
            std::size_t triples = 0;
            for (const auto& c : s.Rounds()[r].cliques)
            {
                EXPECT_GE(c.size(), 2u) << n << " round " << r;
                EXPECT_LE(c.size(), 3u) << n << " round " << r;
                triples += c.size() == 3 ? 1 : 0;
                seen.insert(c.begin(), c.end());
            }
            // Every island exactly once: one peer, or two in the one clique of three (odd n).
            EXPECT_EQ(seen, std::multiset<std::string>(islands.begin(), islands.end()))
                << n << " round " << r;
            EXPECT_EQ(triples, n % 2) << n << " round " << r;
        }
    }
}

TEST(BaselineSchedules, GridRowsThenColumns)
{
    auto islands = Islands(9);
    Schedule s = BaselineSchedules::Grid(islands);
    ASSERT_EQ(s.Period(), 2u);
    for (const auto& r : s.Rounds())
    {
        ASSERT_EQ(r.cliques.size(), 3u);
        for (const auto& c : r.cliques)
        {
            EXPECT_EQ(c.size(), 3u);
        }
    }
    // Every row meets every column exactly once.
    for (const auto& row : s.Rounds()[0].cliques)
    {
        for (const auto& col : s.Rounds()[1].cliques)
        {
            int common = 0;
            for (const auto& x : row)
            {
                common += std::count(col.begin(), col.end(), x);
            }
            EXPECT_EQ(common, 1);
        }
    }
    EXPECT_EQ(BaselineSchedules::Grid(Islands(12)).Rounds()[0].cliques.size(), 3u); // 3 x 4
    EXPECT_EQ(BaselineSchedules::Grid(Islands(7)).Period(), 1u);                    // prime
}

TEST(BaselineSchedules, CollectivesAndDiLoCo)
{
    auto islands = Islands(5);
    const std::vector<std::pair<ExchangePattern, std::string>> collectives{
        {ExchangePattern::RING, "ring-allreduce"},
        {ExchangePattern::TREE, "tree-allreduce"},
        {ExchangePattern::PARAMETER_SERVER, "parameter-server"},
        {ExchangePattern::ALL_TO_ALL, "all-to-all"}};
    for (const auto& [pattern, name] : collectives)
    {
        Schedule c = BaselineSchedules::Collective(islands, pattern);
        EXPECT_EQ(c.GetName(), name);
        ASSERT_EQ(c.Period(), 1u);
        ASSERT_EQ(c.Rounds()[0].cliques.size(), 1u);
        EXPECT_EQ(c.Rounds()[0].cliques[0].size(), 5u);
        ASSERT_EQ(c.Rounds()[0].patterns.size(), 1u);
        EXPECT_EQ(c.Rounds()[0].patterns[0], pattern);
        c.Validate(islands);
    }
    Schedule d = BaselineSchedules::DiLoCo(islands, 4);
    ASSERT_EQ(d.Period(), 4u);
    for (std::size_t r = 0; r < 3; ++r)
    {
        EXPECT_EQ(d.Rounds()[r].cliques.size(), 5u); // everyone alone
    }
    EXPECT_EQ(d.Rounds()[3].cliques.size(), 1u);
    EXPECT_EQ(d.Rounds()[3].cliques[0].size(), 5u);
    d.Validate(islands);
    auto all = BaselineSchedules::All(islands, 3);
    std::vector<std::string> names;
    for (const auto& b : all)
    {
        names.push_back(b.schedule.GetName());
    }
    EXPECT_EQ(names, (std::vector<std::string>{"ring-allreduce", "tree-allreduce",
                                               "parameter-server", "all-to-all", "grid",
                                               "exp-graph", "diloco-3"}));
    // DiLoCo carries its outer optimizer (DiLoCo paper: Nesterov 0.9, outer rate 0.7).
    const auto& meta = all.back().metadata;
    EXPECT_DOUBLE_EQ(meta.at("outer_learning_rate"), 0.7);
    EXPECT_DOUBLE_EQ(meta.at("outer_momentum"), 0.9);
    EXPECT_DOUBLE_EQ(meta.at("nesterov"), 1.0);
    EXPECT_DOUBLE_EQ(meta.at("local_steps"), 3.0);
    DiLoCoOuter outer;
    outer.learningRate = 0.5;
    EXPECT_DOUBLE_EQ(BaselineSchedules::All(islands, 3, outer).back().metadata.at(
                         "outer_learning_rate"),
                     0.5);
}

TEST(BaselineSchedules, NearestNeighbourOrderIsRegional)
{
    NetworkGraph g = NetworkGraph::FromTopology(TopologyReader::ReadFile(
        std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/nine-city.topology"));
    RoutePlanner routes(g);
    auto order = BaselineSchedules::NearestNeighbourOrder(routes, g.IslandCities());
    ASSERT_EQ(order.size(), 9u);
    EXPECT_EQ(order[0], "AMS");
    EXPECT_EQ(std::set<std::string>(order.begin(), order.end()).size(), 9u);
    // The three European cities come first.
    EXPECT_EQ(std::set<std::string>(order.begin(), order.begin() + 3),
              (std::set<std::string>{"AMS", "FRA", "LON"}));
}

TEST(BaselineSchedules, BadInputIsRejected)
{
    EXPECT_THROW(BaselineSchedules::AllReduce({}), std::invalid_argument);
    EXPECT_THROW(BaselineSchedules::Ring({"A", "A"}), std::invalid_argument);
    EXPECT_THROW(BaselineSchedules::Collective({}, ExchangePattern::RING), std::invalid_argument);
    EXPECT_THROW(BaselineSchedules::DiLoCo(Islands(3), 0), std::invalid_argument);
}
