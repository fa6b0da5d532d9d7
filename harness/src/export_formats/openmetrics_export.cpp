#include "export_formats/openmetrics_export.hpp"

#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "common/files.hpp"
#include "common/outcome.hpp"
#include "common/utf8.hpp"
#include "export_formats/export_samples.hpp"
#include "export_formats/export_text.hpp"
#include "results/statistics.hpp"

namespace perfzero::export_formats {

namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

// One metric family: its metadata and its samples, written together as the format requires.
class Family {
 public:
  Family(std::string name, std::string help, std::string unit = "")
      : name_(std::move(name)), help_(std::move(help)), unit_(std::move(unit)) {}

  void add(const Labels& labels, double value) {
    std::string text;
    for (const auto& [key, v] : labels) {
      if (v.empty()) continue;  // Prometheus reads an empty label as an absent one
      text += fmt::format("{}{}=\"{}\"", text.empty() ? "" : ",", key, openmetrics_label_value(v));
    }
    // Two names that differ only in bytes that are not UTF-8 escape alike; a label set may appear
    // once per family, so the first one stands.
    if (!seen_.insert(text).second) return;
    samples_ += text.empty() ? name_ : fmt::format("{}{{{}}}", name_, text);
    samples_ += fmt::format(" {}\n", openmetrics_number(value));
  }

  void write(std::string& out) const {
    if (samples_.empty()) return;
    out += fmt::format("# TYPE {} gauge\n", name_);
    if (!unit_.empty()) out += fmt::format("# UNIT {} {}\n", name_, unit_);
    out += fmt::format("# HELP {} {}\n", name_, help_);
    out += samples_;
  }

 private:
  std::string name_, help_, unit_;
  std::set<std::string> seen_;
  std::string samples_;
};

void add_stats(Family& family, Labels labels, const results::Stats& stats) {
  const std::pair<const char*, std::optional<double>> figures[] = {
      {"median", stats.median}, {"mean", stats.mean}, {"stddev", stats.stddev}, {"min", stats.min}, {"max", stats.max}};
  labels.emplace_back("stat", "");
  for (const auto& [stat, value] : figures) {
    if (!value) continue;
    labels.back().second = stat;
    family.add(labels, *value);
  }
}

Family run_family(const results::Run& run) {
  const RunFields f = run_fields(run);
  Family family("perfzero_run_timestamp_seconds", "When the run these metrics come from started (epoch seconds).",
                "seconds");
  family.add({{"execution_id", f.execution_id},
              {"execution_label", f.execution_label},
              {"platform_name", f.platform_name},
              {"system_name", f.system_name},
              {"instance_type", f.instance_type},
              {"cpu_model", f.cpu_model},
              {"cloud", f.cloud},
              {"status", f.status}},
             f.execution_timestamp);
  return family;
}

}  // namespace

std::string openmetrics_label_value(std::string_view text) {
  std::string out;
  for (char c : utf8::valid(text)) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      const auto u = static_cast<unsigned char>(c);
      out += (u < 0x20 || u == 0x7F) ? ' ' : c;
    }
  }
  return out;
}

std::string openmetrics_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", value);
}

std::string openmetrics_text(const results::Run& run) {
  Family trials("perfzero_trials", "Trials of each method in the run, by outcome.");
  Family wall("perfzero_wall_time_seconds", "Wall time of each method across its succeeded trials.", "seconds");
  Family metrics("perfzero_metric", "Each metric a method reported, across its succeeded trials, in its unit.");
  for (const auto& c : run.cases) {
    if (c.trials.empty()) continue;
    std::map<std::string, int> outcomes;
    for (const auto& t : c.trials) outcomes[std::string(to_string(t.outcome))] += 1;
    for (const auto& [outcome, count] : outcomes) {
      trials.add({{"case", c.name}, {"method", c.method}, {"outcome", outcome}}, count);
    }
    const results::CaseStats stats = results::case_stats(c);
    add_stats(wall, {{"case", c.name}, {"method", c.method}}, stats.wall_time);
    for (const auto& m : stats.metrics) {
      add_stats(metrics, {{"case", c.name}, {"method", c.method}, {"metric", m.name}, {"unit", m.unit}}, m.stats);
    }
  }
  std::string out;
  run_family(run).write(out);
  trials.write(out);
  wall.write(out);
  metrics.write(out);
  return out + "# EOF\n";
}

void write_openmetrics(const results::Run& run, const std::filesystem::path& dir) {
  files::write_atomically(dir / kOpenMetricsFile, openmetrics_text(run));
}

}  // namespace perfzero::export_formats
