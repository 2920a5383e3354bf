/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_EXPERIMENT_OPTIONS_H
#define INTELLIGENT_NETWORK_EXPERIMENT_OPTIONS_H

#include "ns3/cost-model.h"
#include "ns3/network-capabilities.h"
#include "ns3/network-graph.h"
#include "ns3/object-base.h"
#include "ns3/option-spec.h"
#include "ns3/results-database.h"
#include "ns3/schedule-optimizer.h"
#include "ns3/schedule.h"
#include "ns3/topology.h"

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

class ScenarioHelper;

/**
 * \ingroup intelligent-network
 * \brief The options of every program: one table, one set of defaults, each option an ns-3
 * attribute or mapped to exactly one, validated at the boundary and recorded with the run.
 *
 * The table (ExperimentOptions::Table(), helper/experiment-option-table.cc) declares every
 * option in one line: name, help, default, accepted values (OptionValidator) and the ns-3
 * attribute it maps to (or none: then the option is the attribute
 * `ns3::ExperimentOptions::<Name>` of this class). A program picks the groups of options it
 * honours (Use), then Parse()s its command line:
 *
 * - `--computeTime=0.05` and `--ns3::TrainingIsland::ComputeTime=50ms` are one setting:
 *   whichever form is given takes effect; both with different values are refused;
 * - every value is checked (finite, in its physical range, integers whole) and cross-checked
 *   (segment and MTU, segment count, slots), and any other ns-3 attribute or global given on
 *   the command line is checked the same way (type, finiteness, range) and applied with
 *   Config::SetDefault; an option or attribute the program would ignore is refused;
 * - bad input prints `<program>: error: <flag>=<value>: <reason> (accepted: <range>)` and
 *   exits with status 2 before anything is simulated.
 *
 * The options then feed everything: the fluid model (ToCostParameters, ToGraphOptions,
 * ToCapabilities), the ns-3 scenario (Configure; mapped attributes through their defaults),
 * and the results database (ParametersJson: every option, every attribute of the module's
 * own TypeIds, every attribute and global the user set). After ScenarioHelper::Build(),
 * CheckAttributesApplied() verifies that every attribute given on the command line holds on
 * every object of its type, so that no program silently overrides one.
 *
 * Exit status of every program: 0 complete, 1 incomplete run, 2 bad input (ExitStatus).
 */
class ExperimentOptions : public ObjectBase
{
  public:
    /// The exit status convention of every program of the module.
    enum ExitStatus
    {
        EXIT_COMPLETE = 0,   ///< Every run complete (or nothing to run).
        EXIT_INCOMPLETE = 1, ///< A simulation did not complete (see runs.error).
        EXIT_BAD_INPUT = 2   ///< Bad input: options, attributes, files; nothing simulated.
    };

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    /// The event scheduler of every simulating program unless --SchedulerType or
    /// NS_GLOBAL_VALUE=SchedulerType=... names another (ns-3's own default is MapScheduler).
    static constexpr const char* DEFAULT_SCHEDULER = "ns3::PriorityQueueScheduler";

    /// Every option of every program, in declaration order.
    static const std::vector<OptionSpec>& Table();
    /// The table as a reStructuredText list-table (doc/options-table.rst).
    static std::string RstTable();

    /**
     * \param program name used in messages and recorded in the database
     * \param groups option groups the program honours (see the table)
     */
    ExperimentOptions(const std::string& program, const std::vector<std::string>& groups);

    /// Expose every option of \p group too.
    void Use(const std::string& group);
    /// Expose one more option (by name).
    void Add(const std::string& name);
    /// Do not expose \p name (it would have no effect in this program).
    void Drop(const std::string& name);
    /// A program that runs no packet-level simulation refuses ns-3 attributes and globals
    /// other than those its options map to (they would have no effect). Default: true.
    void SetSimulates(bool simulates);
    /// Text printed by --PrintHelp before the options.
    void SetUsage(const std::string& usage);

    /**
     * Read the command line. --PrintHelp and ns-3's other --Print* options print and exit 0;
     * --PrintOptionsRst prints the options table and exits 0; bad input prints a message
     * naming the flag and exits EXIT_BAD_INPUT.
     */
    void Parse(int argc, char* argv[]);
    /**
     * The entries of NS_ATTRIBUTE_DEFAULT (\p env, may be null) as attribute arguments
     * (--Type::Attribute=value), which Parse() puts before the command line: ns-3 applies them
     * at construction over every default, so they are validated and recorded like the command
     * line's. Throws std::invalid_argument on a malformed entry or one that the command line
     * \p args gives a different value.
     */
    static std::vector<std::string> EnvironmentArguments(const char* env,
                                                         const std::vector<std::string>& args);
    /**
     * The entries of NS_GLOBAL_VALUE (\p env, may be null; Name=value separated by ';') as
     * global arguments (--Name=value), which Parse() puts first: ns-3 took them when it
     * started, silently where it could not use them (an unknown name ignored, a scheduler
     * that is no scheduler replaced), so they are checked, applied and recorded as the
     * command line's globals are (a command-line value for the same global wins, as in ns-3).
     * Throws std::invalid_argument naming the entry: malformed, not a global, or a value the
     * command line would refuse.
     */
    static std::vector<std::string> EnvironmentGlobals(const char* env);
    /**
     * Throws std::invalid_argument if an output file (option, path) is one of the \p inputs
     * (it would be overwritten before or while it is read) or another output (one would be
     * lost): paths compared after resolving '..', links and the working directory; an empty
     * path (an option not given) is none.
     */
    static void CheckOutputFiles(const std::vector<std::pair<std::string, std::string>>& outputs,
                                 const std::vector<std::pair<std::string, std::string>>& inputs);
    /// Throws std::invalid_argument naming \p what if \p dir is not a directory in which a
    /// file can be made (tried: access() says yes to root everywhere, /proc included).
    static void CheckWritableDirectory(const std::string& what, const std::string& dir);
    /// Throws std::invalid_argument if NS_LOG (\p env, may be null) names a component that
    /// does not exist.
    static void CheckLogEnvironment(const char* env);
    /// Parse without exiting: throws std::invalid_argument on bad input (tests).
    void ParseArguments(const std::vector<std::string>& args);

