/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "experiment-options.h"

#include "huge-page-heap.h"

#include "scenario-helper.h"

#include "ns3/channel-list.h"
#include "ns3/channel.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/consensus-objective.h"
#include "ns3/data-directory.h"
#include "ns3/global-value.h"
#include "ns3/graphml-topology-reader.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/object-factory.h"
#include "ns3/object-ptr-container.h"
#include "ns3/pointer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/route-planner.h"
#include "ns3/schedule-optimizer.h"
#include "ns3/scheduler.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/synthetic-topology.h"
#include "ns3/tcp-socket.h"
#include "ns3/tcp-transport.h"
#include "ns3/text-util.h"
#include "ns3/topology-reader.h"
#include "ns3/training-time-objective.h"
#include "ns3/wire-format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ExperimentOptions");
NS_OBJECT_ENSURE_REGISTERED(ExperimentOptions);

/// Stores the options that are their own attribute (ns3::ExperimentOptions::<Name>) as text.
class ExperimentOptionAccessor : public AttributeAccessor
{
  public:
    explicit ExperimentOptionAccessor(const std::string& attribute)
        : m_attribute(attribute)
    {
    }

    bool Set(ObjectBase* object, const AttributeValue& value) const override
    {
        auto* options = dynamic_cast<ExperimentOptions*>(object);
        const auto* text = dynamic_cast<const StringValue*>(&value);
        if (options == nullptr || text == nullptr)
        {
            return false;
        }
        options->m_own[m_attribute] = text->Get();
        return true;
    }

    bool Get(const ObjectBase* object, AttributeValue& value) const override
    {
        const auto* options = dynamic_cast<const ExperimentOptions*>(object);
        auto* text = dynamic_cast<StringValue*>(&value);
        if (options == nullptr || text == nullptr)
        {
            return false;
        }
        auto it = options->m_own.find(m_attribute);
        text->Set(it == options->m_own.end() ? "" : it->second);
        return true;
    }

    bool HasGetter() const override
    {
        return true;
    }

    bool HasSetter() const override
    {
        return true;
    }

  private:
    std::string m_attribute;
};

namespace
{
/// Whether NS_GLOBAL_VALUE (read by ns-3 when it starts) sets the event scheduler.
bool
SchedulerFromEnvironment()
{
    const char* env = std::getenv("NS_GLOBAL_VALUE");
    if (env == nullptr)
    {
        return false;
    }
    std::string text = std::string(";") + env;
    return text.find(";SchedulerType=") != std::string::npos;
}

/// The event scheduler new simulators get: ns-3's SchedulerType global.
std::string
SchedulerInEffect()
{
    StringValue scheduler;
    GlobalValue::GetValueByName("SchedulerType", scheduler);
    return scheduler.Get();
}

const char* const kHardOptions[] = {"PrintHelp",    "help",         "PrintVersion",
                                    "version",      "PrintGroups",  "PrintGroup",
                                    "PrintTypeIds", "PrintGlobals", "PrintAttributes"};

/// Groups whose options say where results go, not what is simulated: not recorded.
bool
Recorded(const OptionSpec& spec)
{
    return spec.group != "output" && spec.group != "trace" && spec.group != "report";
}

std::pair<std::string, std::string>
SplitAttributePath(const std::string& path)
{
    auto colon = path.rfind("::");
    if (colon == std::string::npos || colon == 0)
    {
        return {"", path};
    }
    return {path.substr(0, colon), path.substr(colon + 2)};
}

/// The TypeId and attribute information of "ns3::Type::Attribute"; false if either is unknown.
bool
LookupAttribute(const std::string& path, TypeId* tid, TypeId::AttributeInformation* info)
{
    auto [type, attribute] = SplitAttributePath(path);
    return !type.empty() && TypeId::LookupByNameFailSafe(type, tid) &&
           tid->LookupAttributeByName(attribute, info);
}

/// The value type of \p checker with its namespace ("ns3::DataRateValue"; ns-3's simple
/// checkers give "DataRateValue", others "ns3::TimeValue").
std::string
ValueType(Ptr<const AttributeChecker> checker)
{
    std::string t = checker->GetValueTypeName();
    return t.rfind("ns3::", 0) == 0 ? t : "ns3::" + t;
}

/// The simulator implementations a program can run here (ns-3's distributed ones need MPI, the
/// visualizer needs Python bindings; Debian's ns-3 has neither).
const char* const kSimulatorImplementations[] = {"ns3::DefaultSimulatorImpl",
                                                 "ns3::RealtimeSimulatorImpl"};

/// \p value of ns-3's global \p name in the form ns-3 will take, or std::invalid_argument
/// naming \p what ("--Name" or the environment entry): not a global, not a value of its type,
/// a count beyond 64 bits, or (the TypeId globals, whose checker accepts any type) a type that
/// is no event scheduler or no simulator implementation this build can run.
std::string
CanonicalGlobal(const std::string& what, const std::string& name, const std::string& value)
{
    for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
    {
        if ((*g)->GetName() != name)
        {
            continue;
        }
        std::string canonical = value;
        Ptr<const AttributeChecker> checker = (*g)->GetChecker();
        if (ValueType(checker) == "ns3::UintegerValue")
        {
            canonical = std::to_string(OptionValidator::ParseInteger(
                what, value, name == "RngSeed" ? 1 : 0, std::numeric_limits<uint64_t>::max()));
        }
        if (!checker->CreateValidValue(StringValue(canonical)))
        {
            throw std::invalid_argument(what + "=" + value + ": out of range (accepted: " +
                                        checker->GetUnderlyingTypeInformation() + ")");
        }
        if (name == "SchedulerType")
        {
            TypeId tid;
            if (!TypeId::LookupByNameFailSafe(canonical, &tid) ||
                !tid.IsChildOf(Scheduler::GetTypeId()) || !tid.HasConstructor())
            {
                throw std::invalid_argument(
                    what + "=" + value + ": not an event scheduler (ns3::PriorityQueueScheduler, "
                           "ns3::MapScheduler, ns3::HeapScheduler, ns3::ListScheduler, "
                           "ns3::CalendarScheduler)");
            }
        }
        if (name == "SimulatorImplementationType" &&
            std::find(std::begin(kSimulatorImplementations), std::end(kSimulatorImplementations),
                      canonical) == std::end(kSimulatorImplementations))
        {
            throw std::invalid_argument(what + "=" + value +
                                        ": not a simulator implementation these programs run "
                                        "(ns3::DefaultSimulatorImpl, ns3::RealtimeSimulatorImpl)");
        }
        return canonical;
    }
    throw std::invalid_argument(what + ": not an ns-3 global (--PrintGlobals lists them)");
}

bool
SameValue(const nlohmann::json& a, const nlohmann::json& b)
{
    if (a.is_number() && b.is_number())
    {
        double x = a.get<double>();
        double y = b.get<double>();
        return std::fabs(x - y) <= 1e-12 * std::max(std::fabs(x), std::fabs(y));
    }
    return a == b;
}

/// Attributes the scenario sets itself from another setting: where to set them instead.
const std::map<std::string, std::string>&
SetByTheScenario()
{
    static const std::map<std::string, std::string> hints{
        {"ns3::TrainingIsland::AggregationSlots", "--slots"},
        {"ns3::TrainingIsland::AggregatorTimeout", "--aggTimeout"},
        {"ns3::TrainingIsland::IslandId", "nothing: one per island"},
        {"ns3::FpgaAggregator::Tag", "nothing: one per FPGA"},
        {"ns3::PointToPointNetDevice::DataRate",
         "--linkRate, --accessRate, --publicRate or the topology file"},
        {"ns3::PointToPointChannel::Delay", "the topology file"},
        {"ns3::DropTailQueue<Packet>::MaxSize", "--queueSize (and --deviceQueue under a --queueDisc)"},
        {"ns3::RateErrorModel::ErrorRate", "--lossRate"}};
    return hints;
}

bool
AcceptAnything(std::string)
{
    return true;
}

/// The attributes of a TypeId (its own and its parents') that hold objects: Pointer
/// attributes (false) and ObjectVector/ObjectMap attributes (true), with a getter.
using ObjectAttributes = std::vector<std::pair<std::string, bool>>;

const ObjectAttributes&
ObjectAttributesOf(TypeId instance, std::unordered_map<uint16_t, ObjectAttributes>& cache)
{
    auto [it, added] = cache.try_emplace(instance.GetUid());
    if (!added)
    {
        return it->second;
    }
    for (TypeId tid = instance;; tid = tid.GetParent())
    {
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            TypeId::AttributeInformation info = tid.GetAttribute(i);
            if (!(info.flags & TypeId::ATTR_GET) || !info.accessor->HasGetter())
            {
                continue;
            }
            if (dynamic_cast<const PointerChecker*>(PeekPointer(info.checker)))
            {
                it->second.emplace_back(info.name, false);
            }
            else if (dynamic_cast<const ObjectPtrContainerChecker*>(PeekPointer(info.checker)))
            {
                it->second.emplace_back(info.name, true);
            }
        }
        if (tid == tid.GetParent())
        {
            break;
        }
    }
    return it->second;
}

