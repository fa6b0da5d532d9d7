// `perfzero report` flags.
#include <cmath>

#include <fmt/format.h>

#include "cli/cli_app.hpp"
#include "cli/report_options.hpp"
#include "common/errors.hpp"

namespace perfzero::cli {

namespace {

// --estimate and the flags that go with it.
void add_estimate_flags(CLI::App& app, ReportOptions& out) {
  app.add_option("--estimate", out.estimate,
                 "instead of reading runs, price the campaign SUITE would be on each of --shapes: its trials' time "
                 "from the newest run of each case on that shape in --history (else the suite's timeouts, an upper "
                 "bound), plus --overhead_minutes an instance, rounded as the provider bills; says which figures "
                 "are estimates and from what")
      ->type_name("SUITE");
  app.add_option("--shapes", out.shapes,
                 "with --estimate: the shapes, comma-separated, as the fleet names them (c7i.large, "
                 "VM.Standard.E4.Flex-4ocpu-16gb)")
      ->delimiter(',')
      ->allow_extra_args(false)  // `--shapes a,b RESULT_DIR` must not take RESULT_DIR for a shape
      ->type_name("LIST");
  app.add_option("--history", out.history_db,
                 "the results history (SQLite file or postgresql:// URL) holding earlier runs, the one `compare "
                 "--history` reads: with --estimate, the trials' durations; with RESULT_DIRs, the between-run noise "
                 "when the inputs repeat no configuration (see --run_noise)")
      ->type_name("DB");
  app.add_option("--label", out.label, "with --history: only earlier runs of this execution label")->type_name("LABEL");
  app.add_option("--overhead_minutes", out.overhead_minutes,
                 "with --estimate: minutes an instance spends outside the trials: boot, install, image pull, upload "
                 "(default 5; `perfzero report` of a fleet's runs shows the real figure as 'boot to first trial')")
      ->check(CLI::Range(0.0, 1440.0))
      ->type_name("MINUTES");
}

// What the flags allow only together, or not at all together.
void check_report_flags(const ReportOptions& out) {
  if (out.estimate.empty()) {
    if (out.inputs.empty()) throw UsageError("report: RESULT_DIR is required (or --estimate SUITE --shapes LIST)");
    if (!out.shapes.empty()) throw UsageError("report: --shapes goes with --estimate SUITE");
  } else {
    if (!out.inputs.empty()) {
      throw UsageError(
          "report: --estimate prices a planned campaign and reads no RESULT_DIR (given: " + out.inputs.front() + ")");
    }
    if (out.shapes.empty()) throw UsageError("report: --estimate needs --shapes (the shapes to price it on)");
  }
  if (!out.label.empty() && out.history_db.empty()) throw UsageError("report: --label needs --history DB");
  if (out.no_catalog && !out.catalog.empty()) throw UsageError("report: --catalog and --no_catalog exclude each other");
  // CLI11's range check lets NaN through (every comparison with it is false).
  if (!std::isfinite(out.min_change_percent)) throw UsageError("report: --min_change: expected a percentage, got nan");
  if (out.run_noise_percent && !std::isfinite(*out.run_noise_percent)) {
    throw UsageError("report: --run_noise: expected a percentage from 0 to 1000, got nan");
  }
  for (const auto& metric : out.metrics) {
    if (metric.empty()) throw UsageError("report: --metric: an empty metric name (expected e.g. triad_bandwidth)");
  }
  if (!out.formats.empty() && out.out.empty() && out.formats != std::vector<std::string>{"md"}) {
    throw UsageError("report: --format other than md needs --out DIR (only Markdown goes to stdout)");
  }
}

}  // namespace

std::optional<std::string> parse_report_flags(int argc, const char* const* argv, ReportOptions& out) {
  CLI::App app{
      "Reads finished runs (run directories, single reports, or folders holding them at any depth) and prices them "
      "from a dated catalog: per method and configuration (instance type), the median wall time and main metric with "
      "their spread, cost per run and per unit of work, performance per dollar, per vCPU and per OCPU, speedup "
      "against --baseline, the fastest and the cheapest, each with a bootstrap interval from the trials (a "
      "configuration is named only when the trials tell it apart; else the report says tie). Writes Markdown to "
      "stdout, or with --out the report as "
      "Markdown, CSV, JSON and one self-contained HTML page. Exit 0 when every input was read, 1 when some could not "
      "be (the rest is still reported), 2 for bad flags or a bad catalog, 4 when the output cannot be written.",
      "perfzero report"};
  app.add_option("RESULT_DIR", out.inputs, "run directory, perfzero_summary.json, or a folder holding runs")
      ->type_name("PATH");
  app.add_option("--catalog", out.catalog,
                 "price catalog YAML (default: $PERFZERO_CATALOG, else the installed infra/pricing/catalog.yaml)")
      ->type_name("FILE");
  app.add_flag("--no_catalog", out.no_catalog, "price nothing (every configuration is reported unpriced)");
  app.add_option("--baseline", out.baseline, "configuration (shape, or shape [label]) that speedups are against")
      ->type_name("SHAPE");
  app.add_option("--out", out.out, "write report.md, report.csv, report.json and report.html into DIR")
      ->type_name("DIR");
  app.add_option("--format", out.formats,
                 "outputs to write, comma-separated: md, csv, json, html (default: these four), and the dashboard "
                 "exports elasticsearch, influx, openmetrics of every run read (docs/exports.md)")
      ->delimiter(',')
      ->check(CLI::IsMember({"md", "csv", "json", "html", "elasticsearch", "influx", "openmetrics"}))
      ->type_name("LIST");
  app.add_option("--today", out.today, "the date prices' ages are counted to (YYYY-MM-DD; default: today)")
      ->type_name("DATE");
  app.add_option("--max_price_age_days", out.max_price_age_days, "warn about prices older than this (default 365)")
      ->check(CLI::Range(0, 36500));
  app.add_option("--min_change", out.min_change_percent,
                 "percent: fastest, cheapest and a speedup are named only when the change is at least this large and "
                 "its 95% bootstrap interval excludes 1, no change (default 5)")
      ->check(CLI::Range(0.0, 1000.0))
      ->type_name("PERCENT");
  app.add_option("--run_noise", out.run_noise_percent,
                 "percent: how far one run's median may land from another's on the same configuration; a "
                 "configuration measured in one run is ranked only beyond it (default: the widest spread of run "
                 "medians among configurations the inputs hold several runs of, else what --history shows, else 25)")
      ->check(CLI::Range(0.0, 1000.0))
      ->type_name("PERCENT");
  app.add_option("--metric", out.metrics,
                 "rank each method by the first of these rate metrics (unit <work>/s) it reports, comma-separated "
                 "(default: its main metric, the first rate it reports; STREAM's is triad_bandwidth)")
      ->delimiter(',')
      ->type_name("LIST");
  app.add_flag("--use_flagged", out.use_flagged,
               "keep trials flagged as disturbed (host_busy, gpu_throttled, cpu_throttled, harness_stalled) in the "
               "figures; by default they are counted and left out");
  add_estimate_flags(app, out);
  if (auto help = parse_or_help(app, argc, argv)) return help;
  check_report_flags(out);
  return std::nullopt;
}

}  // namespace perfzero::cli
