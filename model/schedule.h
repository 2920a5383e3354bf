/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_SCHEDULE_H
#define INTELLIGENT_NETWORK_SCHEDULE_H

#include "exchange-pattern.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ns3
{

/// A clique: the city codes of islands that average their models exactly in one round.
using Clique = std::vector<std::string>;

/// One round of a schedule: disjoint cliques; islands in no clique sit the round out.
struct ScheduleRound
{
    std::vector<Clique> cliques;
    /// The exchange pattern of each clique (same order as cliques), or empty: the program
    /// decides (see ScenarioHelper). When not empty it has one entry per clique.
    std::vector<ExchangePattern> patterns;

    /// Pattern of clique \p c, or \p fallback when the round names none.
    ExchangePattern PatternOf(std::size_t c, ExchangePattern fallback) const;
};

/**
 * \ingroup intelligent-network
 * \brief A periodic synchronization schedule ("rotating cliques"). Pure C++.
 *
 * Round r of a run uses period round r mod Period(). JSON file format:
 * \code
 * { "name": "3x3-rotating", "description": "...",
 *   "rounds": [ {"cliques": [["AMS","FRA","LON"], ["BAR","LAX","NYC"], ["SEO","SIN","TYO"]]},
 *               {"cliques": [["AMS","NYC","SEO"], ...], "patterns": ["ring", ...]} ] }
 * \endcode
 * Rules (checked on load and by Validate): at least one round; every round has a "cliques"
 * array; every clique is a non-empty array of known city codes; no city appears twice in a
 * round; an optional "patterns" array names the exchange pattern (PatternName) of every
 * clique. Violations throw InputError naming file, line and field.
 */
class Schedule
{
  public:
    Schedule() = default;
    Schedule(std::string name, std::vector<ScheduleRound> rounds, std::string description = "");

    /// Load a schedule file; cities must be among \p knownCities (empty = accept any code).
    static Schedule Load(const std::string& path, const std::vector<std::string>& knownCities);
    /// Parse JSON text, naming it \p file in errors.
    static Schedule Parse(const std::string& file,
                          const std::string& text,
                          const std::vector<std::string>& knownCities);
    /// Serialise to JSON text (Parse reads it back).
    std::string ToJson() const;
    /// Write to \p path; throws InputError if it cannot be written.
    void Save(const std::string& path) const;

    /// Check the rules against \p knownCities; throws InputError (file = "schedule <name>").
    void Validate(const std::vector<std::string>& knownCities) const;

    const std::string& GetName() const;
    void SetName(const std::string& name);
    const std::string& GetDescription() const;
    void SetDescription(const std::string& description);

    /// Number of rounds in one period.
    std::size_t Period() const;
    /// The rounds of one period.
    const std::vector<ScheduleRound>& Rounds() const;
    /// Round \p r of a run (wraps around the period).
    const ScheduleRound& RoundAt(std::size_t r) const;
    /// Index of the clique of \p city in run round \p r, or -1 if it sits out.
    int CliqueIndex(std::size_t r, const std::string& city) const;
    /// All cities that appear in the schedule, sorted.
    std::vector<std::string> Cities() const;
    /// One line per period round, e.g. "AMS+FRA+LON | BAR+LAX+NYC".
    std::string Describe() const;

  private:
    std::string m_name;
    std::string m_description;
    std::vector<ScheduleRound> m_rounds;
};

} // namespace ns3

#endif
