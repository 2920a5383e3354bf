/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-result.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>

namespace ns3
{

double
ScenarioResult::RoundDuration(uint32_t round) const
{
    double start = std::numeric_limits<double>::infinity();
    double end = -start;
    for (const auto& r : rounds)
    {
        if (r.round == round)
        {
            start = std::min(start, r.startS);
            end = std::max(end, r.endS);
        }
    }
    return end > start ? end - start : 0.0;
}

int64_t
ScenarioResult::Write(ResultsDatabase& db, const RunRecord& run) const
{
    db.Begin();
    try
    {
        int64_t id = db.InsertRun(run, complete ? "complete" : "failed", simTimeS, wallTimeS, error);
        db.SetRunCounts(id, RunCounts{transport, queueDisc, ecn, queueDrops, ecnMarks, ecnEchoes,
                                      ecnReductions, retransmittedBytes, fixedPointOverflows});
        for (const auto& r : rounds)
        {
            db.InsertRound(id, r);
        }
        for (const auto& r : islandRounds)
        {
            db.InsertIslandRound(id, r);
        }
        for (const auto& l : links)
        {
            db.InsertLink(id, l);
        }
        for (const auto& a : aggregation)
        {
            db.InsertAggregation(id, a);
        }
        for (const auto& f : fpgas)
        {
            db.InsertFpga(id, f);
        }
        for (const auto& t : training)
        {
            db.InsertTraining(id, t);
        }
        db.Commit();
        return id;
    }
    catch (...)
    {
        db.Rollback();
        throw;
    }
}

void
ScenarioResult::PrintRoundTable(std::ostream& os) const
{
    std::map<uint32_t, std::vector<const RoundRecord*>> byRound;
    for (const auto& r : rounds)
    {
        byRound[r.round].push_back(&r);
    }
    char line[256];
    std::snprintf(line, sizeof line, "%5s  %-30s %10s %10s %11s %12s %8s %9s %13s\n", "round",
                  "cliques", "start(s)", "end(s)", "duration(s)", "sent(MB)", "retx(MB)",
                  "ecnEchoes", "ecnReductions");
    os << line;
    for (const auto& [round, cliques] : byRound)
    {
        double start = std::numeric_limits<double>::infinity();
        double end = 0;
        double bytes = 0;
        double retx = 0;
        uint64_t echoes = 0;
        uint64_t reductions = 0;
        std::string names;
        for (const auto* c : cliques)
        {
            start = std::min(start, c->startS);
            end = std::max(end, c->endS);
            bytes += static_cast<double>(c->bytes);
            retx += static_cast<double>(c->retransmittedBytes);
            echoes += c->ecnEchoes;
            reductions += c->ecnReductions;
            names += (names.empty() ? "" : " ") + c->members;
        }
        if (names.size() > 30)
        {
            names = names.substr(0, 27) + "...";
        }
        std::snprintf(line, sizeof line, "%5u  %-30s %10.4f %10.4f %11.4f %12.1f %8.2f %9llu %13llu\n",
                      round, names.c_str(), start, end, end - start, bytes / 1e6, retx / 1e6,
                      static_cast<unsigned long long>(echoes),
                      static_cast<unsigned long long>(reductions));
        os << line;
    }
}

void
ScenarioResult::PrintLinkTable(std::ostream& os, std::size_t top) const
{
    std::vector<const LinkRecord*> sorted;
    for (const auto& l : links)
    {
        sorted.push_back(&l);
    }
    std::sort(sorted.begin(), sorted.end(), [](const LinkRecord* a, const LinkRecord* b) {
        return a->bytes > b->bytes || (a->bytes == b->bytes && a->link < b->link);
    });
    char line[256];
    std::snprintf(line, sizeof line, "%-22s %-8s %-7s %12s %12s %8s\n", "link (from->to)", "kind",
                  "", "bytes(MB)", "payload(MB)", "util");
    os << line;
    for (std::size_t i = 0; i < sorted.size() && i < top; ++i)
    {
        const LinkRecord& l = *sorted[i];
        std::string dir = l.from + "->" + l.to;
        std::snprintf(line, sizeof line, "%-22s %-8s %-7s %12.1f %12.1f %7.1f%%\n", dir.c_str(),
                      l.kind.c_str(), "", static_cast<double>(l.bytes) / 1e6,
                      static_cast<double>(l.payloadBytes) / 1e6, 100.0 * l.utilization);
        os << line;
    }
}

} // namespace ns3
