// Markdown and CSV: what a pull-request comment, a wiki page or a spreadsheet shows.
#include <cmath>

#include <fmt/format.h>

#include "report/report_writers.hpp"

namespace perfzero::report {

namespace {

std::string md(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string csv(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string spread(const results::Stats& s) {
  if (!s.median) return "";
  if (!s.min || !s.max || s.count < 2) return number(s.median);
  return fmt::format("{} ({}–{})", number(s.median), number(s.min), number(s.max));
}

// CSV keeps every digit: spreadsheets and scripts compute with it.
std::string exact(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? fmt::format("{}", *value) : std::string();
}

std::string marks(const MethodRow& row, std::size_t i) {
  std::string m;
  if (row.fastest == i) m += " ⚡fastest";
  if (row.cheapest == i) m += " 💲cheapest";
  return m;
}

void write_method_table(const Report& report, const MethodRow& row, std::ostream& out) {
  const std::string metric = row.metric ? fmt::format("{} ({})", row.metric->name, row.metric->unit) : "";
  out << fmt::format("\n### {}\n\n", md(row.name));
  out << "| configuration | status | wall time s (min–max) | " << (row.metric ? md(metric) + " | " : "")
      << "$ per run | " << (row.metric ? "$ per " + md(row.metric->per) + " | per vCPU | per OCPU | " : "")
      << "speedup |\n|---|---|---|" << (row.metric ? "---|" : "") << "---|" << (row.metric ? "---|---|---|" : "")
      << "---|\n";
  for (std::size_t i = 0; i < report.configurations.size(); ++i) {
    const Cell& cell = row.cells[i];
    out << "| " << md(report.configurations[i].key) << marks(row, i) << " | " << md(cell_status(cell)) << " | "
        << spread(cell.wall) << " | ";
    if (row.metric) out << spread(cell.metric) << " | ";
    out << money(cell.cost_per_run) << " | ";
    if (row.metric)
      out << money(cell.cost_per_unit) << " | " << number(cell.per_vcpu) << " | " << number(cell.per_ocpu) << " | ";
    out << (cell.speedup ? fmt::format("{:.2f}x", *cell.speedup) : "") << " |\n";
  }
}

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

std::string cell_status(const Cell& cell) {
  if (cell.trials == 0) return "not run";
  if (cell.ok()) return "ok";
  return fmt::format("{} {}/{}: {}", to_string(cell.outcome), cell.trials - cell.succeeded, cell.trials, cell.detail);
}

void write_markdown(const Report& report, std::ostream& out) {
  out << "# perfzero report\n\n";
  out << fmt::format("{} run(s), {} trial(s), {} configuration(s), {} method(s); prices from {}; generated {}.\n",
                     report.runs_read, report.trials_read, report.configurations.size(), report.methods.size(),
                     report.catalog_file.empty() ? "no catalog" : md(report.catalog_file), report.generated_on);
  if (!report.baseline.empty()) out << fmt::format("Speedups are against {}.\n", md(report.baseline));
  out << "\n## Configurations\n\n| configuration | provider | label | vCPUs | OCPUs | $ per hour | price | runs |\n"
         "|---|---|---|---|---|---|---|---|\n";
  for (const auto& c : report.configurations) {
    const auto& p = c.pricing;
    out << fmt::format(
        "| {} | {} | {} | {} | {} | {} | {} | {} |\n", md(c.key), md(c.provider), md(c.label), number(c.vcpus),
        number(c.ocpus), money(p.usd_per_hour),
        p.usd_per_hour ? md(fmt::format("{}, {} ({})", p.how, p.date, p.source)) : md("unpriced: " + p.unpriced_reason),
        c.runs.size());
  }
  out << "\n## Methods\n";
  for (const auto& row : report.methods) write_method_table(report, row, out);
  if (!report.warnings.empty()) {
    out << "\n## Warnings\n\n";
    for (const auto& w : report.warnings) out << "- " << md(w) << "\n";
  }
}

void write_csv(const Report& report, std::ostream& out) {
  out << "method,configuration,provider,shape,label,vcpus,ocpus,usd_per_hour,price_date,status,outcome,trials,"
         "succeeded,wall_time_median_s,wall_time_min_s,wall_time_max_s,main_metric,main_metric_unit,"
         "main_metric_median,main_metric_min,main_metric_max,cost_per_run_usd,cost_per,cost_per_unit_usd,"
         "units_per_usd,per_vcpu,per_ocpu,speedup,fastest,cheapest\n";
  for (const auto& row : report.methods) {
    for (std::size_t i = 0; i < report.configurations.size(); ++i) {
      const auto& c = report.configurations[i];
      const auto& cell = row.cells[i];
      const std::string metric_name = row.metric ? row.metric->name : "";
      out << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                         csv(row.name), csv(c.key), csv(c.provider), csv(c.shape), csv(c.label), exact(c.vcpus),
                         exact(c.ocpus), exact(c.pricing.usd_per_hour), c.pricing.date,
                         cell.trials == 0 ? "not run"
                         : cell.ok()      ? "ok"
                                          : "not succeeded",
                         cell.trials == 0 ? "" : std::string(to_string(cell.outcome)), cell.trials, cell.succeeded,
                         exact(cell.wall.median), exact(cell.wall.min), exact(cell.wall.max), csv(metric_name),
                         csv(row.metric ? row.metric->unit : ""), exact(cell.metric.median), exact(cell.metric.min),
                         exact(cell.metric.max), exact(cell.cost_per_run), csv(row.metric ? row.metric->per : "run"),
                         exact(cell.cost_per_unit), exact(cell.units_per_usd), exact(cell.per_vcpu),
                         exact(cell.per_ocpu), exact(cell.speedup), row.fastest == i ? "yes" : "",
                         row.cheapest == i ? "yes" : "");
    }
  }
}

}  // namespace perfzero::report
