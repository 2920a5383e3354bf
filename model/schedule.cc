/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "schedule.h"

#include "input-error.h"
#include "json-document.h"
#include "text-util.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

/// Check one parsed round structure; \p fail reports an error at a JSON pointer.
template <typename FailFn>
void
CheckRounds(const std::vector<ScheduleRound>& rounds,
            const std::vector<std::string>& known,
            FailFn fail)
{
    if (rounds.empty())
    {
        fail("/rounds", "a schedule needs at least one round");
    }
    for (std::size_t r = 0; r < rounds.size(); ++r)
    {
        std::set<std::string> seen;
        const auto& cliques = rounds[r].cliques;
        if (cliques.empty())
        {
            fail("/rounds/" + std::to_string(r) + "/cliques", "a round needs at least one clique");
        }
        if (!rounds[r].patterns.empty() && rounds[r].patterns.size() != cliques.size())
        {
            fail("/rounds/" + std::to_string(r) + "/patterns",
                 "needs one pattern per clique (" + std::to_string(cliques.size()) + ")");
        }
        for (std::size_t c = 0; c < cliques.size(); ++c)
        {
            std::string cp = "/rounds/" + std::to_string(r) + "/cliques/" + std::to_string(c);
            if (cliques[c].empty())
            {
                fail(cp, "empty clique");
            }
            for (std::size_t m = 0; m < cliques[c].size(); ++m)
            {
                const std::string& city = cliques[c][m];
                std::string mp = cp + "/" + std::to_string(m);
                if (!known.empty() && std::find(known.begin(), known.end(), city) == known.end())
                {
                    fail(mp, "unknown city '" + city + "'");
                }
                if (!seen.insert(city).second)
                {
                    fail(mp, "city '" + city + "' appears twice in round " + std::to_string(r));
                }
            }
        }
    }
}

} // namespace

ExchangePattern
ScheduleRound::PatternOf(std::size_t c, ExchangePattern fallback) const
{
    return c < patterns.size() ? patterns[c] : fallback;
}

Schedule::Schedule(std::string name, std::vector<ScheduleRound> rounds, std::string description)
    : m_name(std::move(name)),
      m_description(std::move(description)),
      m_rounds(std::move(rounds))
{
}

Schedule
Schedule::Load(const std::string& path, const std::vector<std::string>& knownCities)
{
    return Parse(path, TextUtil::ReadFile(path), knownCities);
}

Schedule
Schedule::Parse(const std::string& file,
                const std::string& text,
                const std::vector<std::string>& knownCities)
{
    JsonDocument doc = JsonDocument::Parse(file, text);
    const auto& root = doc.Root();
    if (!root.is_object())
    {
        doc.Fail("", "a schedule must be a JSON object with a \"rounds\" array");
    }
    for (auto it = root.begin(); it != root.end(); ++it)
    {
        if (it.key() != "name" && it.key() != "description" && it.key() != "rounds")
        {
            doc.Fail("/" + it.key(), "unknown field (expected name, description, rounds)");
        }
    }
    Schedule s;
    if (root.contains("name"))
    {
        if (!root["name"].is_string())
        {
            doc.Fail("/name", "must be a string");
        }
        s.m_name = root["name"].get<std::string>();
    }
    else
    {
        std::string base = file.substr(file.find_last_of('/') + 1);
        s.m_name = base.substr(0, base.rfind('.'));
    }
    if (root.contains("description"))
    {
        if (!root["description"].is_string())
        {
            doc.Fail("/description", "must be a string");
        }
        s.m_description = root["description"].get<std::string>();
    }
    if (!root.contains("rounds"))
    {
        doc.Fail("", "missing field \"rounds\"");
    }
    const auto& rounds = root["rounds"];
    if (!rounds.is_array())
    {
        doc.Fail("/rounds", "must be an array of rounds");
    }
    for (std::size_t r = 0; r < rounds.size(); ++r)
    {
        std::string rp = "/rounds/" + std::to_string(r);
        const auto& round = rounds[r];
        if (!round.is_object() || !round.contains("cliques"))
        {
            doc.Fail(rp, "a round must be an object with a \"cliques\" array");
        }
        for (auto it = round.begin(); it != round.end(); ++it)
        {
            if (it.key() != "cliques" && it.key() != "patterns")
            {
                doc.Fail(rp + "/" + it.key(), "unknown field (expected cliques, patterns)");
            }
        }
        const auto& cliques = round["cliques"];
        if (!cliques.is_array())
        {
            doc.Fail(rp + "/cliques", "must be an array of cliques");
        }
        ScheduleRound sr;
        for (std::size_t c = 0; c < cliques.size(); ++c)
        {
            std::string cp = rp + "/cliques/" + std::to_string(c);
            if (!cliques[c].is_array())
            {
                doc.Fail(cp, "a clique must be an array of city codes");
            }
            Clique clique;
            for (std::size_t m = 0; m < cliques[c].size(); ++m)
            {
                if (!cliques[c][m].is_string() || cliques[c][m].get<std::string>().empty())
                {
                    doc.Fail(cp + "/" + std::to_string(m),
                             "a city code must be a non-empty string");
                }
                clique.push_back(TextUtil::Upper(cliques[c][m].get<std::string>()));
            }
            sr.cliques.push_back(clique);
        }
        if (round.contains("patterns"))
        {
            const auto& patterns = round["patterns"];
            if (!patterns.is_array() || patterns.size() != cliques.size())
            {
                doc.Fail(rp + "/patterns",
                         "must be an array with one pattern per clique (" +
                             std::to_string(cliques.size()) + ")");
            }
            for (std::size_t c = 0; c < patterns.size(); ++c)
            {
                std::string pp = rp + "/patterns/" + std::to_string(c);
                if (!patterns[c].is_string())
                {
                    doc.Fail(pp, "a pattern must be a string");
                }
                try
                {
                    sr.patterns.push_back(ParsePattern(patterns[c].get<std::string>()));
                }
                catch (const std::invalid_argument& e)
                {
                    doc.Fail(pp, e.what());
                }
            }
        }
        s.m_rounds.push_back(sr);
    }
    CheckRounds(s.m_rounds, knownCities, [&](const std::string& p, const std::string& m) {
        doc.Fail(p, m);
    });
    return s;
}

