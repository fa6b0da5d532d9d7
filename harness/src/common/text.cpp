#include "common/text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace perfzero::text {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const bool same =
          std::tolower(static_cast<unsigned char>(a[i - 1])) == std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

namespace {

bool starts_with_ci(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != std::tolower(static_cast<unsigned char>(prefix[i]))) {
      return false;
    }
  }
  return true;
}

// Candidates close enough to `name` to be what was meant, with their distance, nearest first.
std::vector<std::pair<std::size_t, std::string>> scored_candidates(std::string_view name,
                                                                   const std::vector<std::string>& candidates) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  // A typo changes a few characters; allow about a third of the name, at least 2.
  const std::size_t threshold = std::max<std::size_t>(2, name.size() / 3);
  for (const auto& candidate : candidates) {
    std::size_t distance = edit_distance(name, candidate);
    if (!name.empty() && candidate.find(name) != std::string::npos) distance = std::min<std::size_t>(distance, 1);
    // A name that extends a candidate (VM.Standard.E4.Flex-2, c7i.large-spot) is near it.
    if (candidate.size() >= 2 && starts_with_ci(name, candidate)) distance = std::min<std::size_t>(distance, 1);
    if (distance <= threshold) scored.emplace_back(distance, candidate);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return scored;
}

}  // namespace

std::vector<std::string> closest(std::string_view name, const std::vector<std::string>& candidates, std::size_t limit) {
  std::vector<std::string> out;
  for (const auto& [distance, candidate] : scored_candidates(name, candidates)) {
    if (out.size() == limit) break;
    if (std::find(out.begin(), out.end(), candidate) == out.end()) out.push_back(candidate);
  }
  return out;
}

std::vector<std::string> nearest(std::string_view name, const std::vector<std::string>& candidates) {
  std::vector<std::string> out;
  const auto scored = scored_candidates(name, candidates);
  for (const auto& [distance, candidate] : scored) {
    if (distance != scored.front().first) break;
    if (std::find(out.begin(), out.end(), candidate) == out.end()) out.push_back(candidate);
  }
  return out;
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  auto near = closest(name, candidates);
  if (near.empty()) return "";
  std::vector<std::string> quoted;
  quoted.reserve(near.size());
  for (const auto& n : near) quoted.push_back("'" + n + "'");
  return "; did you mean " + join(quoted, " or ") + "?";
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.emplace_back(text.substr(start, end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

std::string to_upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text) {
  std::string problem;
  return parse_duration(text, problem);
}

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text, std::string& problem) {
  problem = "expected a duration such as 90, 90s, 250ms, 5m or 2h (0 for none)";
  const std::string trimmed = trim(text);
  if (trimmed.empty()) return std::nullopt;
  std::size_t unit_start = 0;
  while (unit_start < trimmed.size() &&
         (std::isdigit(static_cast<unsigned char>(trimmed[unit_start])) != 0 || trimmed[unit_start] == '.')) {
    ++unit_start;
  }
  if (unit_start == 0) return std::nullopt;
  double number = 0;
  const auto [ptr, ec] = std::from_chars(trimmed.data(), trimmed.data() + unit_start, number);
  // A number beyond a double's range is out of range (huge or tiny), not malformed.
  if (ec == std::errc::result_out_of_range) {
    const bool huge = trimmed.find_first_of("123456789") < trimmed.find('.');
    number = huge ? HUGE_VAL : 1e-300;
  }
  if ((ec != std::errc{} && ec != std::errc::result_out_of_range) || ptr != trimmed.data() + unit_start) {
    return std::nullopt;
  }
  const std::string_view unit = std::string_view(trimmed).substr(unit_start);
  double scale_ms = 0;
  if (unit.empty() || unit == "s") {
    scale_ms = 1000;
  } else if (unit == "ms") {
    scale_ms = 1;
  } else if (unit == "m" || unit == "min") {
    scale_ms = 60'000;
  } else if (unit == "h") {
    scale_ms = 3'600'000;
  } else {
    return std::nullopt;
  }
  // Checked in double before converting: a huge value must not wrap into a tiny or negative one,
  // and a positive value that rounds to 0 ms must not silently mean "no limit".
  const double ms = number * scale_ms;
  if (ms == 0) return std::chrono::milliseconds(0);
  if (ms < 1) {
    problem = "below the 1ms resolution (0 means none)";
    return std::nullopt;
  }
  if (!(ms <= static_cast<double>(kMaxDuration.count()))) {
    problem = "over the maximum of 30 days (720h)";
    return std::nullopt;
  }
  problem.clear();
  return std::chrono::milliseconds(static_cast<std::int64_t>(std::llround(ms)));
}

std::string format_duration(double seconds) {
  if (seconds < 1.0) return fmt::format("{:.1f} ms", seconds * 1000.0);
  if (seconds < 120.0) return fmt::format("{:.2f} s", seconds);
  const auto total = static_cast<long>(seconds);
  if (total < 3600) return fmt::format("{}m{:02d}s", total / 60, static_cast<int>(total % 60));
  return fmt::format("{}h{:02d}m", total / 3600, static_cast<int>((total % 3600) / 60));
}

std::string path_component(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-';
    out.push_back(keep ? c : '_');
  }
  if (out.empty() || out == "." || out == "..") out = "_" + out;
  return out;
}

}  // namespace perfzero::text