/// Every object reachable from the node and channel lists: aggregates, and objects held by
/// Pointer and ObjectVector/ObjectMap attributes (which attributes those are is looked up once
/// per TypeId: a network of many nodes has many objects of few types).
void
CollectObjects(Ptr<Object> object,
               std::unordered_set<const Object*>& seen,
               std::unordered_map<uint16_t, ObjectAttributes>& attributes,
               std::vector<Ptr<Object>>& out)
{
    if (!object || !seen.insert(PeekPointer(object)).second)
    {
        return;
    }
    out.push_back(object);
    Object::AggregateIterator aggregates = object->GetAggregateIterator();
    while (aggregates.HasNext())
    {
        CollectObjects(ConstCast<Object>(aggregates.Next()), seen, attributes, out);
    }
    // A reference stays valid while the recursion adds TypeIds (unordered_map elements do not
    // move on rehash).
    const ObjectAttributes& held = ObjectAttributesOf(object->GetInstanceTypeId(), attributes);
    for (const auto& [name, container] : held)
    {
        if (!container)
        {
            PointerValue p;
            if (object->GetAttributeFailSafe(name, p))
            {
                CollectObjects(p.Get<Object>(), seen, attributes, out);
            }
        }
        else
        {
            ObjectPtrContainerValue v;
            if (object->GetAttributeFailSafe(name, v))
            {
                for (auto it = v.Begin(); it != v.End(); ++it)
                {
                    CollectObjects(it->second, seen, attributes, out);
                }
            }
        }
    }
}

std::string
SchedulePath(const std::string& s)
{
    if (s.find('/') != std::string::npos || s.find(".json") != std::string::npos)
    {
        return s;
    }
    return IntelligentNetworkDataDir() + "/schedules/" + s + ".json";
}

/// An argument without its leading "--" or "-" (what follows is name=value).
std::string
ArgumentBody(const std::string& arg)
{
    return arg.substr(arg.rfind("--", 0) == 0 ? 2 : arg.rfind('-', 0) == 0);
}

} // namespace

TypeId
ExperimentOptions::GetTypeId()
{
    static TypeId tid = [] {
        TypeId t = TypeId("ns3::ExperimentOptions")
                       .SetParent<ObjectBase>()
                       .SetGroupName("IntelligentNetwork");
        for (const OptionSpec& spec : Table())
        {
            if (spec.attribute.empty())
            {
                std::string name = OwnAttributeName(spec.name);
                t.AddAttribute(
                    name, spec.help + " (option --" + spec.name + "; " + spec.check.Range() + ")",
                    StringValue(spec.defaultValue),
                    Ptr<const AttributeAccessor>(Create<ExperimentOptionAccessor>(name)),
                    MakeStringChecker());
            }
        }
        return t;
    }();
    return tid;
}

TypeId
ExperimentOptions::GetInstanceTypeId() const
{
    return GetTypeId();
}

std::string
ExperimentOptions::OwnAttributeName(const std::string& option)
{
    std::string name = option;
    if (!name.empty())
    {
        name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
    }
    return name;
}

ExperimentOptions::ExperimentOptions(const std::string& program,
                                     const std::vector<std::string>& groups)
    : m_program(program)
{
    ConstructSelf(AttributeConstructionList());
    for (const auto& g : groups)
    {
        Use(g);
    }
    Use("simulator"); // a program simulates packets unless SetSimulates(false)
}

void
ExperimentOptions::Expose(const OptionSpec& spec)
{
    if (m_exposed.count(spec.name))
    {
        return;
    }
    Exposed e;
    e.spec = &spec;
    if (spec.attribute.empty())
    {
        e.attribute = "ns3::ExperimentOptions::" + OwnAttributeName(spec.name);
        e.valueType = "ns3::StringValue";
    }
    else
    {
        TypeId tid;
        TypeId::AttributeInformation info;
        if (!LookupAttribute(spec.attribute, &tid, &info))
        {
            throw std::logic_error("option --" + spec.name + ": no attribute " + spec.attribute);
        }
        e.attribute = spec.attribute;
        e.valueType = ValueType(info.checker);
    }
    e.value = DefaultOf(spec, e.attribute);
    m_exposed[spec.name] = e;
    m_order.clear();
    for (const OptionSpec& s : Table())
    {
        if (m_exposed.count(s.name))
        {
            m_order.push_back(s.name);
        }
    }
}

nlohmann::json
ExperimentOptions::DefaultOf(const OptionSpec& spec, const std::string& attribute) const
{
    std::string what = "default of --" + spec.name;
    if (spec.defaultValue == OptionSpec::kFromAttribute)
    {
        TypeId tid;
        TypeId::AttributeInformation info;
        LookupAttribute(attribute, &tid, &info);
        return spec.check.ParseAttribute(what, info.initialValue->SerializeToString(info.checker),
                                         ValueType(info.checker));
    }
    if (spec.attribute.empty())
    {
        // The attribute's current value: the table's default unless a script changed it with
        // Config::SetDefault("ns3::ExperimentOptions::<Name>", ...).
        return spec.check.Parse(what, m_own.at(OwnAttributeName(spec.name)));
    }
    return spec.check.Parse(what, spec.defaultValue);
}

void
ExperimentOptions::Use(const std::string& group)
{
    bool found = false;
    for (const OptionSpec& spec : Table())
    {
        if (spec.group == group)
        {
            Expose(spec);
            found = true;
        }
    }
    if (!found)
    {
        throw std::logic_error("ExperimentOptions: no option group '" + group + "'");
    }
}

void
ExperimentOptions::Add(const std::string& name)
{
    for (const OptionSpec& spec : Table())
    {
        if (spec.name == name)
        {
            Expose(spec);
            return;
        }
    }
    throw std::logic_error("ExperimentOptions: no option '" + name + "'");
}

void
ExperimentOptions::Drop(const std::string& name)
{
    m_exposed.erase(name);
    m_order.erase(std::remove(m_order.begin(), m_order.end(), name), m_order.end());
}

void
ExperimentOptions::SetSimulates(bool simulates)
{
    m_simulates = simulates;
    if (simulates)
    {
        Use("simulator");
        return;
    }
    for (const OptionSpec& spec : Table())
    {
        if (spec.group == "simulator")
        {
            Drop(spec.name);
        }
    }
}

void
ExperimentOptions::SetUsage(const std::string& usage)
{
    m_usage = usage;
}

const std::string&
ExperimentOptions::GetProgram() const
{
    return m_program;
}

