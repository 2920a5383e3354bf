/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-run.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

namespace ns3
{

void
TrainingRunConfig::Validate() const
{
    if (rounds == 0)
    {
        throw std::invalid_argument("training run: rounds must be positive (got 0)");
    }
    if (sync == SyncMode::FIXED_POINT)
    {
        FixedPoint check(fractionBits); // throws std::invalid_argument outside [0, 30]
    }
}

SyncMode
TrainingRunConfig::ParseSync(const std::string& name)
{
    if (name == "exact")
    {
        return SyncMode::EXACT;
    }
    if (name == "fixed-point")
    {
        return SyncMode::FIXED_POINT;
    }
    throw std::invalid_argument("training run: unknown sync mode '" + name +
                                "' (exact | fixed-point)");
}

LossCurve
TrainingRunResult::Curve(TargetMetric metric) const
{
    LossCurve curve{{0.0, initial.loss, initial.accuracy}};
    for (const TrainingRoundRecord& r : rounds)
    {
        Evaluation score = TrainingMetrics::Score(r.islands, r.average, metric);
        curve.push_back({r.endS, score.loss, score.accuracy});
    }
    return curve;
}

TrainingRun::TrainingRun(std::shared_ptr<const ProxyTask> task, const Schedule& schedule,
                         const std::vector<std::string>& islands, const LocalOptimizerConfig& inner,
                         const OuterOptimizerConfig& outer, uint64_t seed)
    : m_task(task)
    , m_schedule(schedule)
    , m_islands(islands)
    , m_inner(inner)
    , m_outer(outer)
    , m_seed(seed)
{
    if (!task)
    {
        throw std::invalid_argument("training run: no task");
    }
    if (islands.size() != task->Islands())
    {
        throw std::invalid_argument("training run: " + std::to_string(islands.size()) +
                                    " island names for a task of " +
                                    std::to_string(task->Islands()) + " islands");
    }
    if (std::set<std::string>(islands.begin(), islands.end()).size() != islands.size())
    {
        throw std::invalid_argument("training run: duplicate island name");
    }
    inner.Validate();
    outer.Validate();
    schedule.Validate(islands);
    m_rounds = ConsensusMetric::ToIndices(schedule, islands);
}

TrainingRun::RoundDuration
TrainingRun::Periodic(std::vector<double> periodTimes)
{
    if (periodTimes.empty())
    {
        throw std::invalid_argument("training run: no period round times");
    }
    return
        [times = std::move(periodTimes)](std::size_t round) { return times[round % times.size()]; };
}

std::vector<double>
TrainingRun::FixedPointSum(const FixedPoint& codec, const std::vector<std::vector<double>>& vectors,
                           uint64_t& overflows)
{
    if (vectors.empty())
    {
        throw std::invalid_argument("training run: a fixed-point sum of no vectors");
    }
    const std::size_t d = vectors.front().size();
    std::vector<int32_t> acc(d, 0);
    std::vector<int32_t> lanes;
    for (const auto& v : vectors)
    {
        if (v.size() != d)
        {
            throw std::invalid_argument("training run: vectors of a fixed-point sum differ in "
                                        "size");
        }
        overflows += codec.EncodeAll(v, lanes);
        for (std::size_t j = 0; j < d; ++j)
        {
            overflows += FixedPoint::AddChecked(acc[j], lanes[j]) ? 0 : 1;
        }
    }
    std::vector<double> sum(d);
    for (std::size_t j = 0; j < d; ++j)
    {
        sum[j] = codec.Decode(acc[j]);
    }
    return sum;
}

TrainingRunResult
TrainingRun::Run(const TrainingRunConfig& config, const RoundDuration& duration)
{
    config.Validate();
    if (!duration)
    {
        throw std::invalid_argument("training run: no round duration function");
    }
    const FixedPoint codec(config.sync == SyncMode::FIXED_POINT ? config.fractionBits : 16);
    m_learners = ProxyLearner::ForAllIslands(m_task, m_inner, m_outer, m_seed);
    for (auto& learner : m_learners)
    {
        learner->SetShardLossTracking(config.shardLoss);
    }
    TrainingRunResult result;
    result.initial = TrainingMetrics::AverageModel(*m_task, TrainingMetrics::Vectors(m_learners));
    double now = 0;
    for (uint32_t r = 0; r < config.rounds; ++r)
    {
        double length = duration(r);
        if (!(length >= 0) || !std::isfinite(length))
        {
            throw std::invalid_argument("training run: round " + std::to_string(r) +
                                        " has duration " + std::to_string(length) +
                                        " (must be non-negative and finite)");
        }
        TrainingRoundRecord record;
        record.round = r;
        record.startS = now;
        for (auto& learner : m_learners)
        {
            learner->LocalSteps(r, config.localSteps);
            record.localLoss.push_back(learner->LastLocalLoss());
            record.batchLoss.push_back(learner->LocalHistory().back().meanBatchLoss);
        }
        for (const auto& clique : m_rounds[r % m_rounds.size()])
        {
            if (clique.size() < 2)
            {
                continue; // a clique of one does not synchronise
            }
            std::vector<std::vector<double>> sent;
            for (uint32_t member : clique)
            {
                sent.push_back(m_learners[member]->Parameters());
            }
            if (config.sync == SyncMode::EXACT)
            {
                for (std::size_t i = 0; i < clique.size(); ++i)
                {
                    std::vector<std::vector<double>> peers;
                    for (std::size_t j = 0; j < clique.size(); ++j)
                    {
                        if (j != i)
                        {
                            peers.push_back(sent[j]);
                        }
                    }
                    m_learners[clique[i]]->Synchronize(r, peers);
                }
                continue;
            }
            std::vector<double> sum = FixedPointSum(codec, sent, record.overflows);
            for (std::size_t j = 0; j < sum.size(); ++j)
            {
                double exact = 0;
                for (const auto& v : sent)
                {
                    exact += v[j];
                }
                record.maxAverageError =
                    std::max(record.maxAverageError, std::abs(sum[j] - exact) / clique.size());
            }
            for (uint32_t member : clique)
            {
                m_learners[member]->SynchronizeSum(r, sum, static_cast<uint32_t>(clique.size()));
            }
        }
        now += length;
        record.endS = now;
        std::vector<Eigen::VectorXd> vectors = TrainingMetrics::Vectors(m_learners);
        record.average = TrainingMetrics::AverageModel(*m_task, vectors);
        record.islands = TrainingMetrics::IslandEvaluations(*m_task, vectors);
        record.consensusDistance = TrainingMetrics::ConsensusDistance(vectors);
        result.overflows += record.overflows;
        result.rounds.push_back(std::move(record));
        const TrainingRoundRecord& last = result.rounds.back();
        if (TrainingMetrics::Score(last.islands, last.average, config.metric).accuracy >=
            config.stopAccuracy)
        {
            break; // NaN stopAccuracy never compares true
        }
    }
    return result;
}

const std::vector<std::shared_ptr<ProxyLearner>>&
TrainingRun::Learners() const
{
    return m_learners;
}

} // namespace ns3
