/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_FIXED_POINT_H
#define INTELLIGENT_NETWORK_FIXED_POINT_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Fixed-point int32 encoding of model values for in-network aggregation (SwitchML style).
 *
 * A value v is sent as round(v * 2^f) in an int32 (f = FractionBits, default 16: resolution
 * 2^-16 ~ 1.5e-5, range +-32768). Switch/FPGA adders sum int32 lanes; a sum that leaves the
 * int32 range is an overflow, detected and reported (never silently wrapped). Error bounds:
 * encoding one value is off by at most 2^-(f+1); a sum of k encoded values is off by at most
 * k * 2^-(f+1) from the real sum, so an average of k values by at most 2^-(f+1).
 */
class FixedPoint
{
  public:
    explicit FixedPoint(int fractionBits = 16);

    int FractionBits() const;
    /// Scale 2^f.
    double Scale() const;
    /// Largest encoding error of one value: 2^-(f+1).
    double QuantizationBound() const;

    /// Encode \p v; sets \p overflow (and saturates) if it does not fit an int32.
    int32_t Encode(double v, bool& overflow) const;
    double Decode(int64_t q) const;
    /// acc += v in int32 arithmetic; on overflow acc saturates (INT32_MIN or INT32_MAX, as a
    /// fixed-point DSP does) and false is returned: the caller flags the sum as inexact.
    static bool AddChecked(int32_t& acc, int32_t v);

    /// Encode a vector; returns the number of values that overflowed.
    std::size_t EncodeAll(const std::vector<double>& in, std::vector<int32_t>& out) const;

  private:
    int m_bits;
    double m_scale;
};

} // namespace ns3

#endif