std::vector<std::string>
ExperimentOptions::EnvironmentArguments(const char* env, const std::vector<std::string>& args)
{
    // ns-3 applies NS_ATTRIBUTE_DEFAULT (entries Type::Attribute=value separated by ';') when an
    // object is constructed, over Config::SetDefault, so over every option: read here, each
    // entry is one more attribute argument, validated, applied and recorded like the command
    // line's; a command-line value for the same attribute would be overridden at construction,
    // so a different one is refused.
    std::vector<std::string> out;
    for (const std::string& entry : TextUtil::Split(env ? env : "", ';'))
    {
        if (entry.empty())
        {
            continue;
        }
        auto eq = entry.find('=');
        if (eq == std::string::npos || entry.find("::") == std::string::npos || eq == 0)
        {
            throw std::invalid_argument("NS_ATTRIBUTE_DEFAULT: entry '" + entry +
                                        "' is not ns3::Type::Attribute=value (entries are "
                                        "separated by ';')");
        }
        std::string path = entry.substr(0, eq);
        std::string value = entry.substr(eq + 1);
        for (const std::string& arg : args)
        {
            std::string body = ArgumentBody(arg);
            auto aeq = body.find('=');
            if (body.substr(0, aeq) == path && aeq != std::string::npos &&
                body.substr(aeq + 1) != value)
            {
                throw std::invalid_argument(
                    arg + " and NS_ATTRIBUTE_DEFAULT entry " + entry +
                    " are the same setting with different values (ns-3 would apply the "
                    "environment's at construction): give one");
            }
        }
        out.push_back("--" + entry);
    }
    return out;
}

std::vector<std::string>
ExperimentOptions::EnvironmentGlobals(const char* env)
{
    std::vector<std::string> out;
    for (const std::string& entry : TextUtil::Split(env ? env : "", ';'))
    {
        if (entry.empty())
        {
            continue;
        }
        auto eq = entry.find('=');
        if (eq == std::string::npos || eq == 0)
        {
            throw std::invalid_argument("NS_GLOBAL_VALUE: entry '" + entry +
                                        "' is not Name=value (entries are separated by ';')");
        }
        std::string name = entry.substr(0, eq);
        CanonicalGlobal("NS_GLOBAL_VALUE entry " + name, name, entry.substr(eq + 1));
        out.push_back("--" + entry);
    }
    return out;
}

void
ExperimentOptions::CheckOutputFiles(const std::vector<std::pair<std::string, std::string>>& outputs,
                                    const std::vector<std::pair<std::string, std::string>>& inputs)
{
    auto same = [](const std::string& a, const std::string& b) {
        std::error_code ea;
        std::error_code eb;
        auto ca = std::filesystem::weakly_canonical(a, ea);
        auto cb = std::filesystem::weakly_canonical(b, eb);
        return !a.empty() && !b.empty() && !ea && !eb && ca == cb;
    };
    for (std::size_t i = 0; i < outputs.size(); ++i)
    {
        const auto& [option, path] = outputs[i];
        for (const auto& [inputOption, input] : inputs)
        {
            if (same(path, input))
            {
                throw std::invalid_argument("--" + option + "=" + path + " would overwrite the " +
                                            "file it reads (--" + inputOption + "=" + input + ")");
            }
        }
        for (std::size_t j = 0; j < i; ++j)
        {
            if (same(path, outputs[j].second))
            {
                throw std::invalid_argument("--" + outputs[j].first + "=" + outputs[j].second +
                                            " and --" + option + "=" + path +
                                            " name the same file");
            }
        }
    }
}

void
ExperimentOptions::CheckWritableDirectory(const std::string& what, const std::string& dir)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
    {
        throw std::invalid_argument(what + "=" + dir + ": not a directory");
    }
    std::string probe = dir + "/.write-probe-XXXXXX";
    int fd = mkstemp(probe.data());
    if (fd < 0)
    {
        throw std::invalid_argument(what + "=" + dir + ": the directory is not writable");
    }
    close(fd);
    unlink(probe.c_str());
}

void
ExperimentOptions::CheckLogEnvironment(const char* env)
{
    // NS_LOG="Component=level|level:Component=...": ns-3 aborts on an unknown component (when
    // the simulator is created), or ignores it (programs that create none).
    for (const std::string& entry : TextUtil::Split(env ? env : "", ':'))
    {
        std::string name = entry.substr(0, entry.find('='));
        if (name.empty() || name == "*" || name == "**" || name == "***" ||
            name == "print-list" || LogComponent::GetComponentList()->count(name))
        {
            continue;
        }
        throw std::invalid_argument("NS_LOG: '" + name +
                                    "' is not a log component (NS_LOG=print-list lists them)");
    }
}

void
ExperimentOptions::Parse(int argc, char* argv[])
{
    std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
    try
    {
        CheckLogEnvironment(std::getenv("NS_LOG"));
        const char* globals = std::getenv("NS_GLOBAL_VALUE");
        std::vector<std::string> all = EnvironmentGlobals(globals);
        if (!all.empty() && !m_simulates)
        {
            throw std::invalid_argument("NS_GLOBAL_VALUE=" + std::string(globals) +
                                        " would have no effect: " + m_program +
                                        " runs no ns-3 simulation (unset it)");
        }
        std::vector<std::string> attributes =
            EnvironmentArguments(std::getenv("NS_ATTRIBUTE_DEFAULT"), args);
        all.insert(all.end(), attributes.begin(), attributes.end());
        all.insert(all.end(), args.begin(), args.end());
        ParseArguments(all);
    }
    catch (const std::exception& e)
    {
        std::exit(Fail(e));
    }
}

