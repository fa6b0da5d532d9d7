#include "config/python_settings.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/errors.hpp"
#include "config/param_text.hpp"

namespace perfzero::config {

namespace {

using nlohmann::json;

constexpr int kMaxConstructorArgsDepth = 64;

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// A YAML map as JSON for the class's keyword arguments: maps, lists and null as they are, scalars
// typed by the rules of a command's parameters (config/param_text.hpp).
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
  if (node.Tag() == "!") return node.Scalar();  // quoted: a string whatever it looks like
  // The rules a command's untyped parameters follow: typed only when the typed value prints back as
  // the same text, so 0x10, 1e3, 007 and a 30-digit seed reach the class as the text written.
  const ParamValue value = untyped_param_from_text(node.Scalar());
  if (const auto* b = std::get_if<bool>(&value)) return *b;
  if (const auto* i = std::get_if<std::int64_t>(&value)) return *i;
  if (const auto* d = std::get_if<double>(&value)) return *d;
  return std::get<std::string>(value);
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
      check_python_path_entry(dir, check.where(n) + ": " + child("python_path"));
      const std::filesystem::path p(dir);
      dirs.push_back(p.is_absolute() ? p.string() : (suite_dir / p).lexically_normal().string());
    }
    settings.python_path = std::move(dirs);
  }
  if (const auto n = map["benchmark_class_type"]) {
    settings.class_type = checked_class_type(check.string_of(n, child("benchmark_class_type")),
                                             check.where(n) + ": " + child("benchmark_class_type"));
  }
  if (const auto n = map["constructor_args"]) {
    check.expect_map(n, child("constructor_args"));
    settings.constructor_args = yaml_to_json(check, n, child("constructor_args"), 0).dump();
  }
  return settings;
}

}  // namespace perfzero::config
