#pragma once
// A strict parser of InfluxDB line protocol, written from InfluxDB 1.x's documentation
// ("Line protocol syntax" and "Line protocol tutorial"), independent of the exporter: tests parse
// every exported line with it and compare what it reads with the model. Header-only.
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace perfzero::testing {

struct LineField {
  char type = 'f';   // f: float, i: integer, s: string, b: boolean
  std::string text;  // a string's content, unescaped; a number as written
};

struct LinePoint {
  std::string measurement;
  std::map<std::string, std::string> tags;
  std::map<std::string, LineField> fields;
  std::optional<std::int64_t> timestamp;
};

namespace line_protocol_detail {

// An identifier up to the first unescaped character of `stops`; the only escapes are a backslash
// before one of `escapable`.
inline bool read_ident(const std::string& line, std::size_t& pos, const std::string& stops,
                       const std::string& escapable, std::string& out, std::string& problem) {
  out.clear();
  while (pos < line.size() && stops.find(line[pos]) == std::string::npos) {
    if (line[pos] == '\\') {
      if (pos + 1 >= line.size() || escapable.find(line[pos + 1]) == std::string::npos) {
        problem = "a backslash that escapes nothing at column " + std::to_string(pos + 1);
        return false;
      }
      ++pos;
    } else if (line[pos] == '"' && out.empty() && stops.find('=') != std::string::npos) {
      problem = "a key starting with a quote";
      return false;
    }
    out += line[pos++];
  }
  if (out.empty()) problem = "an empty name or value at column " + std::to_string(pos + 1);
  return !out.empty();
}

inline bool read_field_value(const std::string& line, std::size_t& pos, LineField& f, std::string& problem) {
  if (pos < line.size() && line[pos] == '"') {
    f.type = 's';
    for (++pos; pos < line.size() && line[pos] != '"'; ++pos) {
      if (line[pos] == '\\' && pos + 1 < line.size() && (line[pos + 1] == '"' || line[pos + 1] == '\\')) ++pos;
      f.text += line[pos];
    }
    if (pos >= line.size()) return problem = "an unterminated string field", false;
    ++pos;
    return true;
  }
  const std::size_t end = line.find_first_of(", ", pos);
  f.text = line.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
  pos = end == std::string::npos ? line.size() : end;
  static const std::string bools[] = {"t", "T", "true", "True", "TRUE", "f", "F", "false", "False", "FALSE"};
  for (const auto& b : bools) {
    if (f.text == b) return f.type = 'b', true;
  }
  char* stop = nullptr;
  if (!f.text.empty() && f.text.back() == 'i') {
    f.type = 'i';
    const std::string digits = f.text.substr(0, f.text.size() - 1);
    std::strtoll(digits.c_str(), &stop, 10);
    if (digits.empty() || stop != digits.c_str() + digits.size()) return problem = "a bad integer " + f.text, false;
    return true;
  }
  // Floats: decimal or exponent notation; NaN and infinities are not line protocol.
  if (f.text.empty() || f.text.find_first_not_of("0123456789+-.eE") != std::string::npos) {
    return problem = "a bad field value '" + f.text + "'", false;
  }
  std::strtod(f.text.c_str(), &stop);
  if (stop != f.text.c_str() + f.text.size()) return problem = "a bad float " + f.text, false;
  return true;
}

}  // namespace line_protocol_detail

// One line, without its newline. Returns nullopt and sets `problem` when it breaks the syntax.
inline std::optional<LinePoint> parse_line(const std::string& line, std::string& problem) {
  using namespace line_protocol_detail;
  try {
    (void)nlohmann::json(line).dump();  // throws on bytes that are not UTF-8
  } catch (const std::exception&) {
    problem = "not UTF-8";
    return std::nullopt;
  }
  if (line.find_first_of("\n\r") != std::string::npos) return problem = "a line break inside", std::nullopt;
  LinePoint p;
  std::size_t pos = 0;
  if (!read_ident(line, pos, ", ", ", ", p.measurement, problem)) return std::nullopt;
  while (pos < line.size() && line[pos] == ',') {
    std::string key, value;
    ++pos;
    if (!read_ident(line, pos, ",= ", ",= ", key, problem)) return std::nullopt;
    if (pos >= line.size() || line[pos] != '=') return problem = "a tag without '='", std::nullopt;
    ++pos;
    if (!read_ident(line, pos, ", ", ",= ", value, problem)) return std::nullopt;
    if (!p.tags.emplace(key, value).second) return problem = "tag " + key + " twice", std::nullopt;
  }
  if (pos >= line.size() || line[pos] != ' ') return problem = "no field set", std::nullopt;
  do {
    ++pos;
    std::string key;
    LineField f;
    if (!read_ident(line, pos, ",= ", ",= ", key, problem)) return std::nullopt;
    if (pos >= line.size() || line[pos] != '=') return problem = "a field without '='", std::nullopt;
    ++pos;
    if (!read_field_value(line, pos, f, problem)) return std::nullopt;
    if (!p.fields.emplace(key, f).second) return problem = "field " + key + " twice", std::nullopt;
  } while (pos < line.size() && line[pos] == ',');
  if (pos < line.size()) {
    const std::string ts = line.substr(pos + 1);
    char* stop = nullptr;
    const long long value = std::strtoll(ts.c_str(), &stop, 10);
    if (line[pos] != ' ' || ts.empty() || stop != ts.c_str() + ts.size()) {
      return problem = "a bad timestamp '" + ts + "'", std::nullopt;
    }
    p.timestamp = value;
  }
  return p;
}

}  // namespace perfzero::testing
