#include "config/plan_builder.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/program_path.hpp"
#include "common/text.hpp"
#include "config/case_dirs.hpp"
#include "config/case_settings.hpp"
#include "config/method_selector.hpp"
#include "config/python_cases.hpp"
#include "redact/redact.hpp"

namespace perfzero::config {

std::string case_name(const std::string& method, const ParamMap& params) {
  if (params.empty()) return method;
  std::vector<std::string> parts;
  // The name lands in directory names, paths and progress lines: a secret parameter's value is hidden.
  for (const auto& [name, value] : params) {
    parts.push_back(name + "=" + redact::redact_value(name, format_param_value(value)));
  }
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

// One point of an entry's launch sweep: the counts it sets, and its part of the case's name.
struct LaunchPoint {
  std::optional<int> nodes;
  std::optional<int> tasks_per_node;
  std::string label;  // "launch.nodes=2,launch.tasks_per_node=4"; "" when nothing is swept
};

// The entry's own list wins over its suite's defaults', and a value on the command line over both
// (then that key is not swept).
std::vector<LaunchPoint> launch_points(const Suite& suite, const SuiteEntry& entry, const PlanInputs& inputs) {
  auto swept = [](const std::optional<int>& flag, const std::optional<int>& own, const std::vector<int>& own_sweep,
                  const std::vector<int>& defaults_sweep) -> std::vector<int> {
    if (flag || own) return {};
    return own_sweep.empty() ? defaults_sweep : own_sweep;
  };
  const auto& own = entry.settings.launch;
  const auto nodes = swept(inputs.flags.launch.nodes, own.nodes, own.nodes_sweep, suite.defaults.launch.nodes_sweep);
  const auto tasks = swept(inputs.flags.launch.tasks_per_node, own.tasks_per_node, own.tasks_per_node_sweep,
                           suite.defaults.launch.tasks_per_node_sweep);
  std::vector<LaunchPoint> points;
  const std::vector<std::optional<int>> node_values = nodes.empty()
                                                          ? std::vector<std::optional<int>>{std::nullopt}
                                                          : std::vector<std::optional<int>>(nodes.begin(), nodes.end());
  const std::vector<std::optional<int>> task_values = tasks.empty()
                                                          ? std::vector<std::optional<int>>{std::nullopt}
                                                          : std::vector<std::optional<int>>(tasks.begin(), tasks.end());
  for (const auto& n : node_values) {
    for (const auto& t : task_values) {
      LaunchPoint p{n, t, ""};
      if (n) p.label = fmt::format("launch.nodes={}", *n);
      if (t) p.label += fmt::format("{}launch.tasks_per_node={}", p.label.empty() ? "" : ",", *t);
      points.push_back(std::move(p));
    }
  }
  return points;
}

// Sets a sweep point's counts on a case made for the entry, and names it for them.
void apply_launch_point(const LaunchPoint& point, PlannedCase& c) {
  if (point.label.empty()) return;
  if (point.nodes) c.launch.nodes = *point.nodes;
  if (point.tasks_per_node) c.launch.tasks_per_node = *point.tasks_per_node;
  c.name = c.name.ends_with(']') ? c.name.substr(0, c.name.size() - 1) + "," + point.label + "]"
                                 : c.name + "[" + point.label + "]";
  if (const std::string problem = launch_problem(c.launch); !problem.empty()) {
    throw ConfigError(fmt::format("{}: launch: {} (at {})", c.origin, problem, point.label));
  }
}

// How many cases an entry expands to, counted without expanding: a product of list sizes, in
// long double so that no count overflows (1e10 is exact, larger ones are only compared).
long double count_cases(const SuiteEntry& entry) {
  auto product = [](const std::vector<ParamAxis>& axes) {
    long double n = 1;
    for (const auto& axis : axes) n *= static_cast<long double>(axis.values.size());
    return n;
  };
  if (entry.external) return product(entry.external_axes);
  long double n = 0;
  for (const auto& axes : entry.axes) n += product(axes);
  return n;
}

// `listed`: how many methods a Python entry's name selected (known only once the interpreter said).
void check_case_count(const Suite& suite, const SuiteEntry& entry, const PlanInputs& inputs, long double& total,
                      std::size_t listed = 1) {
  const std::uint64_t limit = inputs.max_cases.value_or(suite.max_cases.value_or(kDefaultMaxCases));
  const long double count = count_cases(entry) * static_cast<long double>(listed) *
                            static_cast<long double>(launch_points(suite, entry, inputs).size());
  total += count;
  if (total <= static_cast<long double>(limit)) return;
  const char* source = inputs.max_cases ? "--max_cases" : suite.max_cases ? "the suite's max_cases" : "the default";
  throw ConfigError(
      fmt::format("{}: {}: expands to {:.0f} cases ({:.0f} in the run so far), over the limit of {} "
                  "({}; raise it with --max_cases=N or the suite key max_cases)",
                  entry.origin, entry.key, count, total, limit, source));
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

// The program is looked up as the launcher will: relative to the working directory when it holds a
// '/', else on the PATH the child gets (the suite's env may set one).
void check_command_exists(const SuiteEntry& entry, const std::string& program,
                          const std::map<std::string, std::string>& env, const std::string& path_env) {
  if (program.find('/') != std::string::npos) {
    const std::filesystem::path p =
        std::filesystem::path(program).is_absolute() ? std::filesystem::path(program) : entry.working_dir / program;
    if (!files::is_executable_file(p)) {
      throw ConfigError(
          fmt::format("{}: command: '{}' is not an executable file (looked at {})", entry.origin, program, p.string()));
    }
    return;
  }
  const auto env_path = env.find("PATH");
  const std::string search = env_path != env.end() ? env_path->second : path_env;
  if (!files::find_program(program, search).empty()) return;
  throw ConfigError(fmt::format("{}: command: '{}' was not found on PATH ({})", entry.origin, program, search));
}

// Suites are resolved against the catalog's registry, so only a suite loaded against another
// registry (a programming error) can name a method that no worker runs.
std::filesystem::path worker_for(const method_catalog::Catalog& catalog, const std::string& method,
                                 const std::string& origin) {
  const method_catalog::Worker* worker = catalog.worker_of(method);
  if (worker == nullptr) throw ConfigError(fmt::format("{}: no installed worker runs {}", origin, method));
  return worker->executable;
}

// The plan in order of first appearance; a name seen again must come with the same settings.
class PlanCollector {
 public:
  void add(PlannedCase c) {
    const auto [at, inserted] = names_.emplace(c.name, plan_.size());
    if (inserted) {
      plan_.push_back(std::move(c));
    } else {
      check_same_settings(plan_[at->second], c);
      // Asked for by a flag and by a suite that names its main metric: the suite's is kept.
      if (plan_[at->second].main_metric.empty()) plan_[at->second].main_metric = c.main_metric;
    }
  }
  bool contains(const std::string& name) const { return names_.count(name) != 0; }
  // Where the case of that name came from (file:line:column or a flag); it must exist.
  const std::string& origin_of(const std::string& name) const { return plan_[names_.at(name)].origin; }
  // Whether the case already planned under c's name runs the same Python method the same way.
  bool same_python_method(const PlannedCase& c) const {
    const PlannedCase& planned = plan_[names_.at(c.name)];
    return planned.python && c.python && *planned.python == *c.python && planned.method == c.method;
  }
  std::size_t size() const { return plan_.size(); }
  std::vector<PlannedCase> take() { return std::move(plan_); }

 private:
  std::vector<PlannedCase> plan_;
  std::map<std::string, std::size_t> names_;  // name -> index in plan_
};

void ask_flag_python_names(const PlanInputs& inputs, PythonNames& names) {
  const RunSettings none;
  for (const auto& spec_list : inputs.method_specs) {
    for (const auto& spec : text::split(spec_list, ',')) {
      if (text::trim(spec).empty() || !is_python_name(inputs, spec)) continue;
      const PlannedCase c = with_settings({&none, &inputs.flags}, "--benchmark_methods");
      names.ask(python_how(inputs, {&inputs.python_flags}, c.env, "--benchmark_methods"), text::trim(spec),
                "--benchmark_methods");
    }
  }
}

void add_flag_methods(const PlanInputs& inputs, const PythonNames& names, PlanCollector& plan) {
  const RunSettings none;
  for (const auto& spec_list : inputs.method_specs) {
    for (const auto& spec : text::split(spec_list, ',')) {
      if (text::trim(spec).empty()) continue;
      if (is_python_name(inputs, spec)) {
        PlannedCase base = with_settings({&none, &inputs.flags}, "--benchmark_methods");
        const PythonMethod how = python_how(inputs, {&inputs.python_flags}, base.env, "--benchmark_methods");
        for (const PythonListed& listed : names.methods(how, text::trim(spec))) {
          PlannedCase c = base;
          c.origin = "--benchmark_methods";
          make_python_case(inputs, how, listed, c);
          c.name = c.method;
          plan.add(std::move(c));
        }
        continue;
      }
      for (const MethodInfo* method : select_methods(spec, "--benchmark_methods", inputs.catalog->registry())) {
        PlannedCase c = with_settings({&none, &inputs.flags}, "--benchmark_methods");
        c.method = method->full_name();
        c.name = c.method;
        c.description = method->description;
        c.origin = "--benchmark_methods";
        c.worker = worker_for(*inputs.catalog, c.method, c.origin);
        plan.add(std::move(c));
      }
    }
  }
}

void add_external_entry(const Suite& suite, const SuiteEntry& entry, const PlanInputs& inputs, PlanCollector& plan) {
  ParamMap bindir;
  bindir["bindir"] = inputs.bin_dir;
  std::set<std::pair<std::string, std::string>> checked;  // (program, PATH): a sweep checks each once
  const auto launches = launch_points(suite, entry, inputs);
  for (const ParamMap& point : expand(entry.external_axes)) {
    for (const LaunchPoint& launch : launches) {
      PlannedCase c = with_settings({&suite.defaults, &entry.settings, &inputs.flags}, entry.origin);
      c.external = true;
      c.method = entry.name;
      c.name = case_name(entry.name, point);
      c.description = entry.description;
      c.params = point;
      for (const auto& arg : entry.argv) c.command.argv.push_back(substitute(substitute(arg, point), bindir));
      const auto path = c.env.find("PATH");
      if (checked.emplace(c.command.argv[0], path != c.env.end() ? path->second : inputs.path_env).second) {
        check_command_exists(entry, c.command.argv[0], c.env, inputs.path_env);
      }
      c.command.working_dir = entry.working_dir;
      c.command.output = entry.output;
      c.command.metric_directions = entry.metric_directions;
      c.main_metric = entry.main_metric;
      c.origin = entry.origin;
      apply_launch_point(launch, c);
      if (plan.contains(c.name)) {
        throw ConfigError(fmt::format("{}: name: '{}' is already used by another method of this run (at {})",
                                      entry.origin, c.name, plan.origin_of(c.name)));
      }
      plan.add(std::move(c));
    }
  }
}

PythonMethod entry_python_how(const Suite& suite, const SuiteEntry& entry, const PlanInputs& inputs) {
  const PlannedCase c = with_settings({&suite.defaults, &entry.settings, &inputs.flags}, entry.origin);
  return python_how(inputs, {&suite.python_defaults, &entry.python, &inputs.python_flags}, c.env, entry.origin);
}

void add_python_entry(const Suite& suite, const SuiteEntry& entry, const PlanInputs& inputs, const PythonNames& names,
                      PlanCollector& plan) {
  const PythonMethod how = entry_python_how(suite, entry, inputs);
  const auto& listed = names.methods(how, entry.python_spec);
  if (!entry.name.empty() && listed.size() > 1) {
    throw ConfigError(fmt::format("{}: name: '{}' can name one method, but '{}' selects {}", entry.origin, entry.name,
                                  entry.python_spec, listed.size()));
  }
  for (const LaunchPoint& launch : launch_points(suite, entry, inputs)) {
    for (const PythonListed& method : listed) {
      PlannedCase c = with_settings({&suite.defaults, &entry.settings, &inputs.flags}, entry.origin);
      c.description = entry.description;
      c.origin = entry.origin;
      make_python_case(inputs, how, method, c);
      c.name = entry.name.empty() ? c.method : entry.name;
      c.command.metric_directions = entry.metric_directions;
      c.main_metric = entry.main_metric;
      apply_launch_point(launch, c);
      // The same Python method asked for again (by a flag and a suite, say) runs once, as a built-in
      // does; under the same name, a command or another interpreter's method is another method.
      if (plan.contains(c.name) && !plan.same_python_method(c)) {
        throw ConfigError(fmt::format("{}: '{}' is already used by another method of this run (at {})", entry.origin,
                                      c.name, plan.origin_of(c.name)));
      }
      plan.add(std::move(c));
    }
  }
}

void add_builtin_entry(const Suite& suite, const SuiteEntry& entry, const PlanInputs& inputs, PlanCollector& plan) {
  const auto launches = launch_points(suite, entry, inputs);
  for (std::size_t i = 0; i < entry.methods.size(); ++i) {
    for (const ParamMap& point : expand(entry.axes[i])) {
      for (const LaunchPoint& launch : launches) {
        PlannedCase c = with_settings({&suite.defaults, &entry.settings, &inputs.flags}, entry.origin);
        c.method = entry.methods[i]->full_name();
        c.name = case_name(c.method, point);
        c.description = entry.methods[i]->description;
        c.params = point;
        c.origin = entry.origin;
        c.main_metric = entry.main_metric;
        c.worker = worker_for(*inputs.catalog, c.method, c.origin);
        apply_launch_point(launch, c);
        plan.add(std::move(c));
      }
    }
  }
}

}  // namespace

std::vector<PlannedCase> build_plan(const PlanInputs& inputs) {
  if (inputs.catalog == nullptr) throw std::logic_error("build_plan: PlanInputs::catalog is not set");
  PythonNames python_names(inputs.list_python);
  ask_flag_python_names(inputs, python_names);
  for (const Suite& suite : inputs.suites) {
    for (const SuiteEntry& entry : suite.entries) {
      if (!entry.is_python()) continue;
      if (!inputs.list_python) {
        throw ConfigError(fmt::format("{}: python_method: this command cannot run Python methods", entry.origin));
      }
      python_names.ask(entry_python_how(suite, entry, inputs), entry.python_spec, entry.origin);
    }
  }
  try {
    python_names.resolve();
  } catch (const ConfigError& e) {
    throw ConfigError(std::string(e.what()) + builtin_suggestions(inputs));
  }

  PlanCollector plan;
  add_flag_methods(inputs, python_names, plan);

  long double total = static_cast<long double>(plan.size());
  for (const Suite& suite : inputs.suites) {
    for (const SuiteEntry& entry : suite.entries) {
      check_case_count(suite, entry, inputs, total,
                       entry.is_python()
                           ? python_names.methods(entry_python_how(suite, entry, inputs), entry.python_spec).size()
                           : 1);
      if (entry.is_python()) {
        add_python_entry(suite, entry, inputs, python_names, plan);
      } else if (entry.external) {
        add_external_entry(suite, entry, inputs, plan);
      } else {
        add_builtin_entry(suite, entry, inputs, plan);
      }
    }
  }
  std::vector<PlannedCase> cases = plan.take();
  assign_case_dirs(cases);
  return cases;
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
