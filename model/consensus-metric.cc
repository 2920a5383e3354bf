/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "consensus-metric.h"

#include "input-error.h"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

ConsensusMetric::ConsensusMetric(std::size_t islands, double target, std::size_t maxRounds)
    : m_n(islands)
    , m_target(target)
    , m_maxRounds(maxRounds)
{
    if (islands == 0)
    {
        throw std::invalid_argument("consensus metric: needs at least one island");
    }
    if (!(target > 0 && target < 1))
    {
        throw std::invalid_argument("consensus metric: the error target must be in (0, 1)");
    }
}

std::size_t
ConsensusMetric::Islands() const
{
    return m_n;
}

double
ConsensusMetric::Target() const
{
    return m_target;
}

void
ConsensusMetric::Check(const IndexRound& round) const
{
    std::vector<bool> seen(m_n, false);
    for (const auto& clique : round)
    {
        for (uint32_t i : clique)
        {
            if (i >= m_n || seen[i])
            {
                throw std::invalid_argument("consensus metric: island index " + std::to_string(i) +
                                            " is out of range or in two cliques of a round");
            }
            seen[i] = true;
        }
    }
}

Eigen::MatrixXd
ConsensusMetric::MixingMatrix(const IndexRound& round) const
{
    Check(round);
    Eigen::MatrixXd w = Eigen::MatrixXd::Identity(m_n, m_n);
    for (const auto& clique : round)
    {
        double share = 1.0 / static_cast<double>(clique.size());
        for (uint32_t i : clique)
        {
            w(i, i) = 0;
            for (uint32_t j : clique)
            {
                w(i, j) = share;
            }
        }
    }
    return w;
}

Eigen::MatrixXd
ConsensusMetric::PeriodProduct(const std::vector<IndexRound>& rounds) const
{
    Eigen::MatrixXd p = Eigen::MatrixXd::Identity(m_n, m_n);
    for (const auto& r : rounds)
    {
        Check(r);
        Apply(r, p);
    }
    return p;
}

double
ConsensusMetric::PeriodNorm(const std::vector<IndexRound>& rounds) const
{
    Eigen::MatrixXd a = PeriodProduct(rounds);
    a.array() -= 1.0 / static_cast<double>(m_n);
    return TwoNorm(a);
}

double
ConsensusMetric::Error(const std::vector<IndexRound>& rounds, std::size_t k) const
{
    Eigen::MatrixXd d = Eigen::MatrixXd::Identity(m_n, m_n);
    d.array() -= 1.0 / static_cast<double>(m_n);
    for (std::size_t r = 0; r < k; ++r)
    {
        Apply(rounds.at(r % rounds.size()), d);
    }
    return TwoNorm(d);
}

void
ConsensusMetric::Apply(const IndexRound& round, Eigen::MatrixXd& x)
{
    for (const auto& clique : round)
    {
        if (clique.size() < 2)
        {
            continue;
        }
        Eigen::RowVectorXd mean = Eigen::RowVectorXd::Zero(x.cols());
        for (uint32_t i : clique)
        {
            mean += x.row(i);
        }
        mean /= static_cast<double>(clique.size());
        for (uint32_t i : clique)
        {
            x.row(i) = mean;
        }
    }
}

void
ConsensusMetric::ApplyColumns(const IndexRound& round, Eigen::MatrixXd& x)
{
    for (const auto& clique : round)
    {
        if (clique.size() < 2)
        {
            continue;
        }
        Eigen::VectorXd mean = Eigen::VectorXd::Zero(x.rows());
        for (uint32_t i : clique)
        {
            mean += x.col(i);
        }
        mean /= static_cast<double>(clique.size());
        for (uint32_t i : clique)
        {
            x.col(i) = mean;
        }
    }
}

double
ConsensusMetric::TwoNorm(const Eigen::MatrixXd& a)
{
    if (a.size() == 0)
    {
        return 0;
    }
    // Largest eigenvalue of the symmetric A^T A is cheaper than an SVD; it loses relative
    // accuracy only for tiny norms, which the SVD then settles.
    Eigen::MatrixXd ata = a.transpose() * a;
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(ata, Eigen::EigenvaluesOnly);
    double norm = std::sqrt(std::max(0.0, eig.eigenvalues().maxCoeff()));
    if (norm > 1e-6)
    {
        return norm;
    }
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(a);
    return svd.singularValues()(0);
}

