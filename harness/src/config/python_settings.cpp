#include "config/python_settings.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/errors.hpp"

namespace perfzero::config {

namespace {

using nlohmann::json;

constexpr int kMaxConstructorArgsDepth = 64;

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// A YAML map as JSON: numbers stay numbers, true/false booleans, null null, the rest strings, as
// PyYAML would read the same text.
json yaml_to_json(const yaml::Checker& check, const YAML::Node& node, const std::string& key, int depth) {
  if (depth > kMaxConstructorArgsDepth) {
    check.fail(node, key, fmt::format("nested deeper than {} levels", kMaxConstructorArgsDepth));
  }
  if (node.IsMap()) {
    json out = json::object();
    for (const auto& item : node) {
      const std::string name = check.string_of(item.first, key);
      out[name] = yaml_to_json(check, item.second, key + "." + name, depth + 1);
    }
    return out;
  }
  if (node.IsSequence()) {
    json out = json::array();
    for (std::size_t i = 0; i < node.size(); ++i) {
      out.push_back(yaml_to_json(check, node[i], fmt::format("{}[{}]", key, i), depth + 1));
    }
    return out;
  }
  if (node.IsNull()) return nullptr;
  const std::string& text = node.Scalar();
  if (node.Tag() == "!") return text;  // quoted: a string whatever it looks like
  if (text == "true" || text == "True") return true;
  if (text == "false" || text == "False") return false;
  try {
    std::size_t used = 0;
    const long long whole = std::stoll(text, &used);
    if (used == text.size()) return whole;
  } catch (const std::exception&) {
  }
  try {
    std::size_t used = 0;
    const double number = std::stod(text, &used);
    if (used == text.size() && std::isfinite(number)) return number;
  } catch (const std::exception&) {
  }
  return text;
}

}  // namespace

const std::vector<std::string>& python_setting_keys() {
  static const std::vector<std::string> keys{"python", "python_path", "benchmark_class_type", "constructor_args"};
  return keys;
}

std::string expand_variables(const std::string& text, const std::string& where) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] != '$' || i + 1 >= text.size()) {
      out += text[i++];
      continue;
    }
    std::string name;
    std::string fallback;
    bool has_fallback = false;
    if (text[i + 1] == '{') {
      const auto close = text.find('}', i + 2);
      if (close == std::string::npos) throw ConfigError(fmt::format("{}: '${{' without its '}}' in '{}'", where, text));
      const std::string inside = text.substr(i + 2, close - i - 2);
      const auto dash = inside.find(":-");
      name = inside.substr(0, dash);
      if (dash != std::string::npos) {
        has_fallback = true;
        fallback = inside.substr(dash + 2);
      }
      i = close + 1;
    } else {
      std::size_t end = i + 1;
      while (end < text.size() && is_name_char(text[end])) ++end;
      if (end == i + 1) {  // a lone '$' is itself
        out += text[i++];
        continue;
      }
      name = text.substr(i + 1, end - i - 1);
      i = end;
    }
    if (name.empty() || !std::all_of(name.begin(), name.end(), is_name_char)) {
      throw ConfigError(fmt::format("{}: '{}' is not a variable name (in '{}')", where, name, text));
    }
    const char* value = std::getenv(name.c_str());
    if (value != nullptr && *value != '\0') {
      out += value;
    } else if (has_fallback) {
      out += fallback;
    } else {
      throw ConfigError(fmt::format("{}: ${} is not set and '{}' gives no default (write ${{{}:-DEFAULT}})", where,
                                    name, text, name));
    }
  }
  return out;
}

std::string checked_class_type(const std::string& value, const std::string& where) {
  if (value == kPerfZeroClassType || value == kTfBenchmarkClassType) return value;
  throw ConfigError(
      fmt::format("{}: expected {} or {}, got '{}'", where, kPerfZeroClassType, kTfBenchmarkClassType, value));
}

std::string checked_constructor_args(const std::string& text, const std::string& where) {
  json parsed;
  try {
    parsed = json::parse(text);
  } catch (const json::exception& e) {
    throw ConfigError(fmt::format("{}: expected a JSON object, e.g. '{{\"batch_size\": 64}}': {}", where, e.what()));
  }
  if (!parsed.is_object()) {
    throw ConfigError(fmt::format("{}: expected a JSON object (keyword arguments), got {}", where, parsed.type_name()));
  }
  return parsed.dump();
}

PythonSettings read_python_settings(const yaml::Checker& check, const YAML::Node& map, const std::string& key,
                                    const std::filesystem::path& suite_dir) {
  PythonSettings settings;
  auto child = [&](const char* name) { return key.empty() ? std::string(name) : key + "." + name; };
  if (const auto n = map["python"]) {
    const std::string given = check.string_of(n, child("python"));
    const std::string expanded = expand_variables(given, check.where(n) + ": " + child("python"));
    if (expanded.empty()) check.fail(n, child("python"), "expected an interpreter (a path or a name on PATH)");
    // A relative path with a '/' is the suite's, as a command's program is.
    const std::filesystem::path p(expanded);
    settings.python = expanded.find('/') != std::string::npos && p.is_relative() ? (suite_dir / p).string() : expanded;
  }
  if (const auto n = map["python_path"]) {
    std::vector<std::string> dirs;
    for (const auto& dir : n.IsScalar() ? std::vector<std::string>{check.string_of(n, child("python_path"))}
                                        : check.string_list_of(n, child("python_path"))) {
      if (dir.empty()) check.fail(n, child("python_path"), "expected directories, got an empty one");
      if (dir.find(':') != std::string::npos) {
        check.fail(n, child("python_path"),
                   "'" + dir + "' holds ':', which PYTHONPATH takes as a separator; give a list of directories");
      }
      const std::filesystem::path p(dir);
      dirs.push_back(p.is_absolute() ? p.string() : (suite_dir / p).lexically_normal().string());
    }
    settings.python_path = std::move(dirs);
  }
  if (const auto n = map["benchmark_class_type"]) {
    const std::string value = check.string_of(n, child("benchmark_class_type"));
    if (value != kPerfZeroClassType && value != kTfBenchmarkClassType) {
      check.fail(n, child("benchmark_class_type"),
                 fmt::format("expected {} or {}, got '{}'", kPerfZeroClassType, kTfBenchmarkClassType, value));
    }
    settings.class_type = value;
  }
  if (const auto n = map["constructor_args"]) {
    check.expect_map(n, child("constructor_args"));
    settings.constructor_args = yaml_to_json(check, n, child("constructor_args"), 0).dump();
  }
  return settings;
}

PythonSettings merged(const std::vector<const PythonSettings*>& layers_low_to_high) {
  PythonSettings out;
  for (const PythonSettings* layer : layers_low_to_high) {
    if (layer->python) out.python = layer->python;
    if (layer->python_path) out.python_path = layer->python_path;
    if (layer->class_type) out.class_type = layer->class_type;
    if (layer->constructor_args) out.constructor_args = layer->constructor_args;
  }
  return out;
}

}  // namespace perfzero::config
