#include "config/yaml_checks.hpp"

#include <charconv>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/text.hpp"
#include "config/param_text.hpp"

namespace perfzero::config::yaml {

std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
      return "nothing";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Scalar:
      return "'" + node.Scalar() + "'";
    default:
      return "an undefined value";
  }
}

std::string Checker::where(const YAML::Node& node) const {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return file_;
  return fmt::format("{}:{}:{}", file_, mark.line + 1, mark.column + 1);
}

void Checker::fail(const YAML::Node& node, const std::string& key, const std::string& message) const {
  throw ConfigError(fmt::format("{}: {}: {}", where(node), key, message));
}

void Checker::expect_map(const YAML::Node& node, const std::string& key) const {
  if (!node.IsMap()) fail(node, key, "expected a mapping (key: value lines), got " + describe(node));
}

void Checker::expect_sequence(const YAML::Node& node, const std::string& key) const {
  if (!node.IsSequence()) fail(node, key, "expected a list, got " + describe(node));
}

void Checker::check_keys(const YAML::Node& map, const std::string& key, const std::vector<std::string>& allowed) const {
  expect_map(map, key);
  std::set<std::string> seen;
  for (const auto& item : map) {
    if (!item.first.IsScalar()) fail(item.first, key, "keys must be plain names");
    const std::string name = item.first.Scalar();
    const std::string path = key.empty() ? name : key + "." + name;
    if (!seen.insert(name).second) fail(item.first, path, "this key is given twice");
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      fail(item.first, path,
           fmt::format("unknown key '{}'{} (allowed: {})", name, text::did_you_mean(name, allowed),
                       text::join(allowed, ", ")));
    }
  }
}

std::string Checker::string_of(const YAML::Node& node, const std::string& key) const {
  if (!node.IsScalar()) fail(node, key, "expected a string, got " + describe(node));
  return node.Scalar();
}

int Checker::int_of(const YAML::Node& node, const std::string& key, int min, int max) const {
  if (!node.IsScalar())
    fail(node, key, fmt::format("expected a whole number from {} to {}, got {}", min, max, describe(node)));
  const std::string& s = node.Scalar();
  int value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc{} || ptr != s.data() + s.size() || value < min || value > max) {
    fail(node, key, fmt::format("expected a whole number from {} to {}, got '{}'", min, max, s));
  }
  return value;
}

std::chrono::milliseconds Checker::duration_of(const YAML::Node& node, const std::string& key) const {
  std::string problem = "expected a duration such as 90, 90s, 250ms, 5m or 2h (0 for none)";
  if (node.IsScalar()) {
    if (auto d = text::parse_duration(node.Scalar(), problem)) return *d;
  }
  fail(node, key, problem + ", got " + describe(node));
}

std::map<std::string, std::string> Checker::env_of(const YAML::Node& node, const std::string& key) const {
  expect_map(node, key);
  std::map<std::string, std::string> env;
  for (const auto& item : node) {
    const std::string name = string_of(item.first, key);
    if (name.empty() || name.find('=') != std::string::npos)
      fail(item.first, key, "'" + name + "' is not a variable name");
    // The harness sets these for every child after the suite's env, so a value here would be lost.
    static const std::set<std::string> reserved{"PERFZERO_RESULT_FILE", "PERFZERO_TRIAL_DIR",     "PERFZERO_TRIAL",
                                                "PERFZERO_METHOD",      "PERFZERO_ROOT_DATA_DIR", "PERFZERO_RUN_DIR",
                                                "PERFZERO_HARNESS_PID", "PERFZERO_ATTEMPT",       "TMPDIR"};
    if (reserved.count(name) != 0 || name.rfind("PERFZERO_PARAM_", 0) == 0) {
      fail(item.first, key + "." + name,
           "'" + name + "' is set by perfzero for each trial and cannot be given (docs/suites.md, What a child gets)");
    }
    if (!item.second.IsScalar() && !item.second.IsNull()) {
      fail(item.second, key + "." + name, "expected a string value, got " + describe(item.second));
    }
    env[name] = item.second.IsNull() ? "" : item.second.Scalar();
  }
  return env;
}

std::vector<std::string> Checker::string_list_of(const YAML::Node& node, const std::string& key) const {
  expect_sequence(node, key);
  std::vector<std::string> out;
  std::size_t i = 0;
  for (const auto& item : node) out.push_back(string_of(item, fmt::format("{}[{}]", key, i++)));
  return out;
}

ParamValue Checker::param_of(const YAML::Node& node, const std::string& key, ParamType type) const {
  if (!node.IsScalar()) fail(node, key, fmt::format("expected {} value, got {}", to_string(type), describe(node)));
  const std::string& s = node.Scalar();
  if (auto value = param_from_text(s, type)) return *value;
  fail(node, key, fmt::format("expected {} value, got '{}'", to_string(type), s));
}

ParamValue Checker::untyped_param_of(const YAML::Node& node, const std::string& key) const {
  const std::string s = string_of(node, key);
  // A quoted scalar ("007", '1e3') is a string: yaml-cpp tags it "!". The command gets its bytes.
  if (node.Tag() == "!") return s;
  return untyped_param_from_text(s);
}

}  // namespace perfzero::config::yaml