void
ExperimentOptions::ParseArguments(const std::vector<std::string>& args)
{
    std::map<std::string, std::string> optionText;
    std::map<std::string, std::pair<std::string, std::string>>
        attributeText; // option -> (path, text)
    std::vector<std::pair<std::string, std::string>> attributes;
    std::vector<std::pair<std::string, std::string>> globals;
    std::vector<std::string> hard;
    // The same form given twice: the last value counts, as with ns-3's CommandLine (wrapper
    // scripts append overrides); an option and its attribute must agree (checked below).
    auto record = [](auto& map, const std::string& key, const auto& value, const std::string&) {
        map[key] = value;
    };
    // ns-3's --Print* options (and --help) print and exit first, whatever else is given.
    for (const std::string& arg : args)
    {
        std::string name = ArgumentBody(arg);
        name = name.substr(0, name.find('='));
        if (std::find(std::begin(kHardOptions), std::end(kHardOptions), name) !=
            std::end(kHardOptions))
        {
            // ns-3 aborts on a type it does not know.
            std::string body = ArgumentBody(arg);
            auto eq = body.find('=');
            TypeId tid;
            if (name == "PrintAttributes" &&
                (eq == std::string::npos ||
                 !TypeId::LookupByNameFailSafe(body.substr(eq + 1), &tid)))
            {
                throw std::invalid_argument(
                    arg + ": --PrintAttributes=ns3::Type needs a type (--PrintTypeIds lists them)");
            }
            hard.push_back(arg);
        }
    }
    if (!hard.empty())
    {
        PrintHelp(hard);
    }
    for (const std::string& arg : args)
    {
        if (arg == "--PrintOptionsRst")
        {
            std::cout << RstTable();
            std::exit(EXIT_COMPLETE);
        }
        if (arg.empty() || arg[0] != '-')
        {
            throw std::invalid_argument("unexpected argument '" + arg +
                                        "' (options are written --name=value)");
        }
        std::string body = ArgumentBody(arg); // arg starts with - (checked above)
        auto eq = body.find('=');
        std::string name = body.substr(0, eq);
        bool hasValue = eq != std::string::npos;
        std::string value = hasValue ? body.substr(eq + 1) : "";
        auto exposed = m_exposed.find(name);
        if (exposed != m_exposed.end())
        {
            if (!hasValue)
            {
                if (exposed->second.spec->check.GetKind() != OptionValidator::Kind::FLAG)
                {
                    throw std::invalid_argument("--" + name + " needs a value (--" + name +
                                                "=...)");
                }
                value = "true";
            }
            record(optionText, name, value, "--" + name);
            continue;
        }
        if (name.find("::") != std::string::npos)
        {
            if (!hasValue)
            {
                throw std::invalid_argument("--" + name + " needs a value (--" + name + "=...)");
            }
            std::string option;
            for (const auto& [n, e] : m_exposed)
            {
                option = e.attribute == name ? n : option;
            }
            if (!option.empty())
            {
                record(attributeText, option, std::make_pair(name, value), "--" + name);
                continue;
            }
            for (const OptionSpec& spec : Table())
            {
                if (spec.attribute == name ||
                    (spec.attribute.empty() &&
                     name == "ns3::ExperimentOptions::" + OwnAttributeName(spec.name)))
                {
                    throw std::invalid_argument(
                        "--" + name + " would have no effect in " + m_program +
                        ": it is the setting of option --" + spec.name +
                        ", which this program does not use (--PrintHelp lists its options)");
                }
            }
            attributes.emplace_back(name, value);
            continue;
        }
        bool global = false;
        for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
        {
            global = global || (*g)->GetName() == name;
        }
        if (global)
        {
            if (!hasValue)
            {
                throw std::invalid_argument("--" + name + " needs a value (--" + name + "=...)");
            }
            globals.emplace_back(name, value);
            continue;
        }
        for (const OptionSpec& spec : Table())
        {
            if (spec.name == name)
            {
                throw std::invalid_argument("--" + name + " is not an option of " + m_program +
                                            ": it would have no effect here (--PrintHelp lists "
                                            "the options)");
            }
        }
        throw std::invalid_argument("unknown option --" + name +
                                    " (--PrintHelp lists the options)");
    }
    for (const auto& [name, value] : attributes)
    {
        ApplyAttribute(name, value);
    }
    for (const auto& [name, value] : globals)
    {
        ApplyGlobal(name, value);
    }
    for (const std::string& name : m_order)
    {
        Exposed& e = m_exposed.at(name);
        std::optional<nlohmann::json> fromOption;
        std::optional<nlohmann::json> fromAttribute;
        auto o = optionText.find(name);
        if (o != optionText.end())
        {
            fromOption = e.spec->check.Parse("--" + name, o->second);
        }
        auto a = attributeText.find(name);
        if (a != attributeText.end())
        {
            fromAttribute =
                e.spec->check.ParseAttribute("--" + a->second.first, a->second.second, e.valueType);
        }
        if (fromOption && fromAttribute && !SameValue(*fromOption, *fromAttribute))
        {
            throw std::invalid_argument("--" + name + "=" + o->second + " and --" +
                                        a->second.first + "=" + a->second.second +
                                        " are the same setting with different values: give one");
        }
        e.given = fromOption || fromAttribute;
        if (e.given)
        {
            e.value = fromOption ? *fromOption : *fromAttribute;
        }
    }
    CrossCheck();
    for (const std::string& name : m_order)
    {
        const Exposed& e = m_exposed.at(name);
        if (e.spec->attribute.empty())
        {
            m_own[OwnAttributeName(name)] = OptionValidator::ToText(e.value);
        }
        else if (!Config::SetDefaultFailSafe(
                     e.attribute, StringValue(e.spec->check.ToAttributeText(e.value, e.valueType))))
        {
            throw std::invalid_argument("--" + name + "=" + OptionValidator::ToText(e.value) +
                                        ": refused by " + e.attribute);
        }
    }
    if (m_simulates)
    {
        if (!m_userGlobals.count("SchedulerType") && !SchedulerFromEnvironment())
        {
            // The programs' event scheduler (the same order of events as ns-3's default
            // MapScheduler: all order by time, then insertion): a binary heap in one vector
            // keeps a large pending-event set in fewer cache lines than MapScheduler's tree
            // (less CPU on a 64-city network, where the set holds every packet in flight).
            // --SchedulerType or NS_GLOBAL_VALUE=SchedulerType=... choose another.
            Config::SetGlobal("SchedulerType", StringValue(DEFAULT_SCHEDULER));
        }
        // The global only reaches a simulator created after it: one already made (a node
        // created before the options were parsed schedules its start) moves its events to the
        // chosen scheduler, so that the scheduler recorded is the one that runs.
        ObjectFactory factory;
        factory.SetTypeId(SchedulerInEffect());
        Simulator::SetScheduler(factory);
        // Before anything of the run is allocated (HugePageHeap: the same results, less CPU
        // per packet-hop on large networks).
        SetHugePageHeap(GetFlag("hugePages"));
    }
}

void
ExperimentOptions::ApplyAttribute(const std::string& name, const std::string& value)
{
    TypeId tid;
    TypeId::AttributeInformation info;
    auto [type, attribute] = SplitAttributePath(name);
    if (type.empty() || !TypeId::LookupByNameFailSafe(type, &tid))
    {
        throw std::invalid_argument("--" + name + ": unknown type '" + type +
                                    "' (--PrintTypeIds lists them)");
    }
    if (!tid.LookupAttributeByName(attribute, &info))
    {
        throw std::invalid_argument("--" + name + ": " + type + " has no attribute '" + attribute +
                                    "' (--PrintAttributes=" + type + " lists them)");
    }
    if (!m_simulates)
    {
        throw std::invalid_argument("--" + name + " would have no effect: " + m_program +
                                    " runs no packet-level simulation (only its options and "
                                    "the attributes they map to apply; --PrintHelp)");
    }
    // Attributes of objects made while the run goes, which the check of applied attributes
    // (CheckAttributesApplied, before the run) cannot see: the tcp transport sets these on
    // every socket it opens, over any default.
    static const std::map<std::string, std::string> kPerSocket{
        {"SegmentSize", "--tcpSegmentSize"},
        {"SndBufSize", "--tcpSndBuf"},
        {"RcvBufSize", "--tcpRcvBuf"}};
    if ((tid == TcpSocket::GetTypeId() || tid.IsChildOf(TcpSocket::GetTypeId())) &&
        kPerSocket.count(attribute))
    {
        throw std::invalid_argument("--" + name + ": the tcp transport sets it on every socket "
                                    "(set it with " + kPerSocket.at(attribute) + ")");
    }
    if (!(info.flags & TypeId::ATTR_CONSTRUCT))
    {
        throw std::invalid_argument("--" + name + ": this attribute cannot be set");
    }
    std::string what = "--" + name;
    std::string valueType = ValueType(info.checker);
    std::string canonical = value;
    if (valueType == "ns3::UintegerValue")
    {
        canonical = std::to_string(
            OptionValidator::ParseInteger(what, value, 0, std::numeric_limits<uint64_t>::max()));
    }
    else if (valueType == "ns3::IntegerValue")
    {
        bool negative = !value.empty() && value[0] == '-';
        uint64_t magnitude = OptionValidator::ParseInteger(what, negative ? value.substr(1) : value,
                                                           0, std::numeric_limits<int64_t>::max());
        canonical = (negative ? "-" : "") + std::to_string(magnitude);
    }
    else if (valueType == "ns3::DoubleValue")
    {
        canonical = OptionValidator::ToText(OptionValidator::ParseNumber(what, value));
    }
    else if (valueType == "ns3::TimeValue")
    {
        double s = OptionValidator::ParseTimeSeconds(what, value);
        if (std::fabs(s) > OptionValidator::kMaxSeconds)
        {
            throw std::invalid_argument(what + "=" + value +
                                        ": out of range (accepted: at most 1e6 s)");
        }
        canonical = std::to_string(static_cast<int64_t>(std::llround(s * 1e9))) + "ns";
    }
    else if (valueType == "ns3::DataRateValue")
    {
        double bps = OptionValidator::ParseRateBps(what, value);
        if (!(bps >= 1 && bps < OptionValidator::kMaxRateBps))
        {
            throw std::invalid_argument(what + "=" + value +
                                        ": out of range (accepted: 1 .. <1.8e19 bit/s)");
        }
        canonical = std::to_string(static_cast<uint64_t>(std::llround(bps))) + "bps";
    }
    else if (valueType == "ns3::BooleanValue")
    {
        canonical = OptionValidator::ParseFlag(what, value) ? "true" : "false";
    }
    Ptr<AttributeValue> checked = info.checker->CreateValidValue(StringValue(canonical));
    if (!checked)
    {
        throw std::invalid_argument(what + "=" + value + ": refused by the attribute (accepted: " +
                                    info.checker->GetUnderlyingTypeInformation() + ")");
    }
    if (!Config::SetDefaultFailSafe(name, StringValue(canonical)))
    {
        throw std::invalid_argument(what + "=" + value + ": refused by ns-3");
    }
    m_userAttributes[name] = checked->SerializeToString(info.checker);
}

