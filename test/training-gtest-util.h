/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TRAINING_GTEST_UTIL_H
#define INTELLIGENT_NETWORK_TRAINING_GTEST_UTIL_H

// Helpers shared by the GoogleTest files of the training proxy (small, fast tasks).

#include "ns3/linear-task.h"
#include "ns3/local-optimizer.h"
#include "ns3/proxy-task.h"
#include "ns3/schedule.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{
namespace testutil
{

/// A small task: \p islands islands, dimension \p dim, \p rows rows per shard.
inline ProxyTaskConfig
SmallTask(std::size_t islands = 4, std::size_t dim = 16, std::size_t rows = 64,
          double heterogeneity = 0, ProxyTaskKind loss = ProxyTaskKind::LEAST_SQUARES)
{
    ProxyTaskConfig c;
    c.kind = loss;
    c.islands = islands;
    c.dimension = dim;
    c.samplesPerIsland = rows;
    c.heldOutSamples = 128;
    c.heterogeneity = heterogeneity;
    c.seed = 7;
    return c;
}

inline std::shared_ptr<const ProxyTask>
MakeTask(const ProxyTaskConfig& c)
{
    return ProxyTask::Create(c);
}

inline std::shared_ptr<const LinearTask>
MakeLinear(const ProxyTaskConfig& c)
{
    return std::make_shared<const LinearTask>(c);
}

/// A small classification task: \p islands islands of \p rows rows, Dirichlet \p alpha,
/// 8 inputs (latent 4), 5 classes of 2 modes, one hidden layer of \p hidden units.
inline ProxyTaskConfig
SmallClassification(std::size_t islands = 4, std::size_t rows = 200, double alpha = 0.1,
                    std::size_t hidden = 16)
{
    ProxyTaskConfig c;
    c.kind = ProxyTaskKind::CLASSIFICATION;
    c.islands = islands;
    c.samplesPerIsland = rows;
    c.heldOutSamples = 400;
    c.inputs = 8;
    c.latent = 4;
    c.classes = 5;
    c.modesPerClass = 2;
    c.modeNoise = 0.3;
    c.hidden = {hidden};
    c.alpha = alpha;
    c.seed = 7;
    return c;
}

/// Inner optimiser settings: \p kind with learning rate \p lr, \p batch rows (0 = full shard)
/// and weight decay \p wd.
inline LocalOptimizerConfig
Inner(double lr, uint32_t batch, double wd = 0, LocalOptimizerKind kind = LocalOptimizerKind::SGD)
{
    LocalOptimizerConfig c;
    c.kind = kind;
    c.learningRate = lr;
    c.batchSize = batch;
    c.weightDecay = wd;
    return c;
}

/// City names "I0" .. "I<n-1>".
inline std::vector<std::string>
Cities(std::size_t n)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i)
    {
        out.push_back("I" + std::to_string(i));
    }
    return out;
}

/// One round, one clique of all \p cities.
inline Schedule
AllReduceSchedule(const std::vector<std::string>& cities)
{
    return Schedule("all-reduce", {ScheduleRound{{cities}}});
}

/// Largest absolute entry difference.
inline double
MaxDiff(const Eigen::VectorXd& a, const Eigen::VectorXd& b)
{
    EXPECT_EQ(a.size(), b.size());
    return (a - b).cwiseAbs().maxCoeff();
}

/// Run \p fn, expect std::invalid_argument whose message contains \p words.
inline void
ExpectInvalid(const std::function<void()>& fn, const std::string& words)
{
    try
    {
        fn();
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find(words), std::string::npos)
            << "message: " << e.what() << ", expected to contain: " << words;
        return;
    }
    ADD_FAILURE() << "expected std::invalid_argument mentioning '" << words << "'";
}

} // namespace testutil
} // namespace ns3

#endif
