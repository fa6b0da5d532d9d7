#pragma once
// A parser of OpenMetrics text (the subset an exporter of gauges writes), written from the
// specification (openmetrics.io, "OpenMetrics 1.0"), independent of the exporter, so that tests
// hold the export to the format and read its samples back. Header-only, standard library only.
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace perfzero::testing {

struct OpenMetricsSample {
  std::string name;
  std::map<std::string, std::string> labels;  // unescaped
  std::string value;                          // as written
};

struct OpenMetricsCheck {
  std::vector<std::string> problems;
  std::map<std::string, std::string> types;  // family -> type
  std::map<std::string, std::string> units;  // family -> unit
  std::set<std::string> helped;              // families with HELP
  std::vector<OpenMetricsSample> samples;
};

namespace openmetrics_detail {

inline bool is_name(const std::string& s, bool colons) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colons && c == ':') ||
                    (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

inline bool is_value(const std::string& v) {
  if (v == "NaN" || v == "+Inf" || v == "-Inf") return true;
  if (v.empty() || v.find_first_not_of("0123456789+-.eE") != std::string::npos) return false;
  char* end = nullptr;
  std::strtod(v.c_str(), &end);
  return end == v.c_str() + v.size();
}

// Reads `{name="value",...}` from `line` at `pos`; returns false with `problem` set when malformed.
inline bool read_labels(const std::string& line, std::size_t& pos, std::map<std::string, std::string>& labels,
                        std::string& problem) {
  ++pos;  // '{'
  while (pos < line.size() && line[pos] != '}') {
    const std::size_t eq = line.find('=', pos);
    if (eq == std::string::npos) return problem = "a label without '='", false;
    const std::string name = line.substr(pos, eq - pos);
    if (!is_name(name, false)) return problem = "bad label name '" + name + "'", false;
    if (eq + 1 >= line.size() || line[eq + 1] != '"') return problem = "label value not quoted", false;
    std::string value;
    std::size_t i = eq + 2;
    for (; i < line.size() && line[i] != '"'; ++i) {
      if (line[i] != '\\') {
        value += line[i];
        continue;
      }
      if (++i >= line.size()) return problem = "a label value ends in a backslash", false;
      if (line[i] == 'n') {
        value += '\n';
      } else if (line[i] == '\\' || line[i] == '"') {
        value += line[i];
      } else {
        return problem = "unknown escape in a label value", false;
      }
    }
    if (i >= line.size()) return problem = "unterminated label value", false;
    if (!labels.emplace(name, value).second) return problem = "label '" + name + "' twice", false;
    pos = i + 1;
    if (pos < line.size() && line[pos] == ',') ++pos;
  }
  if (pos >= line.size()) return problem = "unterminated label set", false;
  ++pos;  // '}'
  return true;
}

}  // namespace openmetrics_detail

inline OpenMetricsCheck check_openmetrics(const std::string& text) {
  using namespace openmetrics_detail;
  OpenMetricsCheck out;
  const std::string eof = "# EOF\n";
  if (text.size() < eof.size() || text.compare(text.size() - eof.size(), eof.size(), eof) != 0) {
    out.problems.push_back("does not end with '# EOF' and a newline");
  }
  std::set<std::string> closed;  // families whose samples are over: none may come back
  std::set<std::string> label_sets;
  std::string current;
  std::size_t start = 0;
  int number = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string::npos; start = nl + 1, nl = text.find('\n', start)) {
    const std::string line = text.substr(start, nl - start);
    const std::string where = "line " + std::to_string(++number) + ": ";
    if (line == "# EOF") {
      if (nl + 1 != text.size()) out.problems.push_back(where + "text after # EOF");
      break;
    }
    std::string family;
    if (line.rfind("# ", 0) == 0) {
      const std::size_t sp1 = line.find(' ', 2), sp2 = line.find(' ', sp1 + 1);
      const std::string keyword = line.substr(2, sp1 - 2);
      family = line.substr(sp1 + 1, sp2 == std::string::npos ? std::string::npos : sp2 - sp1 - 1);
      const std::string rest = sp2 == std::string::npos ? "" : line.substr(sp2 + 1);
      if (keyword == "TYPE") {
        if (!out.types.emplace(family, rest).second) out.problems.push_back(where + "TYPE twice for " + family);
      } else if (keyword == "UNIT") {
        out.units[family] = rest;
        const std::string suffix = "_" + rest;
        if (family.size() <= suffix.size() || family.compare(family.size() - suffix.size(), suffix.size(), suffix)) {
          out.problems.push_back(where + "a family with UNIT " + rest + " must end with " + suffix);
        }
      } else if (keyword == "HELP") {
        out.helped.insert(family);
      } else {
        out.problems.push_back(where + "unknown descriptor '" + keyword + "'");
      }
    } else {
      OpenMetricsSample s;
      std::size_t pos = line.find_first_of("{ ");
      s.name = line.substr(0, pos);
      std::string problem;
      if (pos != std::string::npos && line[pos] == '{' && !read_labels(line, pos, s.labels, problem)) {
        out.problems.push_back(where + problem);
        continue;
      }
      if (pos == std::string::npos || line[pos] != ' ') {
        out.problems.push_back(where + "no value");
        continue;
      }
      s.value = line.substr(pos + 1);
      if (!is_value(s.value)) out.problems.push_back(where + "bad value (or a timestamp) '" + s.value + "'");
      family = s.name;
      std::string key;
      for (const auto& [k, v] : s.labels) key += k + "=" + v + '\x1f';
      if (!label_sets.insert(s.name + '\x1e' + key).second) out.problems.push_back(where + "repeated label set");
      out.samples.push_back(std::move(s));
    }
    if (!is_name(family, true)) out.problems.push_back(where + "bad metric name '" + family + "'");
    if (family != current) {
      if (closed.count(family)) out.problems.push_back(where + family + " is not contiguous");
      if (!current.empty()) closed.insert(current);
      current = family;
    }
    if (line.rfind("# ", 0) == 0 && !out.samples.empty() && out.samples.back().name == family) {
      out.problems.push_back(where + "a descriptor after the family's samples");
    }
  }
  for (const auto& s : out.samples) {
    if (!out.types.count(s.name)) out.problems.push_back(s.name + " has samples but no TYPE");
  }
  return out;
}

}  // namespace perfzero::testing