void
ExperimentOptions::ApplyGlobal(const std::string& name, const std::string& value)
{
    if (!m_simulates)
    {
        throw std::invalid_argument("--" + name + " would have no effect: " + m_program +
                                    " runs no ns-3 simulation (its own randomness is --seed)");
    }
    std::string what = "--" + name;
    std::string canonical = CanonicalGlobal(what, name, value);
    if (!Config::SetGlobalFailSafe(name, StringValue(canonical)))
    {
        throw std::invalid_argument(what + "=" + value + ": refused by ns-3");
    }
    m_userGlobals[name] = canonical;
}

namespace
{
void ApplyCapabilityOptions(const ExperimentOptions& o, NetworkCapabilities& caps);
} // namespace

void
ExperimentOptions::CrossCheck() const
{
    auto text = [this](const std::string& n) {
        return "--" + n + "=" + OptionValidator::ToText(Get(n));
    };
    {
        // Capability set, patterns, aggregation design: refused here, before anything runs.
        NetworkCapabilities caps = NetworkCapabilities::ForPattern(
            ParsePattern(Has("mode") ? GetText("mode") : std::string("unicast")));
        ApplyCapabilityOptions(*this, caps);
    }
    if (Has("tcpSegmentSize") && Has("mtu"))
    {
        const uint64_t mtu = GetInteger("mtu");
        const uint64_t largest = mtu - TcpTransport::HEADER_BYTES; // the default (0)
        const uint64_t mss =
            GetInteger("tcpSegmentSize") > 0 ? GetInteger("tcpSegmentSize") : largest;
        if (mss > largest)
        {
            throw std::invalid_argument(text("tcpSegmentSize") + " needs IP packets of " +
                                        std::to_string(mss + TcpTransport::HEADER_BYTES) +
                                        " bytes, more than the MTU (" + text("mtu") +
                                        "; largest: " + std::to_string(largest) + ")");
        }
        // A buffer smaller than one segment never opens a window: the run stalls.
        for (const char* buf : {"tcpRcvBuf", "tcpSndBuf"})
        {
            if (Has(buf) && GetInteger(buf) > 0 && GetInteger(buf) < mss)
            {
                throw std::invalid_argument(text(buf) + ": less than one TCP segment (" +
                                            std::to_string(mss) + " bytes; 0: the path's "
                                            "bandwidth-delay product)");
            }
        }
    }
    if (Has("segmentSize") && Has("mtu"))
    {
        uint64_t seg = GetInteger("segmentSize");
        uint64_t mtu = GetInteger("mtu");
        if (WireFormat::IpBytes(seg) > mtu)
        {
            throw std::invalid_argument(
                text("segmentSize") + " needs IP packets of " +
                std::to_string(WireFormat::IpBytes(seg)) + " bytes, more than the MTU (" +
                text("mtu") + "; largest segment: " + std::to_string(WireFormat::MaxPayload(mtu)) +
                ")");
        }
    }
    if (Has("modelBytes") && Has("segmentSize"))
    {
        uint64_t m = GetInteger("modelBytes");
        uint64_t s = GetInteger("segmentSize");
        uint64_t segments = m / s + (m % s ? 1 : 0);
        if (segments > 0xffffffffULL)
        {
            throw std::invalid_argument(text("modelBytes") + " in segments of " +
                                        text("segmentSize") + " is " + std::to_string(segments) +
                                        " segments; at most 4294967295 (32-bit sequence numbers)");
        }
    }
    if (Has("computeTime") && Has("localSteps"))
    {
        double perRound = GetDouble("computeTime") * static_cast<double>(GetInteger("localSteps"));
        if (perRound > OptionValidator::kMaxSeconds)
        {
            throw std::invalid_argument(text("computeTime") + " x " + text("localSteps") +
                                        " is more than 1e6 s of compute per round");
        }
        if (Has("rounds") &&
            perRound * static_cast<double>(GetInteger("rounds")) > 1e9) // int64 ns: 9.2e9 s
        {
            throw std::invalid_argument(text("computeTime") + " x " + text("localSteps") + " x " +
                                        text("rounds") +
                                        " is more than 1e9 s of simulated compute");
        }
    }
    if (Has("slotBytes"))
    {
        uint64_t slot = GetInteger("slotBytes");
        if (slot % 4 != 0)
        {
            throw std::invalid_argument(text("slotBytes") +
                                        ": must be a multiple of 4 (int32 values)");
        }
        if (slot > 0 && Has("segmentSize") && slot < GetInteger("segmentSize"))
        {
            throw std::invalid_argument(text("slotBytes") + " is smaller than " +
                                        text("segmentSize") + " (a segment must fit a slot)");
        }
    }
    if (Has("schedule") && !GetText("schedule").empty())
    {
        for (const char* n : {"islands", "period", "iterations", "objective", "disagreementWeight",
                              "bestRoundWeight", "optimizerBudget", "optimizerCandidates"})
        {
            if (WasGiven(n))
            {
                throw std::invalid_argument(
                    text(n) + " would have no effect: it steers the optimizer, which runs only "
                              "when no --schedule is given");
            }
        }
    }
    if (Has("schedule") && !GetText("schedule").empty() && WasGiven("seed") && !Has("dimension"))
    {
        throw std::invalid_argument(text("seed") + " would have no effect: it seeds the "
                                                   "optimizer, which runs only when no "
                                                   "--schedule is given");
    }
    if (Has("topology") && !GraphmlTopologyReader::Handles(GetText("topology")))
    {
        for (const char* n : {"fibreFactor", "graphmlLinkRate"})
        {
            if (WasGiven(n))
            {
                throw std::invalid_argument(text(n) + " would have no effect: it applies to "
                                                      "GraphML topologies (.graphml) only");
            }
        }
    }
    if (Has("synthetic") && GetInteger("synthetic") > 0 && WasGiven("topology"))
    {
        throw std::invalid_argument("--synthetic and --topology are exclusive: give one");
    }
}

void
ExperimentOptions::PrintHelp(const std::vector<std::string>& hardArgs) const
{
    CommandLine cmd(m_program);
    if (!m_usage.empty())
    {
        cmd.Usage(m_usage);
    }
    for (const std::string& name : m_order)
    {
        const Exposed& e = m_exposed.at(name);
        const OptionSpec& s = *e.spec;
        std::string help = s.help;
        if (s.check.GetKind() != OptionValidator::Kind::CHOICE &&
            s.check.GetKind() != OptionValidator::Kind::TEXT)
        {
            help += " (" + s.check.Range();
            if (!s.attribute.empty())
            {
                help += "; = " + s.attribute;
            }
            help += ")";
        }
        cmd.AddValue(name, help, MakeCallback(&AcceptAnything), OptionValidator::ToText(e.value));
    }
    std::vector<std::string> args{m_program};
    args.insert(args.end(), hardArgs.begin(), hardArgs.end());
    cmd.Parse(args); // prints and exits
    std::exit(EXIT_COMPLETE);
}

