/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "proxy-task.h"

#include "classification-task.h"
#include "linear-task.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

void
RequirePositive(std::size_t value, const std::string& field)
{
    if (value == 0)
    {
        throw std::invalid_argument("proxy task: " + field + " must be positive (got 0)");
    }
}

void
RequireFinite(double value, bool positive, const std::string& field)
{
    if (!std::isfinite(value) || (positive ? !(value > 0) : !(value >= 0)))
    {
        throw std::invalid_argument("proxy task: " + field + " must be " +
                                    (positive ? "positive" : "non-negative") + " and finite (got " +
                                    std::to_string(value) + ")");
    }
}

} // namespace

void
ProxyTaskConfig::Validate() const
{
    RequirePositive(islands, "islands");
    RequirePositive(samplesPerIsland, "samplesPerIsland");
    RequirePositive(heldOutSamples, "heldOutSamples");
    if (kind == ProxyTaskKind::CLASSIFICATION)
    {
        if (dataset != "synthetic" && dataset != "fashion-mnist")
        {
            throw std::invalid_argument("proxy task: unknown dataset '" + dataset +
                                        "' (synthetic | fashion-mnist)");
        }
        RequirePositive(inputs, "inputs");
        RequirePositive(latent, "latent");
        if (latent > inputs)
        {
            throw std::invalid_argument("proxy task: latent (" + std::to_string(latent) +
                                        ") must not exceed inputs (" + std::to_string(inputs) +
                                        ")");
        }
        if (classes < 2)
        {
            throw std::invalid_argument("proxy task: classes must be at least 2 (got " +
                                        std::to_string(classes) + ")");
        }
        RequirePositive(modesPerClass, "modesPerClass");
        RequireFinite(modeNoise, true, "modeNoise");
        for (std::size_t l = 0; l < hidden.size(); ++l)
        {
            RequirePositive(hidden[l], "hidden[" + std::to_string(l) + "]");
        }
        try
        {
            LabelSkew::ValidateAlpha(alpha);
        }
        catch (const std::invalid_argument&)
        {
            throw std::invalid_argument("proxy task: alpha must be positive (got " +
                                        std::to_string(alpha) + "; inf = iid shards)");
        }
        return;
    }
    RequirePositive(dimension, "dimension");
    RequireFinite(heterogeneity, false, "heterogeneity");
    RequireFinite(noise, false, "noise");
    RequireFinite(signal, true, "signal");
}

ProxyTaskKind
ProxyTaskConfig::ParseKind(const std::string& name)
{
    if (name == "classification")
    {
        return ProxyTaskKind::CLASSIFICATION;
    }
    if (name == "least-squares")
    {
        return ProxyTaskKind::LEAST_SQUARES;
    }
    if (name == "logistic")
    {
        return ProxyTaskKind::LOGISTIC;
    }
    throw std::invalid_argument("proxy task: unknown task '" + name +
                                "' (classification | least-squares | logistic)");
}

std::string
ProxyTaskConfig::KindName(ProxyTaskKind kind)
{
    switch (kind)
    {
    case ProxyTaskKind::CLASSIFICATION:
        return "classification";
    case ProxyTaskKind::LEAST_SQUARES:
        return "least-squares";
    case ProxyTaskKind::LOGISTIC:
        return "logistic";
    }
    return "?";
}

std::vector<std::size_t>
ProxyTaskConfig::ParseHidden(const std::string& text)
{
    std::vector<std::size_t> out;
    if (text.empty() || text == "none")
    {
        return out;
    }
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        std::size_t used = 0;
        unsigned long long value = 0;
        try
        {
            value = std::stoull(item, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (item.empty() || used != item.size() || value == 0 || item[0] == '-')
        {
            throw std::invalid_argument("proxy task: hidden layer width '" + item +
                                        "' is not a positive integer (in '" + text + "')");
        }
        out.push_back(static_cast<std::size_t>(value));
    }
    if (!text.empty() && text.back() == ',')
    {
        throw std::invalid_argument("proxy task: hidden layer widths '" + text +
                                    "' end with a comma");
    }
    return out;
}

std::string
ProxyTaskConfig::HiddenText(const std::vector<std::size_t>& hidden)
{
    std::string out;
    for (std::size_t h : hidden)
    {
        out += (out.empty() ? "" : ",") + std::to_string(h);
    }
    return out.empty() ? "none" : out;
}

std::size_t
ProxyTaskConfig::DefaultSamplesPerIsland(ProxyTaskKind kind, const std::string& dataset)
{
    return kind == ProxyTaskKind::CLASSIFICATION && dataset == "synthetic" ? 4096 : 1024;
}

std::shared_ptr<const ProxyTask>
ProxyTask::Create(const ProxyTaskConfig& config)
{
    config.Validate();
    if (config.kind == ProxyTaskKind::CLASSIFICATION)
    {
        return std::make_shared<const ClassificationTask>(config);
    }
    return std::make_shared<const LinearTask>(config);
}

std::size_t
ProxyTask::Islands() const
{
    return Config().islands;
}

double
ProxyTask::HeldOutLoss(const Eigen::VectorXd& w) const
{
    return HeldOut(w).loss;
}

void
ProxyTask::CheckIsland(std::size_t island) const
{
    if (island >= Islands())
    {
        throw std::out_of_range("proxy task: island " + std::to_string(island) + " out of range (" +
                                std::to_string(Islands()) + " islands)");
    }
}

void
ProxyTask::CheckRows(const std::vector<std::size_t>& rows, std::size_t shardRows,
                     std::size_t island)
{
    if (rows.empty())
    {
        throw std::invalid_argument("proxy task: empty minibatch");
    }
    for (std::size_t r : rows)
    {
        if (r >= shardRows)
        {
            throw std::out_of_range("proxy task: row " + std::to_string(r) +
                                    " beyond the shard of island " + std::to_string(island));
        }
    }
}

} // namespace ns3
