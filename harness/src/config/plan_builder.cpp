#include "config/plan_builder.hpp"

#include <unistd.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/text.hpp"
#include "config/method_selector.hpp"

namespace perfzero::config {

std::string case_name(const std::string& method, const ParamMap& params) {
  if (params.empty()) return method;
  std::vector<std::string> parts;
  for (const auto& [name, value] : params) parts.push_back(name + "=" + format_param_value(value));
  return method + "[" + text::join(parts, ",") + "]";
}

namespace {

// Every combination of the axes' values (their cartesian product), in a stable order.
std::vector<ParamMap> expand(const std::vector<ParamAxis>& axes) {
  std::vector<ParamMap> points{ParamMap{}};
  for (const auto& axis : axes) {
    std::vector<ParamMap> next;
    for (const auto& point : points) {
      for (const auto& value : axis.values) {
        ParamMap p = point;
        p[axis.name] = value;
        next.push_back(std::move(p));
      }
    }
    points = std::move(next);
  }
  return points;
}

void apply(const RunSettings& layer, PlannedCase& c) {
  if (layer.trials) c.trials = *layer.trials;
  if (layer.warmup_trials) c.warmup_trials = *layer.warmup_trials;
  if (layer.timeout) c.timeout = *layer.timeout;
  if (layer.monitor_interval) c.monitor_interval = *layer.monitor_interval;
  if (layer.max_result_bytes) c.max_result_bytes = *layer.max_result_bytes;
  if (layer.max_log_bytes) c.max_log_bytes = *layer.max_log_bytes;
  for (const auto& [k, v] : layer.env) c.env[k] = v;
}

PlannedCase with_settings(const std::vector<const RunSettings*>& layers_low_to_high) {
  PlannedCase c;
  c.timeout = kDefaultTimeout;
  c.monitor_interval = kDefaultMonitorInterval;
  c.max_result_bytes = kDefaultMaxResultBytes;
  c.max_log_bytes = kDefaultMaxLogBytes;
  for (const RunSettings* layer : layers_low_to_high) apply(*layer, c);
  return c;
}

std::string substitute(const std::string& arg, const ParamMap& params) {
  std::string out = arg;
  for (const auto& [name, value] : params) {
    const std::string placeholder = "{" + name + "}";
    for (auto at = out.find(placeholder); at != std::string::npos; at = out.find(placeholder, at)) {
      const std::string text = format_param_value(value);
      out.replace(at, placeholder.size(), text);
      at += text.size();
    }
  }
  return out;
}

bool is_executable(const std::filesystem::path& path) {
  return std::filesystem::is_regular_file(path) && ::access(path.c_str(), X_OK) == 0;
}

void check_command_exists(const SuiteEntry& entry, const std::string& program, const std::string& path_env) {
  if (program.find('/') != std::string::npos) {
    const std::filesystem::path p =
        std::filesystem::path(program).is_absolute() ? std::filesystem::path(program) : entry.working_dir / program;
    if (!is_executable(p)) {
      throw ConfigError(
          fmt::format("{}: command: '{}' is not an executable file (looked at {})", entry.origin, program, p.string()));
    }
    return;
  }
  const auto env_path = entry.settings.env.find("PATH");
  const std::string search = env_path != entry.settings.env.end() ? env_path->second : path_env;
  for (const auto& dir : text::split(search, ':')) {
    if (!dir.empty() && is_executable(std::filesystem::path(dir) / program)) return;
  }
  throw ConfigError(fmt::format("{}: command: '{}' was not found on PATH ({})", entry.origin, program, search));
}

// Suites are resolved against the catalog's registry, so only a suite loaded against another
// registry (a programming error) can name a method that no worker runs.
std::filesystem::path worker_for(const catalog::Catalog& catalog, const std::string& method,
                                 const std::string& origin) {
  const catalog::Worker* worker = catalog.worker_of(method);
  if (worker == nullptr) throw ConfigError(fmt::format("{}: no installed worker runs {}", origin, method));
  return worker->executable;
}

}  // namespace

std::vector<PlannedCase> build_plan(const PlanInputs& inputs) {
  if (inputs.catalog == nullptr) throw std::logic_error("build_plan: PlanInputs::catalog is not set");
  std::vector<PlannedCase> plan;
  std::set<std::string> names;
  const RunSettings none;
  auto add = [&](PlannedCase c) {
    // The same method and parameters asked for twice (say by a filter and by name) runs once.
    if (names.insert(c.name).second) plan.push_back(std::move(c));
  };

  for (const auto& spec_list : inputs.method_specs) {
    for (const auto& spec : text::split(spec_list, ',')) {
      if (text::trim(spec).empty()) continue;
      for (const MethodInfo* method : select_methods(spec, "--benchmark_methods", inputs.catalog->registry())) {
        PlannedCase c = with_settings({&none, &inputs.flags});
        c.method = method->full_name();
        c.name = c.method;
        c.description = method->description;
        c.origin = "--benchmark_methods";
        c.worker = worker_for(*inputs.catalog, c.method, c.origin);
        add(std::move(c));
      }
    }
  }

  for (const Suite& suite : inputs.suites) {
    for (const SuiteEntry& entry : suite.entries) {
      if (entry.external) {
        ParamMap bindir;
        bindir["bindir"] = inputs.bin_dir;
        check_command_exists(entry, substitute(entry.argv[0], bindir), inputs.path_env);
        for (const ParamMap& point : expand(entry.external_axes)) {
          PlannedCase c = with_settings({&suite.defaults, &entry.settings, &inputs.flags});
          c.external = true;
          c.method = entry.name;
          c.name = case_name(entry.name, point);
          c.description = entry.description;
          c.params = point;
          for (const auto& arg : entry.argv) c.command.argv.push_back(substitute(substitute(arg, point), bindir));
          c.command.working_dir = entry.working_dir;
          c.command.output = entry.output;
          c.origin = entry.origin;
          if (names.count(c.name) != 0) {
            throw ConfigError(
                fmt::format("{}: name: '{}' is already used by another method of this run", entry.origin, c.name));
          }
          add(std::move(c));
        }
        continue;
      }
      for (std::size_t i = 0; i < entry.methods.size(); ++i) {
        for (const ParamMap& point : expand(entry.axes[i])) {
          PlannedCase c = with_settings({&suite.defaults, &entry.settings, &inputs.flags});
          c.method = entry.methods[i]->full_name();
          c.name = case_name(c.method, point);
          c.description = entry.methods[i]->description;
          c.params = point;
          c.origin = entry.origin;
          c.worker = worker_for(*inputs.catalog, c.method, c.origin);
          add(std::move(c));
        }
      }
    }
  }
  return plan;
}

std::vector<Comparison> collect_comparisons(const std::vector<Suite>& suites, const std::vector<PlannedCase>& plan) {
  std::vector<std::string> names;
  names.reserve(plan.size());
  for (const auto& c : plan) names.push_back(c.name);
  std::vector<Comparison> out;
  for (const Suite& suite : suites) {
    for (const Comparison& c : suite.comparisons) {
      for (const auto& name : {c.ours_case, c.theirs_case}) {
        if (std::find(names.begin(), names.end(), name) == names.end()) {
          throw ConfigError(fmt::format("{}: comparison '{}' names '{}', which this run does not run{}", c.origin,
                                        c.name, name, text::did_you_mean(name, names)));
        }
      }
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace perfzero::config