bool
ExperimentOptions::Has(const std::string& name) const
{
    return m_exposed.count(name) > 0;
}

bool
ExperimentOptions::WasGiven(const std::string& name) const
{
    auto it = m_exposed.find(name);
    return it != m_exposed.end() && it->second.given;
}

const ExperimentOptions::Exposed&
ExperimentOptions::Find(const std::string& name) const
{
    auto it = m_exposed.find(name);
    if (it == m_exposed.end())
    {
        throw std::logic_error(m_program + " reads option --" + name + " without using it");
    }
    return it->second;
}

const nlohmann::json&
ExperimentOptions::Get(const std::string& name) const
{
    return Find(name).value;
}

double
ExperimentOptions::GetDouble(const std::string& name) const
{
    return Get(name).get<double>();
}

uint64_t
ExperimentOptions::GetInteger(const std::string& name) const
{
    return Get(name).get<uint64_t>();
}

bool
ExperimentOptions::GetFlag(const std::string& name) const
{
    return Get(name).get<bool>();
}

std::string
ExperimentOptions::GetText(const std::string& name) const
{
    return Get(name).get<std::string>();
}

std::vector<std::string>
ExperimentOptions::GetList(const std::string& name) const
{
    std::vector<std::string> out;
    std::stringstream in(GetText(name));
    for (std::string item; std::getline(in, item, ',');)
    {
        out.push_back(item);
    }
    return out;
}

NetworkGraphOptions
ExperimentOptions::ToGraphOptions() const
{
    NetworkGraphOptions go;
    go.privateRateBps = Has("linkRate") ? GetDouble("linkRate") : 0;
    // --accessRate: a device's attachment to its city (metro and exchange links); the
    // island's own access link stays at its default (what the city's metro can carry).
    go.metroRateBps = Has("accessRate") ? GetDouble("accessRate") : 0;
    go.exchangeRateBps = go.metroRateBps;
    if (Has("metroLatency"))
    {
        go.metroLatencyS = GetDouble("metroLatency");
    }
    if (Has("cityExchange"))
    {
        go.exchange = GetFlag("cityExchange");
    }
    if (Has("exchangeLatency"))
    {
        go.exchangeLatencyS = GetDouble("exchangeLatency");
    }
    if (Has("latencyCheck"))
    {
        go.latencyCheck = TopologyLatencyCheck::ParseMode(GetText("latencyCheck"));
    }
    if (Has("routingMetric"))
    {
        go.routing.metric = RoutingOptions::ParseMetric(GetText("routingMetric"));
    }
    if (Has("hopCost"))
    {
        go.routing.hopCostS = GetDouble("hopCost");
    }
    if (Has("capacityCost"))
    {
        go.routing.capacityCostBits = GetDouble("capacityCost");
    }
    go.publicRateBps = Has("publicRate") ? GetDouble("publicRate") : 0;
    return go;
}

CostParameters
ExperimentOptions::ToCostParameters() const
{
    CostParameters p;
    p.modelBytes = static_cast<double>(GetInteger("modelBytes"));
    p.segmentPayloadBytes = static_cast<uint32_t>(GetInteger("segmentSize"));
    p.computeTimeS = GetDouble("computeTime");
    p.localSteps = static_cast<uint32_t>(GetInteger("localSteps"));
    p.overlap = Has("overlap") && GetFlag("overlap");
    p.Validate();
    return p;
}

namespace
{

/// The mode the options select: --capabilities' richest switch when given, else --mode.
std::string
EffectiveMode(const ExperimentOptions& o)
{
    if (o.Has("capabilities") && !o.GetText("capabilities").empty())
    {
        NetworkCapabilities set;
        set.SetSwitches(o.GetText("capabilities"));
        return set.aggregation ? "aggregation" : set.multicast ? "multicast" : "unicast";
    }
    return o.Has("mode") ? o.GetText("mode") : std::string("unicast");
}

/// --capabilities (checked against --mode), --patterns, --aggregation and --fpgaMemory onto
/// \p caps (whose switches come from --mode).
void
ApplyCapabilityOptions(const ExperimentOptions& o, NetworkCapabilities& caps)
{
    if (o.Has("capabilities") && !o.GetText("capabilities").empty())
    {
        NetworkCapabilities set;
        try
        {
            set.SetSwitches(o.GetText("capabilities"));
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument("--capabilities=" + o.GetText("capabilities") + ": " +
                                        e.what());
        }
        if (o.WasGiven("mode") && set.SetName() != caps.SetName())
        {
            throw std::invalid_argument("--mode=" + o.GetText("mode") + " and --capabilities=" +
                                        o.GetText("capabilities") +
                                        " are the same setting with different values: give one");
        }
        caps.multicast = set.multicast;
        caps.aggregation = set.aggregation;
    }
    if (o.Has("patterns") && !o.GetText("patterns").empty())
    {
        try
        {
            caps.SetPatterns(o.GetText("patterns"));
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument("--patterns=" + o.GetText("patterns") + ": " + e.what());
        }
    }
    if (o.Has("aggregation"))
    {
        caps.SetAggregationDesign(o.GetText("aggregation"));
    }
    if (o.Has("fpgaMemory"))
    {
        caps.fpgaMemoryBytes = o.GetDouble("fpgaMemory");
    }
}

} // namespace

NetworkCapabilities
ExperimentOptions::ToCapabilities(const Topology& topology) const
{
    NetworkCapabilities caps = NetworkCapabilities::ForPattern(
        ParsePattern(Has("mode") ? GetText("mode") : std::string("unicast")));
    ApplyCapabilityOptions(*this, caps);
    if (Has("fpgaRate"))
    {
        caps.fpgaThroughputBps = GetDouble("fpgaRate");
        caps.fpgaLatencyS = GetDouble("fpgaLatency");
        for (const std::string& d : GetList("fpgaDevices"))
        {
            if (!topology.FindDevice(d))
            {
                throw std::invalid_argument("--fpgaDevices=" + GetText("fpgaDevices") +
                                            ": unknown device '" + d + "' in " +
                                            topology.GetName());
            }
            caps.fpgaDevices.push_back(d);
        }
        caps.fpgaOnAllDevices = caps.fpgaDevices.empty();
    }
    if (Has("slotBytes"))
    {
        uint64_t slot = GetInteger("slotBytes");
        caps.slotBytes =
            static_cast<uint32_t>(slot > 0 ? slot : (GetInteger("segmentSize") + 3) / 4 * 4);
    }
    if (Has("slots"))
    {
        caps.aggregationSlots = static_cast<uint32_t>(GetInteger("slots"));
        caps.aggregationTimeoutS = GetDouble("aggTimeout");
    }
    caps.Validate();
    return caps;
}

Topology
ExperimentOptions::LoadTopology() const
{
    if (Has("synthetic") && GetInteger("synthetic") > 0)
    {
        SyntheticTopologyOptions so;
        so.cities = static_cast<uint32_t>(GetInteger("synthetic"));
        so.seed = GetInteger("topologySeed");
        return SyntheticTopology::Generate(so);
    }
    std::string path = GetText("topology");
    double publicRate =
        Has("publicRate") && GetDouble("publicRate") > 0 ? GetDouble("publicRate") : 1e9;
    if (GraphmlTopologyReader::Handles(path))
    {
        GraphmlTopologyOptions go;
        go.warnings = &std::cerr;
        go.fibreFactor = GetDouble("fibreFactor");
        go.defaultLinkRateBps = GetDouble("graphmlLinkRate");
        return GraphmlTopologyReader::Read(path, go);
    }
    return TopologyReader::Read(path, publicRate);
}

