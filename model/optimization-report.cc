/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "optimization-report.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>

namespace ns3
{

namespace
{

nlohmann::json
Number(double v)
{
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json
ResultJson(const std::string& name, const OptimizerResult& r)
{
    nlohmann::json j;
    j["name"] = name;
    j["period"] = r.schedule.Period();
    nlohmann::json schedule = nlohmann::json::parse(r.schedule.ToJson());
    j["rounds"] = schedule["rounds"];
    nlohmann::json patterns = nlohmann::json::array();
    for (const ScheduleRound& round : r.schedule.Rounds())
    {
        nlohmann::json p = nlohmann::json::array();
        for (std::size_t c = 0; c < round.cliques.size(); ++c)
        {
            if (round.cliques[c].size() >= 2 && c < round.patterns.size())
            {
                p.push_back(PatternName(round.patterns[c]));
            }
        }
        patterns.push_back(p);
    }
    j["patterns"] = patterns;
    nlohmann::json times = nlohmann::json::array();
    for (double t : r.roundTimes)
    {
        times.push_back(Number(t));
    }
    j["round_times_s"] = times;
    j["score"] = Number(r.score);
    j["rounds_to_target"] = r.consensus.roundsToTarget == ConsensusScore::kNever
                                ? nlohmann::json(nullptr)
                                : nlohmann::json(r.consensus.roundsToTarget);
    return j;
}

/// Why \p schedule cannot run under \p caps: the first pattern it fixes that they do not allow
/// (NetworkCapabilities::WhyNotAllowed); empty if none.
std::string
ExcludedPattern(const Schedule& schedule, const NetworkCapabilities& caps)
{
    for (const ScheduleRound& round : schedule.Rounds())
    {
        for (ExchangePattern p : round.patterns)
        {
            if (!caps.Allows(p))
            {
                return caps.WhyNotAllowed(p);
            }
        }
    }
    return "";
}

} // namespace

OptimizationReport
OptimizationReport::Run(const CostModel& cost, const std::vector<std::string>& islands,
                        const OptimizerOptions& options, std::size_t dilocoH, bool withBaselines)
{
    OptimizationReport report;
    report.capabilities = cost.Capabilities().SetName();
    report.aggregation = AggregationDesignName(cost.Capabilities().aggregationDesign);
    report.islands = islands;
    ScheduleOptimizer optimizer(cost, islands, options);
    report.objective = optimizer.Objective().Name();
    report.objectiveDescription = optimizer.Objective().Description();
    auto started = std::chrono::steady_clock::now();
    report.best = optimizer.Optimize();
    report.searchSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    report.best.schedule.SetName("optimized");
    if (withBaselines)
    {
        auto geo = BaselineSchedules::NearestNeighbourOrder(cost.Routes(), islands);
        for (const Baseline& b : BaselineSchedules::All(geo, dilocoH))
        {
            // A baseline that fixes a pattern the capabilities do not allow (a restriction
            // such as patterns = {ring} excludes the tree all-reduce) is listed, not costed.
            const std::string why = ExcludedPattern(b.schedule, cost.Capabilities());
            report.baselines.push_back(why.empty()
                                           ? BaselineResult{b, optimizer.Evaluate(b.schedule), ""}
                                           : BaselineResult{b, OptimizerResult(), why});
        }
    }
    return report;
}

std::string
OptimizationReport::ToJson() const
{
    nlohmann::json j;
    j["capabilities"] = capabilities;
    j["aggregation"] = aggregation;
    j["objective"] = objective;
    j["objective_description"] = objectiveDescription;
    j["islands"] = islands;
    j["search_seconds"] = searchSeconds;
    nlohmann::json b = ResultJson(best.schedule.GetName(), best);
    b["method"] = best.method;
    b["optimal"] = best.optimal;
    b["bound"] = Number(best.bound);
    b["gap"] = Number(best.gap);
    b["budget_exhausted"] = best.budgetExhausted;
    b["evaluated"] = best.evaluated;
    b["simulated"] = best.simulated;
    j["best"] = b;
    nlohmann::json list = nlohmann::json::array();
    for (const BaselineResult& r : baselines)
    {
        nlohmann::json e;
        if (!r.excluded.empty())
        {
            e["name"] = r.baseline.schedule.GetName();
            e["excluded"] = r.excluded;
        }
        else
        {
            e = ResultJson(r.baseline.schedule.GetName(), r.result);
        }
        nlohmann::json meta = nlohmann::json::object();
        for (const auto& [k, v] : r.baseline.metadata)
        {
            meta[k] = v;
        }
        e["metadata"] = meta;
        list.push_back(e);
    }
    j["baselines"] = list;
    return j.dump(2);
}

} // namespace ns3
