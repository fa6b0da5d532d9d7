#include "report/figure_text.hpp"

#include <array>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "common/text.hpp"

namespace perfzero::report {

namespace {

constexpr std::array<std::string_view, 13> kPrefixes = {"a", "f", "p", "n", "µ", "m", "",
                                                        "k", "M", "G", "T", "P", "E"};  // 10^-18 .. 10^18
constexpr int kUnitsAt = 6;                                                             // the empty prefix

std::string times(double x) {
  if (x >= 0.1 && x < 100) return fmt::format("{:.2f}x", x);
  return fmt::format("{:.3g}x", x);
}

std::string percent(double fraction) { return fmt::format("{:g}%", fraction * 100); }

const char* plural(std::size_t n) { return n == 1 ? "" : "s"; }

}  // namespace

std::string number(const std::optional<double>& value) {
  if (!value || !std::isfinite(*value)) return "";
  const double a = std::fabs(*value);
  if (a != 0 && (a < 1e-3 || a >= 1e7)) return fmt::format("{:.3g}", *value);
  return fmt::format("{:.4g}", *value);
}

std::string money(const std::optional<double>& usd) {
  if (!usd || !std::isfinite(*usd)) return "";
  if (*usd >= 100) return fmt::format("${:.0f}", *usd);
  if (*usd >= 0.01) return fmt::format("${:.4g}", *usd);
  return fmt::format("${:.3g}", *usd);
}

std::string money_per(const std::optional<double>& usd, std::string_view one, std::string_view many) {
  if (!usd || !std::isfinite(*usd)) return "";
  static constexpr std::array<const char*, 5> kWords = {"", "thousand", "million", "billion", "trillion"};
  std::size_t k = 0;
  double scaled = *usd;
  while (scaled > 0 && scaled < 0.1 && k + 1 < kWords.size()) {
    scaled *= 1000;
    ++k;
  }
  if (k == 0) return fmt::format("{} per {}", money(scaled), one);
  return fmt::format("{} per {} {}", money(scaled), kWords[k], many);
}

std::string si(const std::optional<double>& value, std::string_view unit) {
  if (!value || !std::isfinite(*value)) return "";
  const std::string space = unit.empty() ? "" : " ";
  const double a = std::fabs(*value);
  if (a == 0 || (a >= 0.01 && a < 1e4)) return fmt::format("{:.3g}{}{}", *value, space, unit);
  // A unit with an SI prefix and an upper-case base (GB/s, GFLOP/s) takes the combined prefix.
  int unit_power = 0;
  std::string_view base = unit;
  if (unit.size() > 1 && std::isupper(static_cast<unsigned char>(unit[1])) != 0) {
    for (int p = 1; p < static_cast<int>(kPrefixes.size()) - kUnitsAt; ++p) {
      if (unit.substr(0, 1) == kPrefixes[static_cast<std::size_t>(kUnitsAt + p)]) {
        unit_power = p;
        base = unit.substr(1);
      }
    }
  }
  int power = static_cast<int>(std::floor(std::log10(a) / 3));
  std::string digits = fmt::format("{:.3g}", *value / std::pow(1000.0, power));
  if (digits.find('e') != std::string::npos) digits = fmt::format("{:.3g}", *value / std::pow(1000.0, ++power));
  const int at = kUnitsAt + power + unit_power;
  if (at < 0 || at >= static_cast<int>(kPrefixes.size())) return fmt::format("{:.3g}{}{}", *value, space, unit);
  const std::string_view prefix = kPrefixes[static_cast<std::size_t>(at)];
  // "5 ms", "19.3 TB/s", "593 M"; a counted unit keeps its word apart: "444 M points/s".
  const bool glued = base.empty() || base == "s" || std::isupper(static_cast<unsigned char>(base[0])) != 0;
  if (glued) return fmt::format("{} {}{}", digits, prefix, base);
  return fmt::format("{} {} {}", digits, prefix, base);
}

std::string si_spread(const results::Stats& stats, std::string_view unit) {
  const std::string median = si(stats.median, unit);
  if (median.empty() || !stats.min || !stats.max || stats.count < 2) return median;
  // Split "408 M points/s" into "408" and " M points/s": the range shares the median's suffix.
  const auto split = [&](const std::optional<double>& v) {
    const std::string text = si(v, unit);
    const auto space = text.find(' ');
    return space == std::string::npos ? std::pair{text, std::string()}
                                      : std::pair{text.substr(0, space), text.substr(space)};
  };
  const auto [low, low_suffix] = split(stats.min);
  const auto [high, high_suffix] = split(stats.max);
  const auto [mid, suffix] = split(stats.median);
  if (low_suffix == suffix && high_suffix == suffix) {
    // "(408–480 M)": the unit is the median's; a prefixed unit (TB/s) is written whole.
    const std::string tail = fmt::format(" {}", unit);
    const bool counted = !unit.empty() && suffix.size() > tail.size() && suffix.ends_with(tail);
    return fmt::format("{} ({}–{}{})", median, low, high,
                       counted          ? suffix.substr(0, suffix.size() - tail.size())
                       : suffix == tail ? ""
                                        : suffix);
  }
  return fmt::format("{} ({}–{})", median, si(stats.min, unit), si(stats.max, unit));
}

std::string ratio_text(const Ratio& ratio, std::size_t min_trials) {
  const std::string tie = ratio.tie ? "tie: " : "";
  if (!ratio.low || !ratio.high) {
    return fmt::format("{}{} (fewer than {} trials: no interval)", tie, times(ratio.value), min_trials);
  }
  return fmt::format("{}{} [{}, {}]", tie, times(ratio.value), times(*ratio.low), times(*ratio.high));
}

std::string speedup_text(const Cell& cell, const std::string& config_key, const Report& report) {
  if (!cell.speedup) return "";
  if (config_key == report.baseline) return "baseline";
  return ratio_text(*cell.speedup, report.settings.min_trials);
}

namespace {

std::string why_tie(const Report& report, const char* better) {
  return fmt::format("no configuration is {} than every other by at least {} with {} confidence", better,
                     percent(report.settings.min_change), percent(report.settings.confidence));
}

}  // namespace

std::string fastest_summary(const MethodRow& row, const Report& report) {
  const Ranking& r = row.speed;
  if (!r.leader) return "";
  const auto& leader = report.configurations[*r.leader].key;
  if (!r.against || !r.ratio) return fmt::format("{} (the only configuration with a speed)", leader);
  const auto& other = report.configurations[*r.against].key;
  const std::string ratio = ratio_text(*r.ratio, report.settings.min_trials);
  if (r.decided) {
    return fmt::format("{}: {} the speed of {}, the runner-up{}", leader, ratio, other,
                       r.contenders > 2 ? fmt::format(" (and ahead of all {} others)", r.contenders - 1) : "");
  }
  return fmt::format("{} between {} and {}: {}", ratio, leader, other, why_tie(report, "faster"));
}

std::string cheapest_summary(const MethodRow& row, const Report& report) {
  const Ranking& r = row.cost;
  if (!r.leader) return "";
  const auto& leader = report.configurations[*r.leader].key;
  if (!r.against || !r.ratio) return fmt::format("{} (the only priced configuration with a cost)", leader);
  const auto& other = report.configurations[*r.against].key;
  const std::string ratio = ratio_text(*r.ratio, report.settings.min_trials);
  if (r.decided) return fmt::format("{}: {} costs {} as much", leader, other, ratio);
  return fmt::format("{} ({}'s cost over {}'s): {}", ratio, other, leader, why_tie(report, "cheaper"));
}

std::string disturbance_note(const Cell& cell, bool use_flagged) {
  if (cell.disturbances.empty()) return "";
  const int disturbed = use_flagged ? cell.flagged_kept : cell.left_out;
  std::string what;
  if (cell.disturbances.size() == 1) {
    what = results::flag_words(cell.disturbances.front().first);
  } else {
    std::vector<std::string> parts;
    for (const auto& [flag, count] : cell.disturbances) {
      parts.push_back(fmt::format("{} {}", results::flag_words(flag), count));
    }
    what = fmt::format("disturbed ({})", text::join(parts, ", "));
  }
  return fmt::format("{} of {} trial{} {}, {}", disturbed, cell.trials, plural(static_cast<std::size_t>(cell.trials)),
                     what, use_flagged ? "kept (--use_flagged)" : "left out");
}

std::string measured_text(const Configuration& config) {
  const auto values = [](const std::vector<double>& v) {
    std::vector<std::string> parts;
    parts.reserve(v.size());
    for (const double x : v) parts.push_back(fmt::format("{:g}", x));
    return text::join(parts, "/");
  };
  std::vector<std::string> parts;
  if (!config.measured_vcpus.empty()) parts.push_back(values(config.measured_vcpus) + " vCPUs");
  if (!config.measured_memory_gib.empty()) parts.push_back(values(config.measured_memory_gib) + " GiB");
  if (!config.measured_gpus.empty()) parts.push_back(values(config.measured_gpus) + " GPUs");
  return text::join(parts, ", ");
}

std::string cell_status(const Cell& cell) {
  if (cell.trials == 0) return "not run";
  if (cell.ok()) return "ok";
  return fmt::format("{} {}/{}: {}", to_string(cell.outcome), cell.trials - cell.succeeded, cell.trials, cell.detail);
}

namespace {

std::string mark(const Ranking& r, std::size_t config, const char* what) {
  if (r.leader != config && r.against != config) return "";
  if (r.decided) return r.leader == config ? what : "";
  return fmt::format("tie for {}", what);
}

}  // namespace

std::string speed_mark(const MethodRow& row, std::size_t config) { return mark(row.speed, config, "fastest"); }
std::string cost_mark(const MethodRow& row, std::size_t config) { return mark(row.cost, config, "cheapest"); }

}  // namespace perfzero::report
