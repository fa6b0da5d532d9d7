#pragma once
// One item of a suite's `methods` list: a built-in method (a name or a filter, with its parameters
// typed by the method) or an external command (its argv, working directory, output format and
// parameters), each with its run settings (docs/suites.md).
#include <filesystem>
#include <string>

#include <yaml-cpp/yaml.h>

#include "config/suite.hpp"
#include "config/yaml_checks.hpp"

namespace perfzero::config {

// One item of the 'methods' list; its key is set here so error messages can name it later.
SuiteEntry read_entry(const yaml::Checker& check, const YAML::Node& entry, const std::string& key,
                      const RegistrySource& registry, const std::filesystem::path& suite_dir);

}  // namespace perfzero::config
