#include "config/suite_entry.hpp"

#include <algorithm>
#include <map>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "common/text.hpp"
#include "config/method_selector.hpp"
#include "config/output_format.hpp"
#include "config/python_settings.hpp"
#include "config/suite_settings.hpp"

namespace perfzero::config {

namespace {

const std::vector<std::string> kBuiltinKeys{
    "method",        "params",     "trials",   "warmup_trials", "timeout",   "monitor_interval_ms",
    "min_trials",    "max_trials", "min_time", "max_time",      "max_noise", "max_result_bytes",
    "max_log_bytes", "env",        "launch",   "main_metric"};
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
                                            "main_metric",
                                            "launch"};

// python_method: a PerfZero class's methods; its run keys as a command's, but no params (a
// PerfZero method takes none) and no command of its own.
const std::vector<std::string>& python_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k{"python_method", "name",
                               "description",   "trials",
                               "timeout",       "env",
                               "warmup_trials", "monitor_interval_ms",
                               "min_trials",    "max_trials",
                               "min_time",      "max_time",
                               "max_noise",     "max_result_bytes",
                               "max_log_bytes", "metric_directions",
                               "main_metric",   "launch"};
    k.insert(k.end(), python_setting_keys().begin(), python_setting_keys().end());
    return k;
  }();
  return keys;
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

// main_metric: triad_bandwidth. The metric `perfzero report` ranks the method by; a name only, as
// the method reports it (which metrics a method reports is known once it ran).
std::string read_main_metric(const yaml::Checker& check, const YAML::Node& entry, const std::string& key) {
  const auto node = entry["main_metric"];
  if (!node) return "";
  std::string name = text::trim(check.string_of(node, key + ".main_metric"));
  const bool printable =
      std::all_of(name.begin(), name.end(), [](char ch) { return static_cast<unsigned char>(ch) >= 0x20; });
  if (name.empty() || !printable) {
    check.fail(node, key + ".main_metric", "expected the name of a metric the method reports, e.g. triad_bandwidth");
  }
  return name;
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
  out.main_metric = read_main_metric(check, entry, key);
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
  out.main_metric = read_main_metric(check, entry, key);
  out.settings = read_settings(check, entry, key);
  return out;
}

SuiteEntry read_python(const yaml::Checker& check, const YAML::Node& entry, const std::string& key,
                       const std::filesystem::path& suite_dir) {
  check.check_keys(entry, key, python_keys());
  SuiteEntry out;
  out.external = true;
  out.origin = check.where(entry);
  out.python_spec = text::trim(check.string_of(entry["python_method"], key + ".python_method"));
  if (out.python_spec.find('.') == std::string::npos) {
    check.fail(entry["python_method"], key + ".python_method",
               "expected MODULE.CLASS.METHOD, MODULE.CLASS:METHOD or MODULE.CLASS.filter:REGEX, got '" +
                   out.python_spec + "'");
  }
  if (const auto n = entry["name"]) {
    out.name = check.string_of(n, key + ".name");
    if (out.name.empty() || out.name.find('/') != std::string::npos) {
      check.fail(n, key + ".name", "expected a non-empty name without '/'");
    }
  }
  if (const auto d = entry["description"]) out.description = check.string_of(d, key + ".description");
  if (const auto d = entry["metric_directions"])
    out.metric_directions = read_directions(check, d, key + ".metric_directions");
  out.python = read_python_settings(check, entry, key, suite_dir);
  out.main_metric = read_main_metric(check, entry, key);
  out.settings = read_settings(check, entry, key);
  return out;
}

}  // namespace

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
  if ((entry["method"] ? 1 : 0) + (entry["command"] ? 1 : 0) + (entry["python_method"] ? 1 : 0) > 1) {
    check.fail(entry, key,
               "give one of 'method' (a built-in), 'command' (an external program) or 'python_method' (a Python "
               "class's method), not several");
  }
  SuiteEntry out;
  if (entry["method"]) {
    out = read_builtin(check, entry, key, registry);
  } else if (entry["command"]) {
    out = read_command(check, entry, key, suite_dir);
  } else if (entry["python_method"]) {
    out = read_python(check, entry, key, suite_dir);
  } else {
    check.fail(entry, key,
               "expected a 'method' (a built-in benchmark), a 'command' (an external program) or a "
               "'python_method' (a Python class's method)");
  }
  out.key = key;
  return out;
}

}  // namespace perfzero::config
