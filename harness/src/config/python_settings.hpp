#pragma once
// A suite's Python keys (docs/python.md): `python`, `python_path`, `benchmark_class_type` and
// `constructor_args`, in `defaults` or on a `python_method` entry, and the same values as flags.
#include <filesystem>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "config/python_method.hpp"
#include "config/yaml_checks.hpp"

namespace perfzero::config {

// The keys read_python_settings() takes.
const std::vector<std::string>& python_setting_keys();

// The Python keys in `map` (others are left alone); relative python_path entries are relative to
// the suite's directory. Throws ConfigError naming the key.
PythonSettings read_python_settings(const yaml::Checker& check, const YAML::Node& map, const std::string& key,
                                    const std::filesystem::path& suite_dir);

// $VAR, ${VAR} and ${VAR:-default} from the environment: the only key that takes them is `python`,
// so one suite can name Debian's interpreter for PyTorch and a virtual environment's for TensorFlow
// (PERFZERO_TORCH_PYTHON, PERFZERO_TENSORFLOW_PYTHON) and each machine set its own. Throws
// ConfigError for an unclosed ${ or a variable that is unset and has no default.
std::string expand_variables(const std::string& text, const std::string& where);

// "perfzero" or "tf_benchmark"; throws ConfigError naming `where` for anything else.
std::string checked_class_type(const std::string& value, const std::string& where);

// A JSON object's text, checked (PerfZero's --perfzero_constructor_args is one); throws ConfigError.
std::string checked_constructor_args(const std::string& text, const std::string& where);

}  // namespace perfzero::config
