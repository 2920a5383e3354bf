/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fixed-point.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

FixedPoint::FixedPoint(int fractionBits)
    : m_bits(fractionBits),
      m_scale(std::ldexp(1.0, fractionBits))
{
    if (fractionBits < 0 || fractionBits > 30)
    {
        throw std::invalid_argument("fixed point: fraction bits must be in [0, 30]");
    }
}

int
FixedPoint::FractionBits() const
{
    return m_bits;
}

double
FixedPoint::Scale() const
{
    return m_scale;
}

double
FixedPoint::QuantizationBound() const
{
    return 0.5 / m_scale;
}

int32_t
FixedPoint::Encode(double v, bool& overflow) const
{
    double q = std::nearbyint(v * m_scale);
    const double lo = std::numeric_limits<int32_t>::min();
    const double hi = std::numeric_limits<int32_t>::max();
    if (!(q >= lo) || !(q <= hi))
    {
        overflow = true;
        return std::isnan(q) ? 0 : (q < lo ? std::numeric_limits<int32_t>::min()
                                           : std::numeric_limits<int32_t>::max());
    }
    return static_cast<int32_t>(q);
}

double
FixedPoint::Decode(int64_t q) const
{
    return static_cast<double>(q) / m_scale;
}

bool
FixedPoint::AddChecked(int32_t& acc, int32_t v)
{
    int64_t s = static_cast<int64_t>(acc) + v;
    if (s < std::numeric_limits<int32_t>::min() || s > std::numeric_limits<int32_t>::max())
    {
        acc = s < 0 ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int32_t>::max();
        return false;
    }
    acc = static_cast<int32_t>(s);
    return true;
}

std::size_t
FixedPoint::EncodeAll(const std::vector<double>& in, std::vector<int32_t>& out) const
{
    out.resize(in.size());
    std::size_t overflows = 0;
    for (std::size_t i = 0; i < in.size(); ++i)
    {
        bool o = false;
        out[i] = Encode(in[i], o);
        overflows += o ? 1 : 0;
    }
    return overflows;
}

} // namespace ns3
