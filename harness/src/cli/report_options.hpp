#pragma once
// The flags of `perfzero report` (docs/report.md).
#include <optional>
#include <string>
#include <vector>

namespace perfzero::cli {

struct ReportOptions {
  std::vector<std::string> inputs;   // run directories, reports, or folders holding them
  std::string catalog;               // empty: the installed catalog (docs/report.md says where)
  bool no_catalog = false;           // --no_catalog: everything unpriced
  std::string baseline;              // configuration key or shape
  std::string out;                   // empty: Markdown on stdout
  std::vector<std::string> formats;  // md, csv, json, html; empty: all with --out, md without
  std::string today;                 // YYYY-MM-DD; empty: the current date (for reproducible output)
  int max_price_age_days = 365;
  double min_change_percent = 5;            // fastest/cheapest/speedups need at least this change to be named
  bool use_flagged = false;                 // keep disturbed trials (host_busy, ...) in the figures
  std::optional<double> run_noise_percent;  // --run_noise; nullopt: measured from repeated runs, else 25
  std::vector<std::string> metrics;         // --metric: rank by the first of these rates a method reports
  // --estimate SUITE: price a planned campaign on --shapes before launching it (docs/report.md,
  // "Estimating a campaign"), from the durations in the --history database, else the suite's timeouts.
  std::string estimate;
  std::vector<std::string> shapes;
  std::string history_db;
  std::string label;
  double overhead_minutes = 5;  // per instance: boot, install, image pull, upload
};

// Parses `perfzero report` flags (argv[0] is "report"). Returns the help text for --help; throws
// UsageError naming the flag for anything else it cannot take.
std::optional<std::string> parse_report_flags(int argc, const char* const* argv, ReportOptions& out);

}  // namespace perfzero::cli
