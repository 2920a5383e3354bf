/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TRAINING_GTEST_UTIL_H
#define INTELLIGENT_NETWORK_TRAINING_GTEST_UTIL_H

// Helpers shared by the GoogleTest files of the training proxy (small, fast tasks).

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
          double heterogeneity = 0, ProxyLoss loss = ProxyLoss::LEAST_SQUARES)
{
    ProxyTaskConfig c;
    c.loss = loss;
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
    return std::make_shared<const ProxyTask>(c);
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