    /// True if the program exposes \p name.
    bool Has(const std::string& name) const;
    /// True if the user gave \p name (either form).
    bool WasGiven(const std::string& name) const;
    double GetDouble(const std::string& name) const;
    uint64_t GetInteger(const std::string& name) const;
    bool GetFlag(const std::string& name) const;
    std::string GetText(const std::string& name) const;
    std::vector<std::string> GetList(const std::string& name) const;
    /// The value as a JSON scalar.
    const nlohmann::json& Get(const std::string& name) const;

    /// Graph knobs: linkRate, accessRate, publicRate (0 = the topology's / the edge's).
    NetworkGraphOptions ToGraphOptions() const;
    /// Fluid-model parameters: modelBytes, segmentSize, computeTime, localSteps, overlap.
    CostParameters ToCostParameters() const;
    /// Capabilities: mode, FPGA rate/latency/devices (checked against \p topology), slots.
    NetworkCapabilities ToCapabilities(const Topology& topology) const;
    /// The topology: --synthetic, a .graphml file (Topology Zoo), our format or a DoubleZero
    /// sample directory.
    Topology LoadTopology() const;
    /// --schedule (a file or a shipped name); when empty, the optimizer's best schedule for
    /// the topology's islands (or --islands), mode, model and compute (OptimizedSchedule).
    Schedule LoadSchedule(const Topology& topology) const;
    /**
     * The optimizer's best schedule over the fluid CostModel of these options (the one call
     * into the optimizer for programs that need a default schedule). Its name is
     * "optimized-<8 hex digits of its cliques>" so that distinct schedules are told apart.
     */
    Schedule OptimizedSchedule(const Topology& topology) const;
    /// The optimizer's islands: --islands, else every city; checked against \p topology
    /// (known, listed once, at least two, connected in \p graph).
    std::vector<std::string> OptimizerIslands(const Topology& topology,
                                              const NetworkGraph& graph) const;
    /// period, seed, iterations and the objective (--objective, --disagreementWeight) for
    /// \p islands islands; throws std::invalid_argument for an unknown objective.
    OptimizerOptions ToOptimizerOptions(std::size_t islands) const;
    /// "optimized-<8 hex digits>" from the cliques of \p schedule (same cliques, same name).
    static std::string OptimizedName(const Schedule& schedule);
    /// Give the scenario the topology, schedule, graph options, capabilities, rounds, MTU,
    /// loss, barrier and rate control of these options.
    void Configure(ScenarioHelper& scenario, const Topology& topology,
                   const Schedule& schedule) const;
    /**
     * After the scenario is built: every attribute given on the command line (and every
     * mapped option's attribute) holds on every existing object of its type (reached from
     * the NodeList and ChannelList). Throws std::invalid_argument naming the attribute, the
     * value found and the option to use instead when the program overrode it.
     */
    void CheckAttributesApplied() const;

    /// Every effective setting as a JSON object (runs.parameters).
    std::string ParametersJson() const;
    /// The runs row of this run (program, mode, seeds, model, rounds, parameters).
    RunRecord MakeRunRecord(const std::string& topologyName, const std::string& scheduleName) const;
    /// Print "<program>: error: <what>" to stderr and return EXIT_BAD_INPUT.
    int Fail(const std::exception& error) const;
    const std::string& GetProgram() const;

  private:
    struct Exposed
    {
        const OptionSpec* spec;
        std::string attribute; ///< Full attribute path (own or mapped).
        std::string valueType; ///< ns-3 value type of the attribute ("ns3::TimeValue").
        nlohmann::json value;  ///< Effective value.
        bool given = false;
    };

    friend class ExperimentOptionAccessor;
    static std::string OwnAttributeName(const std::string& option);
    const Exposed& Find(const std::string& name) const;
    void Expose(const OptionSpec& spec);
    nlohmann::json DefaultOf(const OptionSpec& spec, const std::string& attribute) const;
    void ApplyAttribute(const std::string& name, const std::string& value);
    void ApplyGlobal(const std::string& name, const std::string& value);
    void CrossCheck() const;
    void PrintHelp(const std::vector<std::string>& hardArgs) const;

    std::string m_program;
    std::string m_usage;
    bool m_simulates = true;
    std::vector<std::string> m_order;         ///< Exposed option names, table order.
    std::map<std::string, Exposed> m_exposed; ///< By option name.
    std::map<std::string, std::string> m_own; ///< Own attribute values (attribute storage).
    std::map<std::string, std::string> m_userAttributes; ///< Other attributes given, canonical.
    std::map<std::string, std::string> m_userGlobals;    ///< Globals given.
};

} // namespace ns3

#endif
