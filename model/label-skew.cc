/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "label-skew.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace ns3
{

void
LabelSkew::ValidateAlpha(double alpha)
{
    if (!(alpha > 0)) // also rejects NaN
    {
        throw std::invalid_argument("label skew: alpha must be positive (got " +
                                    std::to_string(alpha) + "; inf = iid shards)");
    }
}

std::vector<double>
LabelSkew::Dirichlet(std::size_t k, double alpha, std::mt19937_64& rng)
{
    ValidateAlpha(alpha);
    if (k == 0)
    {
        throw std::invalid_argument("label skew: a Dirichlet draw of no shares");
    }
    if (std::isinf(alpha))
    {
        return std::vector<double>(k, 1.0 / static_cast<double>(k));
    }
    std::vector<double> logs(k);
    std::gamma_distribution<double> gamma(alpha < 1 ? alpha + 1 : alpha, 1.0);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (double& g : logs)
    {
        g = std::log(gamma(rng));
        if (alpha < 1)
        {
            double u = 1.0 - uniform(rng); // in (0, 1]
            g += std::log(u) / alpha;
        }
    }
    const double top = *std::max_element(logs.begin(), logs.end());
    double sum = 0;
    for (double& g : logs)
    {
        g = std::exp(g - top);
        sum += g;
    }
    for (double& g : logs)
    {
        g /= sum;
    }
    return logs;
}

Eigen::MatrixXd
LabelSkew::Shares(std::size_t islands, std::size_t classes, double alpha, ClassPlacement placement,
                  uint64_t seed)
{
    if (islands == 0 || classes == 0)
    {
        throw std::invalid_argument("label skew: needs islands and classes");
    }
    std::mt19937_64 rng(seed);
    Eigen::MatrixXd shares(islands, classes);
    for (std::size_t k = 0; k < islands; ++k)
    {
        std::vector<double> p = Dirichlet(classes, alpha, rng);
        if (placement == ClassPlacement::ROTATED)
        {
            std::sort(p.begin(), p.end(), std::greater<double>());
            for (std::size_t i = 0; i < classes; ++i)
            {
                shares(k, (k + i) % classes) = p[i];
            }
        }
        else
        {
            for (std::size_t c = 0; c < classes; ++c)
            {
                shares(k, c) = p[c];
            }
        }
    }
    return shares;
}

std::vector<std::size_t>
LabelSkew::Counts(const Eigen::VectorXd& shares, std::size_t rows)
{
    const double total = shares.sum();
    if (shares.size() == 0 || !(total > 0) || shares.minCoeff() < 0 || !std::isfinite(total))
    {
        throw std::invalid_argument("label skew: shares must be non-negative with a positive sum");
    }
    const auto n = static_cast<std::size_t>(shares.size());
    std::vector<std::size_t> counts(n);
    std::vector<double> remainder(n);
    std::size_t given = 0;
    for (std::size_t c = 0; c < n; ++c)
    {
        double exact = shares[static_cast<Eigen::Index>(c)] / total * static_cast<double>(rows);
        counts[c] = static_cast<std::size_t>(std::floor(exact));
        remainder[c] = exact - static_cast<double>(counts[c]);
        given += counts[c];
    }
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
    for (std::size_t i = 0; given < rows; ++i, ++given)
    {
        ++counts[order[i % n]];
    }
    return counts;
}

double
LabelSkew::ExpectedSquaredShare(std::size_t k, double alpha)
{
    ValidateAlpha(alpha);
    const double kd = static_cast<double>(k);
    return std::isinf(alpha) ? 1.0 / kd : (alpha + 1) / (kd * alpha + 1);
}

ClassPlacement
LabelSkew::ParsePlacement(const std::string& name)
{
    if (name == "rotated")
    {
        return ClassPlacement::ROTATED;
    }
    if (name == "random")
    {
        return ClassPlacement::RANDOM;
    }
    throw std::invalid_argument("label skew: unknown class placement '" + name +
                                "' (rotated | random)");
}

std::string
LabelSkew::PlacementName(ClassPlacement placement)
{
    return placement == ClassPlacement::ROTATED ? "rotated" : "random";
}

} // namespace ns3
