#include "config/suite.hpp"

#include <algorithm>
#include <limits>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/text.hpp"
#include "config/method_selector.hpp"
#include "config/output_format.hpp"
#include "config/yaml_checks.hpp"
#include "config/yaml_document.hpp"
#include "config/yaml_file.hpp"

namespace perfzero::config {

namespace {

const std::vector<std::string> kTopKeys{"suite",       "description", "defaults", "methods",
                                        "comparisons", "interleave",  "max_cases"};
const std::vector<std::string> kComparisonKeys{"name", "ours", "theirs", "goal"};
const std::vector<std::string> kSideKeys{"method", "metric"};
const std::vector<std::string> kSettingKeys{
    "trials",   "warmup_trials", "timeout",          "monitor_interval_ms", "min_trials", "max_trials", "min_time",
    "max_time", "max_noise",     "max_result_bytes", "max_log_bytes",       "env",        "launch"};
const std::vector<std::string> kBuiltinKeys{
    "method",        "params",     "trials",   "warmup_trials", "timeout",   "monitor_interval_ms",
    "min_trials",    "max_trials", "min_time", "max_time",      "max_noise", "max_result_bytes",
    "max_log_bytes", "env",        "launch"};
const std::vector<std::string> kCommandKeys{"name",
                                            "description",
                                            "command",
                                            "working_dir",
                                            "output",
                                            "params",
                                            "trials",
                                            "timeout",
                                            "env",
                                            "warmup_trials",
                                            "monitor_interval_ms",
                                            "min_trials",
                                            "max_trials",
                                            "min_time",
                                            "max_time",
                                            "max_noise",
                                            "max_result_bytes",
                                            "max_log_bytes",
                                            "metric_directions",
                                            "launch"};

// trials: auto's limits (docs/suites.md): max_noise in percent, as --max_noise takes it.
template <typename Child>
void read_auto_limits(const yaml::Checker& check, const YAML::Node& map, const Child& child, RunSettings& settings) {
  if (const auto n = map["min_trials"]) settings.min_trials = check.int_of(n, child("min_trials"), 1, 100000);
  if (const auto n = map["max_trials"]) settings.max_trials = check.int_of(n, child("max_trials"), 1, 100000);
  if (const auto n = map["min_time"]) {
    settings.min_seconds = static_cast<double>(check.duration_of(n, child("min_time")).count()) / 1000.0;
  }
  if (const auto n = map["max_time"]) {
    settings.max_seconds = static_cast<double>(check.duration_of(n, child("max_time")).count()) / 1000.0;
  }
  if (const auto n = map["max_noise"]) {
    const auto value = check.param_of(n, child("max_noise"), ParamType::number);
    const double percent = std::get<double>(value);
    if (percent <= 0 || percent > 100) {
      check.fail(n, child("max_noise"), fmt::format("expected a percentage above 0 and at most 100, got {}", percent));
    }
    settings.max_noise = percent / 100.0;
  }
}

// launch: {engine: mpirun, nodes: 2, tasks_per_node: 4, hosts: [a, b], extra_args: [...]}, or
// {engine: slurm, nodes: 3, gpus_per_task: 1, partition: gpu}
LaunchSettings read_launch(const yaml::Checker& check, const YAML::Node& map, const std::string& key) {
  check.expect_map(map, key);
  check.check_keys(map, key, launch_keys());
  LaunchSettings out;
  if (const auto n = map["engine"]) {
    out.engine = launch_engine_of(check.string_of(n, key + ".engine"));
    if (!out.engine) check.fail(n, key + ".engine", "expected local, mpirun or slurm, got " + yaml::describe(n));
  }
  // A count, or a list of counts to sweep.
  auto counts = [&](const char* name, int max, std::optional<int>& one, std::vector<int>& sweep) {
    const auto n = map[name];
    if (!n) return;
    const std::string path = key + "." + name;
    if (!n.IsSequence()) {
      one = check.int_of(n, path, 1, max);
      return;
    }
    if (n.size() == 0) check.fail(n, path, "a sweep needs at least one value");
    for (std::size_t i = 0; i < n.size(); ++i) {
      const int value = check.int_of(n[i], fmt::format("{}[{}]", path, i), 1, max);
      if (std::find(sweep.begin(), sweep.end(), value) != sweep.end()) {
        check.fail(n[i], fmt::format("{}[{}]", path, i), fmt::format("{} is already in the sweep", value));
      }
      sweep.push_back(value);
    }
  };
  counts("nodes", kMaxLaunchNodes, out.nodes, out.nodes_sweep);
  counts("tasks_per_node", kMaxTasksPerNode, out.tasks_per_node, out.tasks_per_node_sweep);
  if (const auto n = map["hosts"]) out.hosts = check.string_list_of(n, key + ".hosts");
  if (const auto n = map["hostfile"]) out.hostfile = check.string_of(n, key + ".hostfile");
  if (const auto n = map["extra_args"]) out.extra_args = check.string_list_of(n, key + ".extra_args");
  if (const auto n = map["gpus_per_task"]) {
    out.gpus_per_task = check.int_of(n, key + ".gpus_per_task", 0, kMaxGpusPerTask);
  }
  if (const auto n = map["partition"]) out.partition = check.string_of(n, key + ".partition");
  return out;
}

RunSettings read_settings(const yaml::Checker& check, const YAML::Node& map, const std::string& key) {
  RunSettings settings;
  auto child = [&](const char* name) { return key.empty() ? std::string(name) : key + "." + name; };
  if (const auto n = map["trials"]) {
    if (n.IsScalar() && n.Scalar() == "auto") {
      settings.trials_auto = true;
    } else {
      settings.trials = check.int_of(n, child("trials"), 1, 100000);
    }
  }
  read_auto_limits(check, map, child, settings);
  if (const auto n = map["warmup_trials"]) settings.warmup_trials = check.int_of(n, child("warmup_trials"), 0, 100000);
  if (const auto n = map["timeout"]) settings.timeout = check.duration_of(n, child("timeout"));
  if (const auto n = map["monitor_interval_ms"]) {
    settings.monitor_interval = std::chrono::milliseconds(check.int_of(n, child("monitor_interval_ms"), 1, 3'600'000));
  }
  for (const char* name : {"max_result_bytes", "max_log_bytes"}) {
    const auto n = map[name];
    if (!n) continue;
    const int bytes = check.int_of(n, child(name), kMinByteLimit, std::numeric_limits<int>::max());
    (std::string_view(name) == "max_result_bytes" ? settings.max_result_bytes : settings.max_log_bytes) = bytes;
  }
  if (const auto n = map["env"]) settings.env = check.env_of(n, child("env"));
  if (const auto n = map["launch"]) settings.launch = read_launch(check, n, child("launch"));
  return settings;
}

template <typename ParseOne>
std::vector<ParamAxis> read_axes(const yaml::Checker& check, const YAML::Node& params, const std::string& key,
                                 ParseOne parse_one) {
  check.expect_map(params, key);
  std::vector<ParamAxis> axes;
  for (const auto& item : params) {
    const std::string name = check.string_of(item.first, key);
    const std::string path = key + "." + name;
    ParamAxis axis{name, {}};
    if (item.second.IsSequence()) {
      if (item.second.size() == 0) check.fail(item.second, path, "a sweep needs at least one value");
      std::size_t i = 0;
      for (const auto& value : item.second)
        axis.values.push_back(parse_one(item.first, value, fmt::format("{}[{}]", path, i++)));
    } else {
      axis.values.push_back(parse_one(item.first, item.second, path));
    }
    axes.push_back(std::move(axis));
  }
  return axes;
}

SuiteEntry read_builtin(const yaml::Checker& check, const YAML::Node& entry, const std::string& key,
                        const RegistrySource& registry) {
  check.check_keys(entry, key, kBuiltinKeys);
  SuiteEntry out;
  out.origin = check.where(entry);
  const auto method_node = entry["method"];
  out.methods = select_methods(check.string_of(method_node, key + ".method"), check.where(method_node), registry());
  for (const MethodInfo* method : out.methods) {
    std::vector<ParamAxis> axes;
    if (const auto params = entry["params"]) {
      std::vector<std::string> known;
      for (const auto& spec : method->params) known.push_back(spec.name);
      axes = read_axes(check, params, key + ".params",
                       [&](const YAML::Node& name_node, const YAML::Node& value, const std::string& path) {
                         const ParamSpec* spec = method->find_param(name_node.Scalar());
                         if (spec == nullptr) {
                           check.fail(name_node, path,
                                      fmt::format("{} has no parameter '{}'{}{}", method->full_name(),
                                                  name_node.Scalar(), text::did_you_mean(name_node.Scalar(), known),
                                                  known.empty() ? " (it takes none)"
                                                                : " (it takes: " + text::join(known, ", ") + ")"));
                         }
                         return check.param_of(value, path, spec->type);
                       });
    }
    out.axes.push_back(std::move(axes));
  }
  out.settings = read_settings(check, entry, key);
  return out;
}

// Every {word} in a command must name a parameter or {bindir}: one that names nothing would reach
// the program as literal text. Braces around anything else ({}, {print $1}, ${HOME}) are left alone.
void check_placeholders(const yaml::Checker& check, const YAML::Node& command, const std::string& key,
                        const SuiteEntry& entry) {
  std::vector<std::string> known{"bindir"};
  for (const auto& axis : entry.external_axes) known.push_back(axis.name);
  for (std::size_t i = 0; i < entry.argv.size(); ++i) {
    const std::string& arg = entry.argv[i];
    for (auto open = arg.find('{'); open != std::string::npos; open = arg.find('{', open + 1)) {
      const auto close = arg.find('}', open);
      if (close == std::string::npos) break;
      const std::string word = arg.substr(open + 1, close - open - 1);
      const bool identifier = !word.empty() && word.find_first_not_of(
                                                   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
                                                   "VWXYZ0123456789_") == std::string::npos;
      const bool shell_variable = open > 0 && arg[open - 1] == '$';  // sh -c "... ${HOME} ..."
      if (identifier && !shell_variable && std::find(known.begin(), known.end(), word) == known.end()) {
        check.fail(command[i], fmt::format("{}[{}]", key, i),
                   fmt::format("'{{{}}}' names no parameter of this command{} (known: {})", word,
                               text::did_you_mean(word, known), text::join(known, ", ")));
      }
    }
  }
}

// metric_directions: {throughput: higher, latency_ms: lower}
std::map<std::string, Direction> read_directions(const yaml::Checker& check, const YAML::Node& node,
                                                 const std::string& key) {
  check.expect_map(node, key);
  std::map<std::string, Direction> out;
  for (const auto& item : node) {
    const std::string metric = check.string_of(item.first, key);
    const std::string path = key + "." + metric;
    const auto direction = direction_from_string(check.string_of(item.second, path));
    if (metric.empty()) check.fail(item.first, key, "expected a metric name, got an empty one");
    if (!direction) check.fail(item.second, path, "expected higher or lower, got " + yaml::describe(item.second));
    out[metric] = *direction;
  }
  return out;
}

SuiteEntry read_command(const yaml::Checker& check, const YAML::Node& entry, const std::string& key,
                        const std::filesystem::path& suite_dir) {
  check.check_keys(entry, key, kCommandKeys);
  SuiteEntry out;
  out.external = true;
  out.origin = check.where(entry);
  if (!entry["name"]) check.fail(entry, key, "an external command needs a 'name' (how reports call it)");
  out.name = check.string_of(entry["name"], key + ".name");
  if (out.name.empty() || out.name.find('/') != std::string::npos) {
    check.fail(entry["name"], key + ".name", "expected a non-empty name without '/'");
  }
  if (const auto d = entry["description"]) out.description = check.string_of(d, key + ".description");
  out.argv = check.string_list_of(entry["command"], key + ".command");
  if (out.argv.empty() || out.argv[0].empty())
    check.fail(entry["command"], key + ".command", "the command list is empty");
  out.working_dir = suite_dir;
  if (const auto w = entry["working_dir"]) {
    const std::filesystem::path dir = check.string_of(w, key + ".working_dir");
    out.working_dir = dir.is_absolute() ? dir : suite_dir / dir;
    // The error_code form: a name the kernel refuses (too long, a loop of links) is the user's mistake,
    // not an exception out of the loader.
    std::error_code ec;
    if (!std::filesystem::is_directory(out.working_dir, ec)) {
      const bool missing = !ec || ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory;
      check.fail(
          w, key + ".working_dir",
          (missing ? "no such directory: " : "cannot be read (" + ec.message() + "): ") + out.working_dir.string());
    }
  }
  if (const auto output = entry["output"]) {
    const std::string format = check.string_of(output, key + ".output");
    if (const auto known = output_format_from(format)) {
      out.output = *known;
    } else {
      check.fail(output, key + ".output", "expected " + output_format_choices() + ", got '" + format + "'");
    }
  }
  if (const auto d = entry["metric_directions"])
    out.metric_directions = read_directions(check, d, key + ".metric_directions");
  if (const auto params = entry["params"]) {
    out.external_axes = read_axes(check, params, key + ".params",
                                  [&](const YAML::Node&, const YAML::Node& value, const std::string& path) {
                                    return check.untyped_param_of(value, path);
                                  });
  }
  check_placeholders(check, entry["command"], key + ".command", out);
  out.settings = read_settings(check, entry, key);
  return out;
}

Comparison read_comparison(const yaml::Checker& check, const YAML::Node& node, const std::string& key) {
  check.check_keys(node, key, kComparisonKeys);
  Comparison c;
  c.origin = check.where(node);
  for (const char* required : {"name", "ours", "theirs"}) {
    if (!node[required]) check.fail(node, key, std::string("a comparison needs '") + required + "'");
  }
  c.name = check.string_of(node["name"], key + ".name");
  auto side = [&](const char* which, std::string& method, std::string& metric) {
    const std::string path = key + "." + which;
    check.check_keys(node[which], path, kSideKeys);
    if (!node[which]["method"] || !node[which]["metric"]) check.fail(node[which], path, "needs 'method' and 'metric'");
    method = check.string_of(node[which]["method"], path + ".method");
    metric = check.string_of(node[which]["metric"], path + ".metric");
  };
  side("ours", c.ours_case, c.ours_metric);
  side("theirs", c.theirs_case, c.theirs_metric);
  if (const auto g = node["goal"]) {
    const auto value = check.param_of(g, key + ".goal", ParamType::number);
    c.goal = std::get<double>(value);
  }
  return c;
}

// One item of the 'methods' list; its key is set here so error messages can name it later.
SuiteEntry read_entry(const yaml::Checker& check, const YAML::Node& entry, const std::string& key,
                      const RegistrySource& registry, const std::filesystem::path& suite_dir) {
  if (entry.IsScalar()) {
    // A bare name is shorthand for {method: NAME}.
    SuiteEntry out;
    out.origin = check.where(entry);
    out.methods = select_methods(entry.Scalar(), out.origin, registry());
    out.axes.resize(out.methods.size());
    out.key = key;
    return out;
  }
  check.expect_map(entry, key);
  if (entry["method"] && entry["command"]) {
    check.fail(entry, key, "give either 'method' (a built-in) or 'command' (an external program), not both");
  }
  SuiteEntry out;
  if (entry["method"]) {
    out = read_builtin(check, entry, key, registry);
  } else if (entry["command"]) {
    out = read_command(check, entry, key, suite_dir);
  } else {
    check.fail(entry, key, "expected a 'method' (a built-in benchmark) or a 'command' (an external program)");
  }
  out.key = key;
  return out;
}

void read_entries(const yaml::Checker& check, const YAML::Node& root, const std::filesystem::path& path,
                  const RegistrySource& registry, Suite& suite) {
  const auto methods = root["methods"];
  if (!methods) throw ConfigError(fmt::format("{}: methods: missing; a suite needs a list of methods", path.string()));
  check.expect_sequence(methods, "methods");
  if (methods.size() == 0) check.fail(methods, "methods", "the list is empty: a suite must name at least one method");
  const std::filesystem::path suite_dir = std::filesystem::absolute(path).parent_path();
  std::size_t index = 0;
  for (const auto& entry : methods) {
    const std::string key = fmt::format("methods[{}]", index++);
    suite.entries.push_back(read_entry(check, entry, key, registry, suite_dir));
  }
}

void read_comparisons(const yaml::Checker& check, const YAML::Node& root, Suite& suite) {
  if (const auto comparisons = root["comparisons"]) {
    check.expect_sequence(comparisons, "comparisons");
    std::size_t i = 0;
    for (const auto& node : comparisons) {
      suite.comparisons.push_back(read_comparison(check, node, fmt::format("comparisons[{}]", i++)));
    }
  }
}

}  // namespace

Suite load_suite(const std::filesystem::path& path, const Registry& registry) {
  return load_suite(path, RegistrySource([&registry]() -> const Registry& { return registry; }));
}

Suite load_suite(const std::filesystem::path& path, const RegistrySource& registry) {
  const std::string file = path.string();
  const YAML::Node root =
      yaml::load_one_document(file, yaml::read_yaml_file(path, {"suite file", "--config"}),
                              {"a suite needs a few levels",
                               "a suite file holds exactly one (use one file per suite, each given with --config)"});
  const yaml::Checker check(file);
  if (!root.IsMap()) {
    // An empty file (or only comments) has no node to point at: its first line is where the
    // mapping should start.
    const bool empty = root.Mark().is_null();
    throw ConfigError(fmt::format("{}: a suite must be a mapping with a 'methods' list, got {}",
                                  empty ? file + ":1:1" : check.where(root),
                                  empty ? std::string("an empty file") : yaml::describe(root)));
  }
  check.check_keys(root, "", kTopKeys);
  Suite suite;
  suite.path = path;
  suite.name = path.stem().string();
  if (const auto n = root["suite"]) suite.name = check.string_of(n, "suite");
  if (const auto d = root["description"]) suite.description = check.string_of(d, "description");
  if (const auto defaults = root["defaults"]) {
    check.check_keys(defaults, "defaults", kSettingKeys);
    suite.defaults = read_settings(check, defaults, "defaults");
  }
  read_entries(check, root, path, registry, suite);
  if (const auto n = root["interleave"]) {
    const auto value = check.param_of(n, "interleave", ParamType::boolean);
    suite.interleave = std::get<bool>(value);
  }
  if (const auto n = root["max_cases"]) {
    if (n.IsScalar() && n.Scalar().find_first_not_of("0123456789") == std::string::npos && n.Scalar().size() > 6 &&
        std::stoull(n.Scalar().substr(0, 18)) > static_cast<unsigned long long>(kMaxCasesCeiling)) {
      check.fail(n, "max_cases", fmt::format("at most {} ({}), got {}", kMaxCasesCeiling, kMaxCasesWhy, n.Scalar()));
    }
    suite.max_cases = check.int_of(n, "max_cases", 1, kMaxCasesCeiling);
  }
  read_comparisons(check, root, suite);
  return suite;
}

}  // namespace perfzero::config