std::vector<std::string>
ExperimentOptions::OptimizerIslands(const Topology& topology, const NetworkGraph& graph) const
{
    // A city hosts an island through its devices: by default every city that has one (a city
    // without devices is on the map only).
    std::set<std::string> withDevices;
    for (const Device& d : topology.Devices())
    {
        withDevices.insert(d.city);
    }
    std::vector<std::string> islands;
    if (Has("islands") && !GetList("islands").empty())
    {
        // City codes are upper case (the readers and schedules upper-case them too).
        for (const std::string& c : GetList("islands"))
        {
            islands.push_back(TextUtil::Upper(c));
        }
    }
    else
    {
        for (const std::string& c : topology.CityCodes())
        {
            if (withDevices.count(c))
            {
                islands.push_back(c);
            }
        }
    }
    std::set<std::string> seen;
    for (const std::string& c : islands)
    {
        if (!topology.FindCity(c))
        {
            throw std::invalid_argument("--islands: '" + c + "' is not a city of " +
                                        topology.GetName());
        }
        // An island reaches the network through its city's metro (devices, public paths): a
        // city with neither has no access link and cannot host one (as a schedule naming it
        // is refused); one with public paths only can, as in a schedule.
        int64_t metro = graph.MetroNode(c);
        if (metro < 0 || graph.FindEdge(graph.IslandNode(c), static_cast<uint32_t>(metro)) < 0)
        {
            throw std::invalid_argument("--islands: " + c +
                                        " has neither a device nor a public "
                                        "path in " +
                                        topology.GetName() + ": it cannot host an island");
        }
        if (!seen.insert(c).second)
        {
            throw std::invalid_argument("--islands lists " + c + " twice");
        }
    }
    if (islands.size() < 2)
    {
        throw std::invalid_argument("at least two islands are needed (the topology " +
                                    topology.GetName() + " has " +
                                    std::to_string(withDevices.size()) +
                                    " cities with devices)");
    }
    RoutePlanner routes(graph);
    for (const std::string& c : islands)
    {
        if (!routes.Reachable(graph.IslandNode(c), graph.IslandNode(islands[0])))
        {
            throw std::invalid_argument("the topology " + topology.GetName() +
                                        " is disconnected: no route from " + c + " to " +
                                        islands[0]);
        }
    }
    return islands;
}

OptimizerOptions
ExperimentOptions::ToOptimizerOptions(std::size_t islands) const
{
    OptimizerOptions oo;
    oo.maxPeriod = GetInteger("period");
    oo.seed = GetInteger("seed");
    oo.iterations = GetInteger("iterations");
    if (Has("optimizerBudget"))
    {
        oo.budgetS = GetDouble("optimizerBudget");
        oo.budgetCandidates = GetInteger("optimizerCandidates");
    }
    const std::string objective = Has("objective") ? GetText("objective") : "training";
    if (objective == "training")
    {
        oo.objective =
            std::make_shared<TrainingTimeObjective>(islands, GetDouble("disagreementWeight"),
                                                    GetDouble("bestRoundWeight"));
        // Its PeriodBound (mean round time) prunes little: the exact search of period 2 on
        // nine islands costs minutes (2.2e8 pairs of partitions), so periods >= 2 come from
        // the heuristic (period 1 stays exact: only the all-island clique contracts).
        oo.exactPeriod = 1;
    }
    else if (objective == "consensus")
    {
        oo.objective = std::make_shared<ConsensusTimeObjective>(islands, oo.target);
    }
    else
    {
        throw std::invalid_argument("--objective: unknown objective '" + objective + "'");
    }
    return oo;
}

std::string
ExperimentOptions::OptimizedName(const Schedule& schedule)
{
    // FNV-1a over the cliques: the same schedule always gets the same name.
    uint32_t h = 2166136261u;
    auto mix = [&h](const std::string& s) {
        for (unsigned char c : s)
        {
            h = (h ^ c) * 16777619u;
        }
    };
    for (std::size_t p = 0; p < schedule.Period(); ++p)
    {
        for (const auto& clique : schedule.RoundAt(p).cliques)
        {
            for (const auto& city : clique)
            {
                mix(city + ",");
            }
            mix(";");
        }
        mix("|");
    }
    char buf[16];
    std::snprintf(buf, sizeof(buf), "%08x", h);
    return std::string("optimized-") + buf;
}

Schedule
ExperimentOptions::OptimizedSchedule(const Topology& topology) const
{
    NetworkGraph graph = NetworkGraph::FromTopology(topology, ToGraphOptions());
    std::vector<std::string> islands = OptimizerIslands(topology, graph);
    CostModel cost(graph, ToCapabilities(topology), ToCostParameters());
    // The one call into the optimizer for a default schedule. Its search grows quickly with
    // the islands (tens of minutes at 50 with the default period): say so before a long
    // silence, with the options that bound it.
    const OptimizerOptions oo = ToOptimizerOptions(islands.size());
    if (islands.size() > 16 && !(oo.budgetS > 0) && oo.budgetCandidates == 0)
    {
        std::cerr << "note: no --schedule: optimizing one for " << islands.size()
                  << " islands (period up to " << oo.maxPeriod
                  << "), which can take many minutes; --optimizerBudget=SECONDS or "
                     "--optimizerCandidates=N bounds the search, --period=1 shortens it\n";
    }
    Schedule best = ScheduleOptimizer(cost, islands, oo).Optimize().schedule;
    best.SetName(OptimizedName(best));
    best.SetDescription("the optimizer's best schedule for " + topology.GetName() + ", mode " +
                        EffectiveMode(*this) +
                        " (options as recorded)");
    return best;
}

Schedule
ExperimentOptions::LoadSchedule(const Topology& topology) const
{
    std::string s = Has("schedule") ? GetText("schedule") : "";
    if (s.empty())
    {
        return OptimizedSchedule(topology);
    }
    return Schedule::Load(SchedulePath(s), topology.CityCodes());
}

void
ExperimentOptions::Configure(ScenarioHelper& scenario, const Topology& topology,
                             const Schedule& schedule) const
{
    scenario.SetTopology(topology);
    scenario.SetGraphOptions(ToGraphOptions());
    scenario.SetSchedule(schedule);
    scenario.SetCapabilities(ToCapabilities(topology));
    if (Has("rounds"))
    {
        scenario.SetRounds(static_cast<uint32_t>(GetInteger("rounds")));
    }
    if (Has("mtu"))
    {
        scenario.SetMtu(static_cast<uint16_t>(GetInteger("mtu")));
        scenario.SetLossRate(GetDouble("lossRate"));
        scenario.SetBarrier(GetFlag("barrier"));
        scenario.SetRateControl(GetFlag("rateControl"));
    }
    if (Has("transport"))
    {
        scenario.SetTransport(GetText("transport"));
        scenario.SetChannel(GetText("channel"));
        scenario.SetQueueDisc(GetText("queueDisc"));
        scenario.SetQueueSize(static_cast<uint32_t>(GetInteger("queueSize")));
        scenario.SetDeviceQueue(static_cast<uint32_t>(GetInteger("deviceQueue")));
    }
}

namespace
{

std::string
Hint(const std::string& path, const std::string& option, bool user)
{
    if (!user)
    {
        return " (a bug of the program: it overrides its own option)";
    }
    if (!option.empty())
    {
        return " (set it with --" + option + ")";
    }
    auto hint = SetByTheScenario().find(path);
    return hint != SetByTheScenario().end()
               ? " (the scenario sets it; set it with " + hint->second + ")"
               : " (the program sets this attribute itself; doc/options.rst)";
}

} // namespace

