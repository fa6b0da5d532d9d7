#pragma once
// The run settings of a suite (trials, their limits, the time-out, env, launch: docs/suites.md), as
// its `defaults` and each entry of its `methods` give them.
#include <string>

#include <yaml-cpp/yaml.h>

#include "config/run_plan.hpp"
#include "config/yaml_checks.hpp"

namespace perfzero::config {

// The settings in `map`; `key` is where it stands ("defaults", "methods[N]"), for error messages.
// Throws ConfigError for anything wrong.
RunSettings read_settings(const yaml::Checker& check, const YAML::Node& map, const std::string& key);

}  // namespace perfzero::config
