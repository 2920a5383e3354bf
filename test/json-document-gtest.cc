/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: the strict JSON reader shared by the loaders (JsonDocument) and the schedule
// loader's strictness: duplicate and unknown keys, out-of-range numbers, control characters,
// encodings, nesting depth, and source lines that stay right in large files.

#include "gtest-util.h"

#include "ns3/json-document.h"
#include "ns3/schedule.h"

#include <nlohmann/json.hpp>

using namespace ns3;
using ns3::testutil::ExpectInputError;
using ns3::testutil::TempDir;

namespace
{

const std::vector<std::string> kCities = {"AMS", "BAR", "FRA", "LAX", "LON",
                                          "NYC", "SEO", "SIN", "TYO"};

std::string
MessageOf(const std::function<void()>& fn)
{
    try
    {
        fn();
    }
    catch (const InputError& e)
    {
        return e.what();
    }
    ADD_FAILURE() << "no InputError";
    return "";
}

} // namespace

TEST(JsonDocument, LinesOfValues)
{
    JsonDocument doc = JsonDocument::Parse("x.json",
                                           "{\n"
                                           "  \"a\": 1,\n"
                                           "  \"b\": [\n"
                                           "    true,\n"
                                           "    {\"c/d\": \"e\"}\n"
                                           "  ]\n"
                                           "}\n");
    EXPECT_EQ(doc.Root()["b"][1]["c/d"], "e");
    EXPECT_EQ(doc.LineOf(""), 1u);
    EXPECT_EQ(doc.LineOf("/a"), 2u);
    EXPECT_EQ(doc.LineOf("/b"), 3u);
    EXPECT_EQ(doc.LineOf("/b/0"), 4u);
    EXPECT_EQ(doc.LineOf("/b/1/c~1d"), 5u);
    EXPECT_EQ(doc.LineOf("/b/7"), 3u); // missing: the nearest enclosing value
    EXPECT_EQ(JsonDocument::FieldName("/b/1/c~1d"), "b[1].c/d");
}

TEST(JsonDocument, DuplicateKeysAreErrors)
{
    auto e = ExpectInputError([] { JsonDocument::Parse("d.json", "{\"name\": \"a\",\n"
                                                                 " \"rounds\": [],\n"
                                                                 " \"name\": \"b\"}\n"); },
                              "d.json", 3, "name");
    EXPECT_NE(std::string(e.what()).find("duplicate key 'name' (first given on line 1"),
              std::string::npos)
        << e.what();
    // Nested, in a schedule: a round with "cliques" twice (the last would win silently).
    TempDir dir;
    auto p = dir.Write("s.json", "{\"rounds\": [\n"
                                 "  {\"cliques\": [[\"AMS\", \"FRA\"]],\n"
                                 "   \"cliques\": [[\"LON\"]]}\n"
                                 "]}\n");
    ExpectInputError([&] { Schedule::Load(p, kCities); }, "s.json", 3, "rounds[0].cliques");
    // The same key in two different objects is fine.
    EXPECT_NO_THROW(JsonDocument::Parse("ok.json", "[{\"a\": 1}, {\"a\": 2}]"));
}

TEST(JsonDocument, NumberOutOfRangeNamesFileLineField)
{
    auto e = ExpectInputError(
        [] { JsonDocument::Parse("n.json", "{\"rounds\": [\n {\"cliques\": [[1e999]]}]}"); },
        "n.json", 2, "rounds[0].cliques[0][0]");
    EXPECT_NE(std::string(e.what()).find("'1e999' is out of range"), std::string::npos)
        << e.what();
    ExpectInputError([] { JsonDocument::Parse("n.json", "[\n\n-1e400]"); }, "n.json", 3, "[0]");
    // Large integers beyond 64 bits become doubles (finite): accepted.
    EXPECT_NO_THROW(JsonDocument::Parse("n.json", "[123456789012345678901234567890]"));
}

TEST(JsonDocument, ControlCharactersInStringsAndKeys)
{
    ExpectInputError([] { JsonDocument::Parse("c.json", "{\n\"name\": \"a\\u0000b\"}"); },
                     "c.json", 2, "name");
    auto e = ExpectInputError([] { JsonDocument::Parse("c.json", "{\"a\\u0001\": 1}"); },
                              "c.json", 1, "");
    EXPECT_NE(std::string(e.what()).find("a key holds the control character U+0001"),
              std::string::npos)
        << e.what();
}

