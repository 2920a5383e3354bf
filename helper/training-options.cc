/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-options.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

double
TrainingOptions::ParseAlpha(const std::string& text)
{
    if (text == "inf")
    {
        return std::numeric_limits<double>::infinity();
    }
    try
    {
        return OptionValidator::Real(1e-6, 1e6).Parse("--alpha", text).get<double>();
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(std::string(e.what()) + " (or inf: iid shards)");
    }
}

ProxyTaskConfig
TrainingOptions::TaskConfig(const ExperimentOptions& options, std::size_t islands)
{
    ProxyTaskConfig tc;
    tc.kind = ProxyTaskConfig::ParseKind(options.GetText("task"));
    const std::string hidden = options.GetText("hidden");
    try
    {
        tc.hidden = ProxyTaskConfig::ParseHidden(hidden);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument("--hidden=" + hidden + ": " + e.what());
    }
    for (std::size_t width : tc.hidden)
    {
        if (width > 65536)
        {
            throw std::invalid_argument("--hidden=" + hidden + ": a layer of " +
                                        std::to_string(width) +
                                        " units (accepted: 1 .. 65536 per layer)");
        }
    }
    tc.alpha = ParseAlpha(options.GetText("alpha"));
    tc.classes = options.GetInteger("classes");
    tc.dataset = options.GetText("dataset");
    tc.datasetDir = options.GetText("datasetDir");
    uint64_t rows = options.GetInteger("samplesPerIsland");
    tc.samplesPerIsland =
        rows > 0 ? rows : ProxyTaskConfig::DefaultSamplesPerIsland(tc.kind, tc.dataset);
    tc.dimension = options.GetInteger("dimension");
    tc.heterogeneity = options.GetDouble("heterogeneity");
    tc.islands = islands;
    tc.seed = options.GetInteger("seed");
    if (tc.kind != ProxyTaskKind::CLASSIFICATION &&
        static_cast<double>(tc.samplesPerIsland) * static_cast<double>(tc.dimension) > 1e8)
    {
        throw std::invalid_argument(
            "--dimension=" + std::to_string(tc.dimension) + " x --samplesPerIsland=" +
            std::to_string(tc.samplesPerIsland) +
            ": more than 1e8 values per shard (800 MB per island; lower either)");
    }
    tc.Validate();
    return tc;
}

LocalOptimizerConfig
TrainingOptions::Inner(const ExperimentOptions& options)
{
    LocalOptimizerConfig inner;
    inner.kind = LocalOptimizerConfig::ParseKind(options.GetText("optimizer"));
    inner.learningRate = options.GetDouble("lr");
    inner.momentum =
        inner.kind == LocalOptimizerKind::SGD ? options.GetDouble("sgdMomentum") : 0.0;
    inner.batchSize = static_cast<uint32_t>(options.GetInteger("batch"));
    return inner;
}

OuterOptimizerConfig
TrainingOptions::Outer(const ExperimentOptions& options)
{
    OuterOptimizerConfig outer;
    outer.learningRate = options.GetDouble("outerLr");
    outer.momentum = options.GetDouble("outerMomentum");
    outer.Validate();
    return outer;
}

void
TrainingOptions::CheckModelFits(const ExperimentOptions& options, std::size_t parameters)
{
    const uint64_t modelBytes = options.GetInteger("modelBytes");
    const uint64_t needed = static_cast<uint64_t>(parameters) * 8;
    if (needed > modelBytes)
    {
        throw std::invalid_argument(
            "--modelBytes=" + std::to_string(modelBytes) + " is too small for the task's " +
            std::to_string(parameters) +
            " parameters: islands send them as 8-byte doubles inside the modelled payload "
            "(accepted: at least " +
            std::to_string(needed) + "; or a smaller model, e.g. --hidden)");
    }
}

} // namespace ns3
