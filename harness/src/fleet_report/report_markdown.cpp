// Markdown: what a pull-request comment or a wiki page shows.
#include <fmt/format.h>

#include "common/escape.hpp"
#include "fleet_report/report_writers.hpp"
#include "fleet_report/scaling.hpp"

namespace perfzero::fleet_report {

namespace {

std::string md(const std::string& s) { return text::md_cell(s); }

std::optional<double> scaled(const std::optional<double>& v, double scale) {
  return v ? std::optional(*v * scale) : std::nullopt;
}

std::string marks(const MethodRow& row, std::size_t i) {
  std::string m;
  if (const auto fast = speed_mark(row, i); !fast.empty()) m += " ⚡" + fast;
  if (const auto cheap = cost_mark(row, i); !cheap.empty()) m += " 💲" + cheap;
  return m;
}

std::string status(const Cell& cell, bool use_flagged) {
  std::string s = cell_status(cell);
  if (const auto note = disturbance_note(cell, use_flagged); !note.empty()) s += "; " + note;
  return s;
}

// Per node count: throughput, speedup, efficiency and cost (docs/report.md, "Clusters").
void write_scaling(const FleetReport& report, const MethodRow& row, const Scaling& s, std::ostream& out) {
  const bool rate = row.metric.has_value();
  out << fmt::format("\n**Scaling on {}** (efficiency = {}{}):\n\n", md(s.name), md(efficiency_formula(s)),
                     s.base_nodes == 1 ? "" : fmt::format(", relative to {} hosts: no run on one host", s.base_nodes));
  out << "| hosts | configuration | status | " << md(s.unit) << " median | speedup | efficiency | $ per "
      << md(rate ? row.metric->per : row.runs_per) << " |\n|---|---|---|---|---|---|---|\n";
  for (const auto& p : s.points) {
    const Cell& cell = row.cells[p.config];
    out << fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", p.nodes, md(report.configurations[p.config].key),
                       md(status(cell, report.settings.use_flagged)), md(si(p.throughput, s.unit)),
                       scaling_ratio_text(p.speedup), efficiency_text(p.efficiency),
                       money(rate ? p.cost_per_unit : scaled(p.cost_per_run, row.run_scale)));
  }
}

void write_method_table(const FleetReport& report, const MethodRow& row, std::ostream& out) {
  out << fmt::format("\n### {}\n\n", md(row.name));
  if (const auto fastest = fastest_summary(row, report); !fastest.empty()) {
    out << "**Fastest**: " << md(fastest) << "  \n";
  }
  if (const auto cheapest = cheapest_summary(row, report); !cheapest.empty()) {
    out << "**Cheapest**: " << md(cheapest) << "  \n";
  }
  const bool rate = row.metric.has_value();
  if (rate) out << fmt::format("Ranked by {} ({}).  \n", md(row.metric->name), md(row.metric->unit));
  const ShownColumns shown = shown_columns(row);  // a column empty for every configuration is left out
  std::vector<std::string> head{"configuration", "status"};
  if (shown.wall) head.emplace_back("wall time (min–max)");
  if (rate && shown.metric) head.push_back(md(fmt::format("{} median (min–max)", row.metric->unit)));
  if (shown.cost_per_run) head.push_back("$ per " + row.runs_per);
  if (rate && shown.cost_per_unit) head.push_back("$ per " + md(row.metric->per));
  if (rate && shown.per_vcpu) head.push_back("per vCPU");
  if (rate && shown.per_ocpu) head.push_back("per OCPU");
  if (shown.speedup) head.push_back("speedup vs " + md(report.baseline));
  out << "\n| " << fmt::format("{}", fmt::join(head, " | ")) << " |\n|";
  for (std::size_t i = 0; i < head.size(); ++i) out << "---|";
  out << "\n";
  for (std::size_t i = 0; i < report.configurations.size(); ++i) {
    const Cell& cell = row.cells[i];
    const auto& key = report.configurations[i].key;
    out << "| " << md(key) << marks(row, i) << " | " << md(status(cell, report.settings.use_flagged)) << " | ";
    if (shown.wall) out << si_spread(cell.wall, "s") << " | ";
    if (rate && shown.metric) out << md(si_spread(cell.metric, row.metric->unit)) << " | ";
    if (shown.cost_per_run) out << money(scaled(cell.cost_per_run, row.run_scale)) << " | ";
    if (rate && shown.cost_per_unit) out << money(cell.cost_per_unit) << " | ";
    if (rate && shown.per_vcpu) out << md(si(cell.per_vcpu, row.metric->unit)) << " | ";
    if (rate && shown.per_ocpu) out << md(si(cell.per_ocpu, row.metric->unit)) << " | ";
    if (shown.speedup) out << md(speedup_text(cell, key, report)) << " |";
    out << "\n";
  }
  for (const auto& s : row.scaling) write_scaling(report, row, s, out);
}

void write_markdown_rules(const FleetReport& report, std::ostream& out) {
  const auto& s = report.settings;
  out << fmt::format(
      "Fastest, cheapest and speedups carry the {:g}% bootstrap interval of the ratio of medians ({} resamplings, "
      "seed {}; at least {} trials each). A configuration is named only when its interval against every other "
      "excludes 1 and the change is at least {:g}% (--min_change); otherwise the report says tie. Trials of one run "
      "cannot tell the machine from the moment it ran: against a configuration measured in one run, the interval "
      "is widened by the between-run noise (--run_noise; each method's figure is in its ranking line).\n",
      s.confidence * 100, s.resamples, s.seed, s.min_trials, s.min_change * 100);
  int disturbed = 0;
  for (const auto& row : report.methods) {
    for (const auto& cell : row.cells) disturbed += s.use_flagged ? cell.flagged_kept : cell.left_out;
  }
  if (s.use_flagged) {
    out << fmt::format("Disturbed trials are kept in the figures (--use_flagged): {}.\n", disturbed);
  } else if (disturbed > 0) {
    out << fmt::format(
        "{} disturbed trial(s) (host busy, GPU or CPU throttled, harness stalled) are left out of every figure "
        "(--use_flagged keeps them).\n",
        disturbed);
  }
}

// The bill, boot to power-off, for the configurations whose runs carried instance timelines.
void write_experiment(const FleetReport& report, std::ostream& out) {
  if (!report.experiment_total) return;
  out << "\n## The cost of the experiment\n\nEach cloud instance from boot to the end of its upload, rounded as "
         "its provider bills, at the price of the capacity it ran on.\n\n|";
  for (const auto& column : experiment_columns()) out << " " << column << " |";
  out << "\n|";
  for (std::size_t i = 0; i < experiment_columns().size(); ++i) out << "---|";
  out << "\n";
  for (const auto& c : report.configurations) {
    if (!c.experiment) continue;
    out << "|";
    for (const auto& cell : experiment_cells(c)) out << " " << md(cell) << " |";
    out << "\n";
  }
  out << "\n**The fleet:** " << md(experiment_total_text(*report.experiment_total)) << ".\n";
}

}  // namespace

