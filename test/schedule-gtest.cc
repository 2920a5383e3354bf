/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: Schedule files (the shipped baselines, round trip) and malformed schedules.

#include "gtest-util.h"

#include "ns3/schedule.h"

using namespace ns3;
using ns3::testutil::ExpectInputError;
using ns3::testutil::TempDir;

namespace
{

const std::vector<std::string> kCities = {"AMS", "BAR", "FRA", "LAX", "LON",
                                          "NYC", "SEO", "SIN", "TYO"};

std::string
Dir()
{
    return std::string(INTELLIGENT_NETWORK_DATA_DIR) + "/schedules/";
}

} // namespace

TEST(Schedule, ShippedBaselines)
{
    Schedule all = Schedule::Load(Dir() + "all-in-one.json", kCities);
    EXPECT_EQ(all.GetName(), "all-in-one");
    ASSERT_EQ(all.Period(), 1u);
    EXPECT_EQ(all.RoundAt(5).cliques.at(0).size(), 9u);

    Schedule grid = Schedule::Load(Dir() + "3x3-rotating.json", kCities);
    ASSERT_EQ(grid.Period(), 2u);
    for (std::size_t r = 0; r < 2; ++r)
    {
        ASSERT_EQ(grid.RoundAt(r).cliques.size(), 3u);
        for (const auto& c : grid.RoundAt(r).cliques)
        {
            EXPECT_EQ(c.size(), 3u);
        }
    }
    // Every pair of islands shares a clique... no: every island meets each region once.
    EXPECT_EQ(grid.CliqueIndex(0, "AMS"), grid.CliqueIndex(0, "LON"));
    EXPECT_NE(grid.CliqueIndex(1, "AMS"), grid.CliqueIndex(1, "LON"));
    EXPECT_EQ(grid.CliqueIndex(3, "AMS"), grid.CliqueIndex(1, "AMS"));
    EXPECT_EQ(grid.Cities(), kCities);
}

TEST(Schedule, RoundTripAndSitOut)
{
    Schedule s("pairs", {ScheduleRound{{{"AMS", "FRA"}, {"NYC"}}}, ScheduleRound{{{"LON", "AMS"}}}});
    TempDir dir;
    std::string path = dir.Path() + "/s.json";
    s.Save(path);
    Schedule u = Schedule::Load(path, kCities);
    EXPECT_EQ(u.GetName(), "pairs");
    ASSERT_EQ(u.Period(), 2u);
    EXPECT_EQ(u.RoundAt(0).cliques, s.RoundAt(0).cliques);
    EXPECT_EQ(u.CliqueIndex(1, "FRA"), -1);
    EXPECT_EQ(u.CliqueIndex(1, "AMS"), 0);
}

TEST(ScheduleErrors, UnknownCity)
{
    TempDir dir;
    auto p = dir.Write("s.json", "{\n  \"rounds\": [\n    {\"cliques\": [[\"AMS\", \"FRA\"]]},\n"
                                 "    {\"cliques\": [[\"AMS\"], [\"XYZ\", \"LON\"]]}\n  ]\n}\n");
    auto e = ExpectInputError([&] { Schedule::Load(p, kCities); }, "s.json", 4,
                              "rounds[1].cliques[1][0]");
    EXPECT_NE(std::string(e.what()).find("XYZ"), std::string::npos);
}

TEST(ScheduleErrors, EmptyClique)
{
    TempDir dir;
    auto p = dir.Write("s.json", "{\"rounds\": [\n {\"cliques\": [\n  [\"AMS\"],\n  []\n ]}\n]}\n");
    ExpectInputError([&] { Schedule::Load(p, kCities); }, "s.json", 4, "rounds[0].cliques[1]");
}

TEST(ScheduleErrors, CityInTwoCliquesOfOneRound)
{
    TempDir dir;
    auto p = dir.Write("s.json",
                       "{\"rounds\": [\n {\"cliques\": [[\"AMS\", \"FRA\"],\n  [\"LON\", \"FRA\"]]}\n]}\n");
    auto e = ExpectInputError([&] { Schedule::Load(p, kCities); }, "s.json", 3,
                              "rounds[0].cliques[1][1]");
    EXPECT_NE(std::string(e.what()).find("twice"), std::string::npos);
}