ConsensusScore
ConsensusMetric::Mixing(const std::vector<IndexRound>& rounds) const
{
    if (rounds.empty())
    {
        throw std::invalid_argument("consensus metric: a schedule needs at least one round");
    }
    for (const auto& r : rounds)
    {
        Check(r);
    }
    ConsensusScore s;
    if (m_n == 1)
    {
        s.norm = 0;
        s.exact = true;
        s.roundsToTarget = 0;
        return s;
    }
    const std::size_t period = rounds.size();
    const double n = static_cast<double>(m_n);
    // D_k = W_k ... W_1 - J = W_k D_{k-1} (every W is doubly stochastic): block averaging.
    // `d` holds D_k^T (same norms; W is symmetric, so rounds average its contiguous columns).
    // The error ||D_k||_2 never grows (each W_k contracts the columns, which sum to zero), and
    // ||D||_2 <= ||D||_F <= sqrt(n-1) ||D||_2: rounds whose Frobenius norm lies in between
    // are kept in `band` and the first one at the target is found by bisection.
    Eigen::MatrixXd d = Eigen::MatrixXd::Identity(m_n, m_n);
    d.array() -= 1.0 / n;
    std::vector<Eigen::MatrixXd> band;
    std::size_t bandStart = 0;
    auto searchBand = [&]() {
        // First index of band at the target, or band.size().
        std::size_t lo = 0;
        std::size_t hi = band.size();
        while (lo < hi)
        {
            std::size_t mid = (lo + hi) / 2;
            if (TwoNorm(band[mid]) <= m_target)
            {
                hi = mid;
            }
            else
            {
                lo = mid + 1;
            }
        }
        return lo;
    };
    std::size_t limit = period;
    for (std::size_t k = 1; k <= limit; ++k)
    {
        ApplyColumns(rounds[(k - 1) % period], d);
        if (k == period)
        {
            s.norm = TwoNorm(d);
            s.exact = s.norm < kExactNorm;
            if (!s.exact && s.norm >= 1 - 1e-12)
            {
                s.roundsToTarget = ConsensusScore::kNever; // never contracts
                return s;
            }
            // The error shrinks by at least `norm` per period: this many rounds suffice.
            double periods = s.exact ? 1 : std::ceil(std::log(m_target) / std::log(s.norm));
            limit = static_cast<std::size_t>(
                std::min<double>(periods * static_cast<double>(period), m_maxRounds));
            limit = std::max(limit, period);
        }
        if (s.roundsToTarget != ConsensusScore::kNever)
        {
            continue; // found inside the first period; only the norm was still needed
        }
        double frob = d.norm();
        bool atTarget = frob <= m_target;
        if (!atTarget && frob <= m_target * std::sqrt(n - 1))
        {
            bandStart = band.empty() ? k : bandStart;
            band.push_back(d);
            if (band.size() < 1024 && k < limit)
            {
                continue;
            }
        }
        if (!band.empty())
        {
            std::size_t i = searchBand();
            if (i < band.size())
            {
                s.roundsToTarget = bandStart + i;
                continue;
            }
            band.clear();
        }
        if (atTarget)
        {
            s.roundsToTarget = k;
        }
    }
    return s;
}

std::size_t
ConsensusMetric::RoundsToTarget(const std::vector<IndexRound>& rounds, std::size_t cap) const
{
    if (rounds.empty())
    {
        throw std::invalid_argument("consensus metric: a schedule needs at least one round");
    }
    for (const auto& r : rounds)
    {
        Check(r);
    }
    if (m_n == 1)
    {
        return 0;
    }
    const double n = static_cast<double>(m_n);
    // D_k^T as in Mixing; ||D||_F / sqrt(n-1) <= ||D||_2 <= ||D||_F screens most rounds.
    Eigen::MatrixXd d = Eigen::MatrixXd::Identity(m_n, m_n);
    d.array() -= 1.0 / n;
    const double screen = m_target * std::sqrt(n - 1);
    for (std::size_t k = 1; k <= std::min(cap, m_maxRounds); ++k)
    {
        ApplyColumns(rounds[(k - 1) % rounds.size()], d);
        double frob = d.norm();
        if (frob <= m_target || (frob <= screen && TwoNorm(d) <= m_target))
        {
            return k;
        }
    }
    return ConsensusScore::kNever;
}

ConsensusScore
ConsensusMetric::WithTimes(ConsensusScore s, const std::vector<double>& roundTimes)
{
    if (roundTimes.empty())
    {
        throw std::invalid_argument("consensus metric: no round times");
    }
    s.periodS = 0;
    for (double t : roundTimes)
    {
        s.periodS += t;
    }
    if (s.exact)
    {
        s.rate = std::numeric_limits<double>::infinity();
    }
    else if (s.norm >= 1 - 1e-12)
    {
        s.rate = 0;
    }
    else
    {
        s.rate = -std::log(s.norm) / s.periodS;
    }
    if (s.roundsToTarget != ConsensusScore::kNever)
    {
        std::size_t p = roundTimes.size();
        std::size_t full = s.roundsToTarget / p;
        s.secondsToTarget = static_cast<double>(full) * s.periodS;
        for (std::size_t r = 0; r < s.roundsToTarget % p; ++r)
        {
            s.secondsToTarget += roundTimes[r];
        }
    }
    return s;
}

ConsensusScore
ConsensusMetric::Evaluate(const std::vector<IndexRound>& rounds,
                          const std::vector<double>& roundTimes) const
{
    if (roundTimes.size() != rounds.size())
    {
        throw std::invalid_argument("consensus metric: one round time per round is needed");
    }
    return WithTimes(Mixing(rounds), roundTimes);
}

bool
ConsensusMetric::Better(const ConsensusScore& a, std::size_t periodA, const ConsensusScore& b,
                        std::size_t periodB)
{
    bool sameRate =
        a.rate == b.rate || (std::isfinite(a.rate) && std::isfinite(b.rate) &&
                             std::abs(a.rate - b.rate) <= 1e-9 * std::max(a.rate, b.rate));
    if (!sameRate)
    {
        return a.rate > b.rate;
    }
    if (a.secondsToTarget != b.secondsToTarget)
    {
        return a.secondsToTarget < b.secondsToTarget;
    }
    return periodA < periodB;
}

std::vector<IndexRound>
ConsensusMetric::ToIndices(const Schedule& schedule, const std::vector<std::string>& islands)
{
    std::vector<IndexRound> out;
    for (const ScheduleRound& r : schedule.Rounds())
    {
        IndexRound round;
        for (const Clique& c : r.cliques)
        {
            std::vector<uint32_t> idx;
            for (const std::string& city : c)
            {
                auto it = std::find(islands.begin(), islands.end(), city);
                if (it == islands.end())
                {
                    throw InputError("schedule " + schedule.GetName(), 0, "city",
                                     "city '" + city + "' is not one of the islands");
                }
                idx.push_back(static_cast<uint32_t>(it - islands.begin()));
            }
            round.push_back(std::move(idx));
        }
        out.push_back(std::move(round));
    }
    return out;
}

} // namespace ns3
