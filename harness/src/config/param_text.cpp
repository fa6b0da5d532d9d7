#include "config/param_text.hpp"

#include <charconv>
#include <cmath>
#include <set>

namespace perfzero::config {

namespace {

bool parse_int64(const std::string& s, std::int64_t& out) {
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc{} && ptr == s.data() + s.size() && !s.empty();
}

bool parse_double(const std::string& s, double& out) {
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc{} && ptr == s.data() + s.size() && !s.empty() && std::isfinite(out);
}

bool parse_bool(const std::string& s, bool& out) {
  static const std::set<std::string> yes{"true", "True", "TRUE", "yes", "Yes", "on", "On"};
  static const std::set<std::string> no{"false", "False", "FALSE", "no", "No", "off", "Off"};
  if (yes.count(s) != 0) {
    out = true;
    return true;
  }
  if (no.count(s) != 0) {
    out = false;
    return true;
  }
  return false;
}

}  // namespace

std::optional<ParamValue> param_from_text(const std::string& text, ParamType type) {
  switch (type) {
    case ParamType::integer: {
      std::int64_t v = 0;
      if (parse_int64(text, v)) return v;
      break;
    }
    case ParamType::number: {
      double v = 0;
      if (parse_double(text, v)) return v;
      break;
    }
    case ParamType::boolean: {
      bool v = false;
      if (parse_bool(text, v)) return v;
      break;
    }
    case ParamType::string:
      return text;
  }
  return std::nullopt;
}

ParamValue untyped_param_from_text(const std::string& text) {
  ParamValue typed = text;
  std::int64_t i = 0;
  double d = 0;
  bool b = false;
  if (parse_int64(text, i)) {
    typed = i;
  } else if (parse_double(text, d)) {
    typed = d;
  } else if (parse_bool(text, b)) {
    typed = b;
  }
  return format_param_value(typed) == text ? typed : ParamValue{text};
}

}  // namespace perfzero::config
