/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_TRAINING_OPTIONS_H
#define INTELLIGENT_NETWORK_TRAINING_OPTIONS_H

#include "experiment-options.h"

#include "ns3/local-optimizer.h"
#include "ns3/proxy-learner.h"
#include "ns3/proxy-task.h"

#include <cstddef>
#include <string>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief The training options of ExperimentOptions' table (group `training`: --task,
 * --dataset, --hidden, --alpha, --optimizer, --lr, --outerLr, ...) turned into the proxy
 * task's and the optimisers' settings, the same way in every program (training-proxy,
 * training-curves). Every error names the option and exits the program with status 2
 * through ExperimentOptions::Fail.
 */
class TrainingOptions
{
  public:
    /// The task of \p options for \p islands shards (checked: ProxyTaskConfig::Validate).
    static ProxyTaskConfig TaskConfig(const ExperimentOptions& options, std::size_t islands);
    /// Inner optimiser: --optimizer, --lr, --sgdMomentum (SGD only), --batch.
    static LocalOptimizerConfig Inner(const ExperimentOptions& options);
    /// Outer (DiLoCo) step: --outerLr, --outerMomentum.
    static OuterOptimizerConfig Outer(const ExperimentOptions& options);
    /// --alpha: a number in [1e-6, 1e6] or "inf" (iid shards).
    static double ParseAlpha(const std::string& text);
    /**
     * Throws std::invalid_argument naming --modelBytes when a model of \p parameters values
     * does not fit the modelled payload: islands send the real vector as 8-byte doubles in
     * the first segments of the --modelBytes they exchange.
     */
    static void CheckModelFits(const ExperimentOptions& options, std::size_t parameters);
};

} // namespace ns3

#endif