void write_markdown(const FleetReport& report, std::ostream& out) {
  out << "# perfzero report\n\n";
  out << fmt::format("{} run(s), {} trial(s), {} configuration(s), {} method(s); prices from {}; generated {}.\n",
                     report.runs_read, report.trials_read, report.configurations.size(), report.methods.size(),
                     report.catalog_file.empty() ? "no catalog" : md(report.catalog_file), report.generated_on);
  if (!report.baseline.empty()) out << fmt::format("Speedups are against {}.\n", md(report.baseline));
  write_markdown_rules(report, out);
  out << "\n## Configurations\n\n| configuration | provider | label | vCPUs | OCPUs | the runs had | $ per hour | "
         "price "
         "| runs |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& c : report.configurations) {
    const auto& p = c.pricing;
    out << fmt::format(
        "| {} | {} | {} | {} | {} | {}{} | {} | {} | {} |\n", md(c.key), md(c.provider), md(c.label), number(c.vcpus),
        number(c.ocpus), c.shape_mismatches.empty() ? "" : "⚠ not the catalog's: ", md(measured_text(c)),
        money(p.usd_per_hour),
        p.usd_per_hour ? md(fmt::format("{}, {} ({})", p.how, p.date, p.source)) : md("unpriced: " + p.unpriced_reason),
        c.runs.size());
  }
  write_experiment(report, out);
  out << "\n## Methods\n";
  for (const auto& row : report.methods) write_method_table(report, row, out);
  if (!report.warnings.empty()) {
    out << "\n## Warnings\n\n";
    for (const auto& w : report.warnings) out << "- " << md(w) << "\n";
  }
}

}  // namespace perfzero::fleet_report
