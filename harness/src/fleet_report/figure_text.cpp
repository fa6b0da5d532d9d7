#include "fleet_report/figure_text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "common/text.hpp"
#include "fleet_report/run_noise.hpp"

namespace perfzero::fleet_report {

namespace {

std::string times(double x) {
  if (x >= 0.1 && x < 100) {
    // An interval's end just past 1 must not read as 1.00x: that is what decides a tie.
    if (const std::string two = fmt::format("{:.2f}", x); two != "1.00" || x == 1) return two + "x";
    return fmt::format("{:.3f}x", x);
  }
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

std::string duration_text(double seconds) {
  if (seconds < 120) return si(seconds, "s");
  if (seconds < 7200) return fmt::format("{:.3g} min", seconds / 60);
  return fmt::format("{:.3g} h", seconds / 3600);
}

const std::vector<std::string>& experiment_columns() {
  static const std::vector<std::string> kColumns{"configuration", "capacity",    "instances", "boot to first trial",
                                                 "trials",        "billed time", "billing",   "as run",
                                                 "all on demand", "all spot",    "notes"};
  return kColumns;
}

std::vector<std::string> experiment_cells(const Configuration& config) {
  const ExperimentCost& e = *config.experiment;
  const auto seconds = [](const std::optional<double>& s) { return s ? duration_text(*s) : std::string(); };
  return {config.key,
          e.capacity,
          e.preempted > 0 ? fmt::format("{} ({} preempted)", e.instances, e.preempted) : fmt::format("{}", e.instances),
          seconds(e.before_first_trial_seconds),
          seconds(e.trials_seconds),
          duration_text(e.billed_seconds),
          e.billing,
          money(e.usd),
          money(e.usd_on_demand),
          money(e.usd_spot),
          fmt::format("{}", fmt::join(e.notes, "; "))};
}

std::string experiment_total_text(const ExperimentTotal& total) {
  std::string out = fmt::format("{} as run for {} instance(s) on {} configuration(s) ({} billed)",
                                total.usd ? money(total.usd) : "unknown", total.instances, total.configurations,
                                duration_text(total.billed_seconds));
  std::vector<std::string> whatif;
  if (total.usd_on_demand) whatif.push_back("all on demand " + money(total.usd_on_demand));
  if (total.usd_spot) whatif.push_back("all spot " + money(total.usd_spot));
  if (!whatif.empty()) out += fmt::format("; {}", fmt::join(whatif, ", "));
  if (!total.left_out.empty()) {
    out += fmt::format("; not in the total (bill unknown): {}", fmt::join(total.left_out, ", "));
  }
  return out;
}

std::string si_spread(const results::Stats& stats, std::string_view unit) {
  if (!stats.median || !std::isfinite(*stats.median)) return "";
  if (!stats.min || !stats.max || stats.count < 2) return text::si(*stats.median, unit);
  return text::si_range(*stats.median, *stats.min, *stats.max, unit);
}

std::string ratio_text(const Ratio& ratio, std::size_t min_trials) {
  const std::string tie = ratio.tie ? "tie: " : "";
  if (!ratio.low || !ratio.high) {
    return fmt::format("{}{} (fewer than {} trials: no interval)", tie, times(ratio.value), min_trials);
  }
  return fmt::format("{}{} [{}, {}]", tie, times(ratio.value), times(*ratio.low), times(*ratio.high));
}

std::string speedup_text(const Cell& cell, const std::string& config_key, const FleetReport& report) {
  if (!cell.speedup) return "";
  if (config_key == report.baseline) return "baseline";
  return ratio_text(*cell.speedup, report.settings.min_trials);
}

namespace {

// The noise floor a ratio's interval was widened by: "; widened by 25% between-run noise (default: ...)".
std::string noise_clause(const Ratio& ratio, const MethodRow& row) {
  return ratio.run_noise > 0 ? "; widened by " + run_noise_text(row.run_noise) : "";
}

std::string why_tie(const FleetReport& report, const char* better) {
  return fmt::format("no configuration is {} than every other by at least {} with {} confidence", better,
                     percent(report.settings.min_change), percent(report.settings.confidence));
}

// Without a winner no configuration is named: a tie line names none, whatever the point estimates say.
std::string ranking_summary(const MethodRow& row, const Ranking& r, const FleetReport& report, const char* better,
                            const char* what) {
  if (!r.leader) return "";
  if (!r.against || !r.ratio) {
    return fmt::format(
        "tie: one configuration has {}, nothing to rank it against (the others' trials failed, "
        "were left out or did not run)",
        what);
  }
  const std::string ratio = ratio_text(*r.ratio, report.settings.min_trials);
  if (r.decided) return "";  // the caller words a winner
  return fmt::format("{} between the leader and the closest contender: {}{}", ratio, why_tie(report, better),
                     noise_clause(*r.ratio, row));
}

}  // namespace

std::string fastest_summary(const MethodRow& row, const FleetReport& report) {
  const Ranking& r = row.speed;
  if (!r.decided) return ranking_summary(row, r, report, "faster", "a speed");
  const auto& leader = report.configurations[*r.leader].key;
  const auto& other = report.configurations[*r.against].key;
  return fmt::format("{}: {} the speed of {}, the runner-up{}{}", leader,
                     ratio_text(*r.ratio, report.settings.min_trials), other,
                     r.contenders > 2 ? ", and ahead of every other" : "", noise_clause(*r.ratio, row));
}

std::string cheapest_summary(const MethodRow& row, const FleetReport& report) {
  const Ranking& r = row.cost;
  if (!r.decided) return ranking_summary(row, r, report, "cheaper", "a cost");
  const auto& leader = report.configurations[*r.leader].key;
  const auto& other = report.configurations[*r.against].key;
  return fmt::format("{}: {} costs {} as much{}", leader, other, ratio_text(*r.ratio, report.settings.min_trials),
                     noise_clause(*r.ratio, row));
}

std::string disturbance_note(const Cell& cell, bool use_flagged) {
  // Every trial left out: the cell's status says so already (left_out_label).
  if (cell.disturbances.empty() || (!use_flagged && !left_out_label(cell).empty())) return "";
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

std::string left_out_label(const Cell& cell) {
  if (!cell.ok() || !cell.wall_times.empty() || cell.left_out == 0) return "";
  std::vector<std::string> why;
  for (const auto& [flag, count] : cell.disturbances) why.push_back(results::flag_words(flag));
  return fmt::format("left out ({}) {}/{}", text::join(why, ", "), cell.left_out, cell.trials);
}

std::string no_figure_label(const Cell& cell) {
  if (cell.trials == 0) return "not run";
  if (std::string left_out = left_out_label(cell); !left_out.empty()) return left_out;
  return fmt::format("{} {}/{}", to_string(cell.outcome), cell.trials - cell.succeeded, cell.trials);
}

std::string cell_status(const Cell& cell) {
  if (cell.trials == 0) return "not run";
  if (std::string left_out = left_out_label(cell); !left_out.empty()) return left_out;
  if (cell.ok()) return "ok";
  return fmt::format("{} {}/{}: {}", to_string(cell.outcome), cell.trials - cell.succeeded, cell.trials, cell.detail);
}

namespace {

std::string mark(const Ranking& r, std::size_t config, const char* what) {
  if (!r.against || (r.leader != config && r.against != config)) return "";
  if (r.decided) return r.leader == config ? what : "";
  return fmt::format("tie for {}", what);
}

}  // namespace

std::string speed_mark(const MethodRow& row, std::size_t config) { return mark(row.speed, config, "fastest"); }
std::string cost_mark(const MethodRow& row, std::size_t config) { return mark(row.cost, config, "cheapest"); }

std::string scaling_ratio_text(const std::optional<double>& ratio) {
  if (!ratio) return "";
  return *ratio >= 0.1 ? fmt::format("{:.2f}x", *ratio) : fmt::format("{:.2g}x", *ratio);
}

std::string efficiency_text(const std::optional<double>& efficiency) {
  if (!efficiency) return "";
  const double percent = *efficiency * 100;
  return percent >= 9.5 ? fmt::format("{:.0f}%", percent) : fmt::format("{:.2g}%", percent);
}

ShownColumns shown_columns(const MethodRow& row) {
  ShownColumns shown;
  for (const Cell& c : row.cells) {
    shown.cost_per_run = shown.cost_per_run || c.cost_per_run.has_value();
    shown.cost_per_unit = shown.cost_per_unit || c.cost_per_unit.has_value();
    shown.units_per_usd = shown.units_per_usd || c.units_per_usd.has_value();
    shown.per_vcpu = shown.per_vcpu || c.per_vcpu.has_value();
    shown.per_ocpu = shown.per_ocpu || c.per_ocpu.has_value();
    shown.speedup = shown.speedup || c.speedup.has_value();
    shown.wall = shown.wall || c.wall.median.has_value();
    shown.metric = shown.metric || c.metric.median.has_value();
  }
  return shown;
}

}  // namespace perfzero::fleet_report