void
ExperimentOptions::CheckAttributesApplied() const
{
    std::map<std::string, std::string> expected = m_userAttributes; // path -> serialized
    std::map<std::string, std::string> optionOf;
    for (const auto& [name, e] : m_exposed)
    {
        if (!e.spec->attribute.empty())
        {
            TypeId tid;
            TypeId::AttributeInformation info;
            LookupAttribute(e.attribute, &tid, &info);
            Ptr<AttributeValue> v = info.checker->CreateValidValue(
                StringValue(e.spec->check.ToAttributeText(e.value, e.valueType)));
            expected[e.attribute] = v ? v->SerializeToString(info.checker) : "";
            optionOf[e.attribute] = name;
        }
    }
    for (const OptionSpec& spec : Table())
    {
        if (!spec.attribute.empty() && !optionOf.count(spec.attribute))
        {
            optionOf[spec.attribute] = spec.name;
        }
    }
    std::unordered_set<const Object*> seen;
    std::unordered_map<uint16_t, ObjectAttributes> attributes;
    std::vector<Ptr<Object>> objects;
    for (auto n = NodeList::Begin(); n != NodeList::End(); ++n)
    {
        CollectObjects(*n, seen, attributes, objects);
    }
    for (auto c = ChannelList::Begin(); c != ChannelList::End(); ++c)
    {
        CollectObjects(*c, seen, attributes, objects);
    }
    // The objects by instance TypeId (in the order found): whether a type is the attribute's
    // type or a child of it is asked once per type, not once per object.
    std::map<uint16_t, std::pair<TypeId, std::vector<Ptr<Object>>>> byType;
    for (const auto& object : objects)
    {
        TypeId t = object->GetInstanceTypeId();
        auto& entry = byType[t.GetUid()];
        entry.first = t;
        entry.second.push_back(object);
    }
    for (const auto& [path, want] : expected)
    {
        TypeId tid;
        TypeId::AttributeInformation info;
        if (!LookupAttribute(path, &tid, &info))
        {
            continue;
        }
        std::size_t total = 0;
        std::size_t differ = 0;
        std::string found;
        const std::string attribute = SplitAttributePath(path).second;
        for (const auto& [uid, typed] : byType)
        {
            const TypeId& t = typed.first;
            if (t != tid && !t.IsChildOf(tid))
            {
                continue;
            }
            for (const auto& object : typed.second)
            {
                ++total;
                StringValue actual;
                if (object->GetAttributeFailSafe(attribute, actual) && actual.Get() != want)
                {
                    ++differ;
                    found = actual.Get();
                }
            }
        }
        if (differ > 0)
        {
            auto option = optionOf.find(path);
            bool user = m_userAttributes.count(path) > 0;
            throw std::invalid_argument(
                std::string(user ? "--" + path + "=" + want : "option --" + option->second) +
                " did not take effect: " + m_program + " set " + found + " on " +
                std::to_string(differ) + " of " + std::to_string(total) + " " + tid.GetName() +
                " objects" + Hint(path, option != optionOf.end() ? option->second : "", user));
        }
    }
}

std::string
ExperimentOptions::ParametersJson() const
{
    nlohmann::json p = nlohmann::json::object();
    for (const std::string& name : m_order)
    {
        const Exposed& e = m_exposed.at(name);
        if (Recorded(*e.spec))
        {
            p[name] = e.value;
        }
    }
    // Every attribute of the module's own TypeIds, as the run's objects start with it.
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId tid = TypeId::GetRegistered(i);
        if (tid.GetGroupName() != "IntelligentNetwork" || tid == GetTypeId())
        {
            continue;
        }
        for (std::size_t a = 0; a < tid.GetAttributeN(); ++a)
        {
            TypeId::AttributeInformation info = tid.GetAttribute(a);
            p[tid.GetName() + "::" + info.name] =
                info.initialValue->SerializeToString(info.checker);
        }
    }
    // --mode and --capabilities are one setting (refused when they disagree): both as in
    // effect, whichever was given (a run with --capabilities=unicast,multicast is multicast).
    if (p.contains("mode"))
    {
        p["mode"] = EffectiveMode(*this);
    }
    if (p.contains("capabilities") && p["capabilities"].is_string() &&
        p["capabilities"].get<std::string>().empty())
    {
        NetworkCapabilities set;
        set.SetSwitches(EffectiveMode(*this));
        p["capabilities"] = set.SetName();
    }
    for (const auto& [path, value] : m_userAttributes)
    {
        p[path] = value;
    }
    // Every ns-3 global as in effect, however it was set (NS_GLOBAL_VALUE, a default): e.g.
    // ChecksumEnabled, SimulatorImplementationType.
    for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
    {
        StringValue v;
        (*g)->GetValue(v);
        p[(*g)->GetName()] = v.Get();
    }
    // A global given on the command line as the user spelt it (--ChecksumEnabled=1, not ns-3's
    // "true"): sweeps compare the recorded value with what they passed.
    for (const auto& [name, value] : m_userGlobals)
    {
        p[name] = value;
    }
    if (m_simulates)
    {
        p["SchedulerType"] = SchedulerInEffect(); // default or given
        p["HugePageHeap"] = GetHugePageHeap().Describe(); // what --hugePages achieved
    }
    p["RngSeed"] = RngSeedManager::GetSeed();
    p["RngRun"] = RngSeedManager::GetRun();
    return p.dump();
}

RunRecord
ExperimentOptions::MakeRunRecord(const std::string& topologyName,
                                 const std::string& scheduleName) const
{
    RunRecord run;
    run.runKey = Has("runKey") ? GetText("runKey") : "";
    run.program = m_program;
    run.topology = topologyName;
    run.schedule = scheduleName;
    run.mode = Has("mode") ? EffectiveMode(*this) : "";
    run.seed = RngSeedManager::GetSeed();
    run.runNumber = RngSeedManager::GetRun();
    run.modelBytes = Has("modelBytes") ? GetInteger("modelBytes") : 0;
    run.segmentSize = Has("segmentSize") ? GetInteger("segmentSize") : 0;
    run.rounds = Has("rounds") ? GetInteger("rounds") : 0;
    run.parametersJson = ParametersJson();
    return run;
}

int
ExperimentOptions::Fail(const std::exception& error) const
{
    std::cerr << m_program << ": error: " << error.what() << std::endl;
    return EXIT_BAD_INPUT;
}

std::string
ExperimentOptions::RstTable()
{
    ExperimentOptions all("options-table", {});
    for (const OptionSpec& spec : Table())
    {
        all.Expose(spec);
    }
    std::ostringstream os;
    os << ".. Generated from helper/experiment-option-table.cc by any program's "
          "--PrintOptionsRst;\n.. do not edit (test/options-table.sh checks it).\n\n"
       << ".. list-table::\n   :header-rows: 1\n   :widths: 14 12 18 22 8 40\n\n"
       << "   * - Option\n     - Default\n     - Accepted\n     - ns-3 attribute\n"
       << "     - Group\n     - Meaning\n";
    for (const std::string& name : all.m_order)
    {
        const Exposed& e = all.m_exposed.at(name);
        std::string def = OptionValidator::ToText(e.value);
        if (e.spec->name == "topology")
        {
            def = "data/nine-city.topology"; // the source tree's data/ folder
        }
        os << "   * - ``--" << name << "``\n     - "
           << (def.empty() ? "(empty)" : "``" + def + "``") << "\n     - "
           << e.spec->check.KindName()
           << (e.spec->check.GetKind() == OptionValidator::Kind::TEXT
                   ? std::string()
                   : ": " + e.spec->check.Range())
           << "\n     - ``" << e.attribute << "``\n     - " << e.spec->group << "\n     - "
           << e.spec->help << "\n";
    }
    return os.str();
}

} // namespace ns3