void
Schedule::Validate(const std::vector<std::string>& knownCities) const
{
    CheckRounds(m_rounds, knownCities, [&](const std::string& p, const std::string& m) {
        throw InputError("schedule " + m_name, 0, JsonDocument::FieldName(p), m);
    });
}

std::string
Schedule::ToJson() const
{
    // Hand-formatted so that each round sits on its own line (readable diffs and errors).
    std::ostringstream os;
    os << "{\n  \"name\": " << nlohmann::json(m_name).dump() << ",\n";
    if (!m_description.empty())
    {
        os << "  \"description\": " << nlohmann::json(m_description).dump() << ",\n";
    }
    os << "  \"rounds\": [\n";
    for (std::size_t r = 0; r < m_rounds.size(); ++r)
    {
        nlohmann::json cliques = nlohmann::json::array();
        for (const auto& c : m_rounds[r].cliques)
        {
            cliques.push_back(c);
        }
        os << "    {\"cliques\": " << cliques.dump();
        if (!m_rounds[r].patterns.empty())
        {
            nlohmann::json patterns = nlohmann::json::array();
            for (ExchangePattern p : m_rounds[r].patterns)
            {
                patterns.push_back(PatternName(p));
            }
            os << ", \"patterns\": " << patterns.dump();
        }
        os << "}"
           << (r + 1 < m_rounds.size() ? "," : "") << "\n";
    }
    os << "  ]\n}\n";
    return os.str();
}

void
Schedule::Save(const std::string& path) const
{
    std::ofstream out(path);
    out << ToJson();
    out.close(); // (a full device or a file system that refuses fails here, not at <<)
    if (out.fail())
    {
        throw InputError(path, 0, "", "cannot write schedule file");
    }
}

const std::string&
Schedule::GetName() const
{
    return m_name;
}

void
Schedule::SetName(const std::string& name)
{
    m_name = name;
}

const std::string&
Schedule::GetDescription() const
{
    return m_description;
}

void
Schedule::SetDescription(const std::string& description)
{
    m_description = description;
}

std::size_t
Schedule::Period() const
{
    return m_rounds.size();
}

const std::vector<ScheduleRound>&
Schedule::Rounds() const
{
    return m_rounds;
}

const ScheduleRound&
Schedule::RoundAt(std::size_t r) const
{
    return m_rounds.at(r % m_rounds.size());
}

int
Schedule::CliqueIndex(std::size_t r, const std::string& city) const
{
    const auto& cliques = RoundAt(r).cliques;
    for (std::size_t c = 0; c < cliques.size(); ++c)
    {
        if (std::find(cliques[c].begin(), cliques[c].end(), city) != cliques[c].end())
        {
            return static_cast<int>(c);
        }
    }
    return -1;
}

std::vector<std::string>
Schedule::Cities() const
{
    std::set<std::string> all;
    for (const auto& r : m_rounds)
    {
        for (const auto& c : r.cliques)
        {
            all.insert(c.begin(), c.end());
        }
    }
    return {all.begin(), all.end()};
}

std::string
Schedule::Describe() const
{
    std::ostringstream os;
    for (std::size_t r = 0; r < m_rounds.size(); ++r)
    {
        os << "round " << r << ": ";
        for (std::size_t c = 0; c < m_rounds[r].cliques.size(); ++c)
        {
            os << (c ? " | " : "");
            for (std::size_t m = 0; m < m_rounds[r].cliques[c].size(); ++m)
            {
                os << (m ? "+" : "") << m_rounds[r].cliques[c][m];
            }
            if (c < m_rounds[r].patterns.size())
            {
                os << " (" << PatternName(m_rounds[r].patterns[c]) << ")";
            }
        }
        os << "\n";
    }
    return os.str();
}

} // namespace ns3
