#include "config/suite.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "config/python_settings.hpp"
#include "config/suite_entry.hpp"
#include "config/suite_settings.hpp"
#include "config/yaml_checks.hpp"
#include "config/yaml_document.hpp"
#include "config/yaml_file.hpp"

namespace perfzero::config {

namespace {

const std::vector<std::string> kTopKeys{"suite",       "description", "defaults",  "methods",
                                        "comparisons", "interleave",  "max_cases", "host_busy_threshold"};

const std::vector<std::string> kComparisonKeys{"name", "ours", "theirs", "goal"};
const std::vector<std::string> kSideKeys{"method", "metric"};
const std::vector<std::string> kSettingKeys{
    "trials",   "warmup_trials", "timeout",          "monitor_interval_ms", "min_trials", "max_trials", "min_time",
    "max_time", "max_noise",     "max_result_bytes", "max_log_bytes",       "env",        "launch"};

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
    std::vector<std::string> keys = kSettingKeys;
    keys.insert(keys.end(), python_setting_keys().begin(), python_setting_keys().end());
    check.check_keys(defaults, "defaults", keys);
    suite.defaults = read_settings(check, defaults, "defaults");
    suite.python_defaults =
        read_python_settings(check, defaults, "defaults", std::filesystem::absolute(path).parent_path());
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
  if (const auto n = root["host_busy_threshold"]) {
    const double cpus = std::get<double>(check.param_of(n, "host_busy_threshold", ParamType::number));
    if (!(cpus > 0 && cpus <= kMaxHostBusyThresholdCpus)) {
      check.fail(n, "host_busy_threshold",
                 fmt::format("a number of CPUs more than 0 and at most {:g}, got {}", kMaxHostBusyThresholdCpus, cpus));
    }
    suite.host_busy_threshold = cpus;
  }
  read_comparisons(check, root, suite);
  return suite;
}

std::optional<double> host_busy_threshold_of(const std::vector<Suite>& suites) {
  const Suite* first = nullptr;
  for (const auto& s : suites) {
    if (!s.host_busy_threshold) continue;
    if (first != nullptr && *first->host_busy_threshold != *s.host_busy_threshold) {
      throw ConfigError(
          fmt::format("{}: host_busy_threshold: {:g}, but {} says {:g}; one run has one threshold "
                      "(--host_busy_threshold chooses)",
                      s.path.string(), *s.host_busy_threshold, first->path.string(), *first->host_busy_threshold));
    }
    if (first == nullptr) first = &s;
  }
  return first != nullptr ? first->host_busy_threshold : std::nullopt;
}

std::optional<double> host_busy_threshold_for(std::optional<double> flag, const std::vector<Suite>& suites) {
  return flag ? flag : host_busy_threshold_of(suites);
}

}  // namespace perfzero::config