TEST(ScheduleErrors, StructureAndSyntax)
{
    TempDir dir;
    // A syntax error names the field being read when it happened.
    auto p = dir.Write("a.json", "{\"rounds\": [\n {\"cliques\": [[\"AMS\" \"FRA\"]]}\n]}\n");
    ExpectInputError([&] { Schedule::Load(p, kCities); }, "a.json", 2, "rounds[0].cliques[0][1]");
    p = dir.Write("b.json", "{\"rounds\": []}\n");
    ExpectInputError([&] { Schedule::Load(p, kCities); }, "b.json", 1, "rounds");
    p = dir.Write("c.json", "{\n\"rounds\": [\n {\"cliques\": [[\"AMS\", 7]]}\n]}\n");
    ExpectInputError([&] { Schedule::Load(p, kCities); }, "c.json", 3, "rounds[0].cliques[0][1]");
    p = dir.Write("d.json", "{\n\"rounds\": [],\n\"speed\": 3\n}\n");
    ExpectInputError([&] { Schedule::Load(p, kCities); }, "d.json", 3, "speed");
    p = dir.Write("e.json", "{\n\"name\": \"x\"\n}\n");
    ExpectInputError([&] { Schedule::Load(p, kCities); }, "e.json", 1, "");
    // Programmatic schedules are validated too.
    Schedule bad("bad", {ScheduleRound{{{"AMS", "AMS"}}}});
    ExpectInputError([&] { bad.Validate(kCities); }, "schedule bad", 0, "rounds[0].cliques[0][1]");
}

TEST(Schedule, PatternsPerCliqueRoundTrip)
{
    const std::string text = R"({"name": "p", "rounds": [
        {"cliques": [["AMS","FRA"], ["LON","NYC","SIN"]], "patterns": ["ring", "multicast"]},
        {"cliques": [["AMS","LON"]]}]})";
    Schedule s = Schedule::Parse("p.json", text, {});
    ASSERT_EQ(s.Rounds()[0].patterns.size(), 2u);
    EXPECT_EQ(s.Rounds()[0].PatternOf(0, ExchangePattern::ALL_TO_ALL), ExchangePattern::RING);
    EXPECT_EQ(s.Rounds()[0].PatternOf(1, ExchangePattern::ALL_TO_ALL),
              ExchangePattern::MULTICAST);
    EXPECT_EQ(s.Rounds()[1].PatternOf(0, ExchangePattern::AGGREGATION),
              ExchangePattern::AGGREGATION);
    Schedule back = Schedule::Parse("back.json", s.ToJson(), {});
    EXPECT_EQ(back.Rounds()[0].patterns, s.Rounds()[0].patterns);
    EXPECT_TRUE(back.Rounds()[1].patterns.empty());
}

TEST(Schedule, PatternsRejectedClearly)
{
    // One pattern for two cliques, an unknown pattern, a pattern that is not a string.
    const char* bad[] = {
        R"({"rounds": [{"cliques": [["AMS"], ["FRA"]], "patterns": ["ring"]}]})",
        R"({"rounds": [{"cliques": [["AMS","FRA"]],
            "patterns": ["broadcast"]}]})",
        R"({"rounds": [{"cliques": [["AMS","FRA"]], "patterns": [3]}]})",
        R"({"rounds": [{"cliques": [["AMS","FRA"]], "pattern": ["ring"]}]})"};
    const char* expect[] = {"rounds[0].patterns", "rounds[0].patterns[0]",
                            "rounds[0].patterns[0]", "rounds[0].pattern"};
    for (int i = 0; i < 4; ++i)
    {
        try
        {
            Schedule::Parse("bad.json", bad[i], {});
            ADD_FAILURE() << "accepted: " << bad[i];
        }
        catch (const InputError& e)
        {
            EXPECT_NE(std::string(e.what()).find(expect[i]), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("bad.json:"), std::string::npos) << e.what();
        }
    }
}
