/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_LABEL_SKEW_H
#define INTELLIGENT_NETWORK_LABEL_SKEW_H

#include <Eigen/Dense>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace ns3
{

/// Which classes an island's Dirichlet shares go to (see LabelSkew).
enum class ClassPlacement
{
    /// Island k's i-th largest share goes to class (k + i) mod C: the islands' dominant
    /// classes differ, so together they cover the classes (an idealisation of coverage).
    ROTATED,
    /// The shares go to the classes as drawn: two islands may favour the same class, and a
    /// class may be (nearly) absent from every shard (the realistic counterpart).
    RANDOM
};

/**
 * \ingroup intelligent-network
 * \brief Label-skewed shards: every island's class proportions are a Dirichlet draw. Pure C++.
 *
 * Island k's class shares p_k = (p_k1 .. p_kC) ~ Dirichlet(alpha, ..., alpha) (Hsu et al.,
 * 2019): small alpha concentrates an island on a few classes (alpha -> 0: one class), alpha = 1
 * is uniform on the simplex, alpha -> infinity gives every class 1/C (iid shards; alpha =
 * +infinity is accepted and means exactly that). E[p_kc] = 1/C and
 * E[sum_c p_kc^2] = (alpha + 1) / (C alpha + 1) (ExpectedSquaredShare): 1 for one class per
 * island, 1/C for iid. Draws use Gamma variates in log space (for alpha < 1,
 * log G(alpha) = log G(alpha + 1) + log(U) / alpha), so tiny alphas neither underflow nor
 * divide by zero. ROTATED placement permutes each row (the share statistics above do not
 * change); RANDOM keeps it as drawn.
 */
class LabelSkew
{
  public:
    /// One Dirichlet(alpha 1_k) draw; \p alpha > 0 (or +infinity: all 1/k); \p k > 0.
    static std::vector<double> Dirichlet(std::size_t k, double alpha, std::mt19937_64& rng);
    /// Islands x classes matrix of shares (rows sum to 1), drawn from \p seed.
    static Eigen::MatrixXd Shares(std::size_t islands, std::size_t classes, double alpha,
                                  ClassPlacement placement, uint64_t seed);
    /// Integer counts summing to \p rows, proportional to \p shares (largest remainder;
    /// ties to the lower index). Throws std::invalid_argument on negative or all-zero shares.
    static std::vector<std::size_t> Counts(const Eigen::VectorXd& shares, std::size_t rows);
    /// E[sum_c p_c^2] of a Dirichlet(alpha 1_k) draw.
    static double ExpectedSquaredShare(std::size_t k, double alpha);
    /// Throws std::invalid_argument unless alpha > 0 (+infinity allowed).
    static void ValidateAlpha(double alpha);

    /// "rotated" | "random"; throws std::invalid_argument otherwise.
    static ClassPlacement ParsePlacement(const std::string& name);
    static std::string PlacementName(ClassPlacement placement);
};

} // namespace ns3

#endif
