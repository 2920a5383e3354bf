/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_OPTION_SPEC_H
#define INTELLIGENT_NETWORK_OPTION_SPEC_H

#include "option-validator.h"

#include <string>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief One option of the programs: one line of ExperimentOptions' table. Pure C++.
 *
 *     {"computeTime", "Compute time of one local step, s", kFromAttribute,
 *      OptionValidator::Seconds(0, 1e6), "ns3::TrainingIsland::ComputeTime", "island"},
 *
 * `attribute` is the ns-3 attribute the option maps to: giving `--computeTime=0.05` or
 * `--ns3::TrainingIsland::ComputeTime=50ms` is the same setting. Empty: the option is its own
 * attribute, `ns3::ExperimentOptions::<Name>` (first letter capitalised). `group` says where
 * the option takes effect; a program exposes the groups it honours (ExperimentOptions::Use).
 */
struct OptionSpec
{
    /// Default meaning "the mapped attribute's own initial value" (one source of the default).
    static constexpr const char* kFromAttribute = "\x01attribute";

    std::string name;         ///< Command-line name: --name.
    std::string help;         ///< One sentence; the range and attribute are added to it.
    std::string defaultValue; ///< As typed on the command line, or kFromAttribute.
    OptionValidator check;    ///< Accepted values.
    std::string attribute;    ///< "ns3::Type::Attribute" it maps to; empty: its own attribute.
    std::string group;        ///< Where it takes effect (see ExperimentOptions' table).
};

} // namespace ns3

#endif