TEST(JsonDocument, EncodingsAndBom)
{
    // A UTF-8 byte-order mark is skipped.
    Schedule s = Schedule::Parse("bom.json", "\xEF\xBB\xBF{\"rounds\": [{\"cliques\": [[\"AMS\"]]}]}",
                                 kCities);
    EXPECT_EQ(s.Period(), 1u);
    std::string msg = MessageOf([] { JsonDocument::Parse("u16.json", std::string("\xFF\xFE{\0", 4)); });
    EXPECT_NE(msg.find("u16.json:1:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("UTF-16"), std::string::npos) << msg;
    std::string nul = "{\n\n\"a\": ";
    nul += '\0';
    nul += " 1}";
    ExpectInputError([&] { JsonDocument::Parse("nul.json", nul); }, "nul.json", 3, "");
    msg = MessageOf([] { JsonDocument::Parse("bad.json", "{\n\"name\": \"caf\xE9\"}"); });
    EXPECT_NE(msg.find("bad.json:2:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("not UTF-8"), std::string::npos) << msg;
    // Overlong encodings and surrogates are not UTF-8 either.
    EXPECT_THROW(JsonDocument::Parse("o.json", "[\"\xC0\xAF\"]"), InputError);
    EXPECT_THROW(JsonDocument::Parse("s.json", "[\"\xED\xA0\x80\"]"), InputError);
    EXPECT_NO_THROW(JsonDocument::Parse("ok.json", "[\"S\xC3\xA3o Paulo \xE6\x9D\xB1\xE4\xBA\xAC\"]"));
}

TEST(JsonDocument, NestingDepthIsBounded)
{
    std::string ok(JsonDocument::MaxDepth(), '[');
    ok += std::string(JsonDocument::MaxDepth(), ']');
    EXPECT_NO_THROW(JsonDocument::Parse("ok.json", ok));
    // 40 000 levels in 80 KB: an error at the first level too deep, not gigabytes of memory.
    std::string deep = "{\"name\": \"x\",\n \"rounds\": " + std::string(40000, '[') +
                       std::string(40000, ']') + "}";
    auto e = ExpectInputError([&] { JsonDocument::Parse("deep.json", deep); }, "deep.json", 2,
                              "rounds" + [] {
                                  std::string f;
                                  for (std::size_t i = 1; i < JsonDocument::MaxDepth(); ++i)
                                  {
                                      f += "[0]";
                                  }
                                  return f;
                              }());
    EXPECT_NE(std::string(e.what()).find("nested deeper than 64 levels"), std::string::npos);
}

TEST(JsonDocument, LinesStayRightInALargeFile)
{
    // 20 000 rounds, one per line; an unknown city on round 15 000 is reported on its line
    // (the line map is built in one forward pass, so this is also linear in the input).
    std::string text = "{\"name\": \"big\", \"rounds\": [\n";
    for (int r = 0; r < 20000; ++r)
    {
        text += std::string("  {\"cliques\": [[\"AMS\", \"FRA\"], [\"") +
                (r == 15000 ? "XXX" : "LON") + "\", \"NYC\"]]}" + (r + 1 < 20000 ? ",\n" : "\n");
    }
    text += "]}\n";
    ExpectInputError([&] { Schedule::Parse("big.json", text, kCities); }, "big.json", 15002,
                     "rounds[15000].cliques[1][0]");
}

TEST(JsonDocument, SyntaxErrorsNameLineAndField)
{
    ExpectInputError([] { JsonDocument::Parse("e.json", ""); }, "e.json", 1, "");
    ExpectInputError([] { JsonDocument::Parse("t.json", "{\"rounds\": [\n 1,\n 2,\n"); },
                     "t.json", 3, "rounds[2]");
    ExpectInputError([] { JsonDocument::Parse("g.json", "{\"a\": 1} garbage"); }, "g.json", 1, "");
}

TEST(ScheduleErrors, StrictFields)
{
    // Unknown keys at every level, an empty city code, an empty "patterns" array given
    // explicitly, a name that is not a string.
    const std::pair<const char*, const char*> cases[] = {
        {R"({"rounds": [{"cliques": [["AMS"]]}], "nmae": "x"})", "nmae"},
        {R"({"rounds": [{"cliques": [["AMS"]], "clique": []}]})", "rounds[0].clique"},
        {R"({"rounds": [{"cliques": [["AMS", ""]]}]})", "rounds[0].cliques[0][1]"},
        {R"({"rounds": [{"cliques": [["AMS"]], "patterns": []}]})", "rounds[0].patterns"},
        {R"({"name": 3, "rounds": [{"cliques": [["AMS"]]}]})", "name"},
    };
    for (const auto& [text, field] : cases)
    {
        try
        {
            Schedule::Parse("strict.json", text, {});
            ADD_FAILURE() << "accepted: " << text;
        }
        catch (const InputError& e)
        {
            EXPECT_EQ(e.Field(), field) << e.what();
            EXPECT_EQ(e.Line(), 1u) << e.what();
        }
    }
}
