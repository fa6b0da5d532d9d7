#pragma once
// Shape checks for YAML suites that produce errors with file:line:column, the key and what was
// expected. yaml-cpp types stay inside config/.
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "perfzero/param.hpp"

namespace perfzero::config::yaml {

class Checker {
 public:
  explicit Checker(std::string file) : file_(std::move(file)) {}

  std::string where(const YAML::Node& node) const;
  [[noreturn]] void fail(const YAML::Node& node, const std::string& key, const std::string& message) const;

  // Each key of `map` must be in `allowed`; duplicates and unknown keys fail with a suggestion.
  void check_keys(const YAML::Node& map, const std::string& key, const std::vector<std::string>& allowed) const;
  void expect_map(const YAML::Node& node, const std::string& key) const;
  void expect_sequence(const YAML::Node& node, const std::string& key) const;
  std::string string_of(const YAML::Node& node, const std::string& key) const;
  int int_of(const YAML::Node& node, const std::string& key, int min, int max) const;
  std::chrono::milliseconds duration_of(const YAML::Node& node, const std::string& key) const;
  std::map<std::string, std::string> env_of(const YAML::Node& node, const std::string& key) const;
  std::vector<std::string> string_list_of(const YAML::Node& node, const std::string& key) const;
  ParamValue param_of(const YAML::Node& node, const std::string& key, ParamType type) const;
  // For external commands, which declare no types: integer, then number, then boolean, then string;
  // a quoted value, or one whose typed form would print differently, stays a string.
  ParamValue untyped_param_of(const YAML::Node& node, const std::string& key) const;

  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

std::string describe(const YAML::Node& node);

}  // namespace perfzero::config::yaml
