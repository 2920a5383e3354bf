/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_OPTION_VALIDATOR_H
#define INTELLIGENT_NETWORK_OPTION_VALIDATOR_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief What values an option accepts, and how its text becomes a value. Pure C++.
 *
 * Every value given to a program (an option such as `--computeTime=0.05`, or the ns-3
 * attribute it maps to, `--ns3::TrainingIsland::ComputeTime=50ms`) is read here, at the
 * boundary, before anything is simulated: numbers must be finite decimal numbers ("nan",
 * "inf", "1e999", "abc" and "" are refused), integers must be whole numbers in range ("1.5",
 * "-1" refused; "1e6" is the integer 1000000), and every kind has a physical range:
 *
 * - rate: bit/s, 1 <= r < 1.8e19 (ns-3's DataRate is an integer number of bit/s: below 1 it
 *   becomes 0 and transmit times divide by zero; above 2^64 it overflows); optionally 0,
 *   meaning "keep the topology's";
 * - seconds: within [min, max] (max at most 1e6 s, so that sums over many rounds stay far
 *   inside ns-3's signed 64-bit nanosecond Time);
 * - integer, real: within [min, max] (real: max may be excluded, e.g. a loss rate < 1);
 * - flag: true/false/1/0/t/f; choice: one of a list; list: comma-separated items (optionally
 *   from a list); text: anything.
 *
 * Errors are std::invalid_argument whose message names the option as given (`what`, e.g.
 * "--linkRate" or "--ns3::PointToPointNetDevice::Mtu"), the value and the accepted range.
 * Values are JSON scalars: numbers (integers as unsigned), booleans, strings (lists are
 * canonical comma-joined strings).
 */
class OptionValidator
{
  public:
    enum class Kind
    {
        RATE,
        SECONDS,
        INTEGER,
        REAL,
        FLAG,
        CHOICE,
        TEXT,
        LIST
    };

    /// Largest rate: just below 2^64 bit/s (DataRate's uint64).
    static constexpr double kMaxRateBps = 1.8e19;
    /// Largest time any option accepts, seconds.
    static constexpr double kMaxSeconds = 1e6;

    /// A rate in bit/s, 1 .. 1.8e19; with \p zeroMeansKeep also 0 ("keep the topology's").
    static OptionValidator Rate(bool zeroMeansKeep = false);
    /// A duration in seconds within [min, max] (max <= kMaxSeconds).
    static OptionValidator Seconds(double min, double max);
    /// A whole number within [min, max].
    static OptionValidator Integer(uint64_t min, uint64_t max);
    /// A real number within [min, max], or [min, max) when \p maxExcluded.
    static OptionValidator Real(double min, double max, bool maxExcluded = false);
    static OptionValidator Flag();
    static OptionValidator Choice(const std::vector<std::string>& choices);
    /**
     * A choice among ns-3 TypeIds named \p typePrefix + choice (e.g. prefix "ns3::Tcp",
     * choices NewReno, Cubic: ns3::TcpNewReno, ns3::TcpCubic): the option is typed as the
     * short name, its TypeIdValue attribute holds the full one.
     */
    static OptionValidator TypeChoice(const std::string& typePrefix,
                                      const std::vector<std::string>& choices);
    static OptionValidator Text();
    /// Comma-separated items; with \p allowed non-empty, each item must be one of them.
    static OptionValidator List(const std::vector<std::string>& allowed = {});

    Kind GetKind() const;
    const std::vector<std::string>& Choices() const;

    /// The value of \p text typed for this option; throws std::invalid_argument naming \p what.
    nlohmann::json Parse(const std::string& what, const std::string& text) const;
    /**
     * The value of \p text written in the syntax of the ns-3 attribute value type
     * \p valueType ("ns3::TimeValue": "50ms", "1s", "+5e+07ns"; "ns3::DataRateValue":
     * "10Gbps", "1e9bps"; any other type: as Parse), checked against this option's range.
     */
    nlohmann::json ParseAttribute(const std::string& what, const std::string& text,
                                  const std::string& valueType) const;
    /// \p value written in the syntax of \p valueType (Time in ns, DataRate in bps).
    std::string ToAttributeText(const nlohmann::json& value, const std::string& valueType) const;
    /// \p value written as one types it on the command line ("0.05", "100000000", "true").
    static std::string ToText(const nlohmann::json& value);
    /// The accepted values, for help texts and errors ("0 .. 1e+06 s").
    std::string Range() const;
    /// Kind name for documentation: rate, seconds, integer, real, flag, choice, text, list.
    std::string KindName() const;

    /// A finite decimal number (std::invalid_argument naming \p what otherwise).
    static double ParseNumber(const std::string& what, const std::string& text);
    /// A whole number in [min, max] ("1e6" allowed, "1.5", "-1", "nan" refused).
    static uint64_t ParseInteger(const std::string& what, const std::string& text, uint64_t min,
                                 uint64_t max);
    /// A duration in ns-3's Time syntax (number and unit fs..d; no unit = s), in seconds.
    static double ParseTimeSeconds(const std::string& what, const std::string& text);
    /// A rate in ns-3's DataRate syntax ("10Gbps", "1.5MB/s"; no unit = bit/s), in bit/s.
    static double ParseRateBps(const std::string& what, const std::string& text);
    /// true/false/t/f/1/0 (any case).
    static bool ParseFlag(const std::string& what, const std::string& text);

  private:
    OptionValidator(Kind kind);
    void CheckRange(const std::string& what, const std::string& text, double v) const;
    [[noreturn]] void OutOfRange(const std::string& what, const std::string& text) const;

    Kind m_kind;
    double m_min = 0;
    double m_max = 0;
    bool m_maxExcluded = false;
    bool m_zeroAllowed = false;
    uint64_t m_intMin = 0;
    uint64_t m_intMax = 0;
    std::vector<std::string> m_choices;
    std::string m_typePrefix; ///< TypeChoice: attribute value = prefix + choice.
};

} // namespace ns3

#endif
