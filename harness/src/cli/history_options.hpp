#pragma once
// The flags of `perfzero history` (docs/history.md).
#include <optional>
#include <string>
#include <vector>

#include "cli/compare_options.hpp"

namespace perfzero::cli {

inline constexpr const char* kDefaultHistoryDb = "results/history.sqlite";

struct HistoryOptions {
  std::string action;                  // ingest, list, show, changes, site, prune
  std::string db = kDefaultHistoryDb;  // a SQLite file or a postgresql:// URL
  std::vector<std::string> runs;       // ingest: run directories
  bool partial = false;                // ingest: a run still running (or killed) too, as it stands
  std::string execution_id;            // show
  std::string label;                   // list: only this execution label
  int limit = 50;                      // list
  std::string format = "text";         // list, show: text or json; changes: text, markdown or json
  // changes: which series, and how a change point is found (compare/change_points.hpp).
  std::string method;           // a regular expression over case names; empty: all
  std::string metric;           // a regular expression over metric names; empty: all
  std::string since;            // YYYY-MM-DD (UTC): only runs from then on
  double max_pvalue = 0.001;    // a change point's significance (Student's t between its neighbours)
  double min_magnitude = 0.0;   // a fraction: smaller steps are not reported
  int window = 200;             // E-Divisive's window over long series (compare/change_points.hpp)
  bool use_flagged = false;     // changes, site, show: each run's median over its disturbed trials too
  std::string junit_file;       // changes: --junit
  bool fail_on_change = false;  // changes: the gate decides the exit status (compare/gate.hpp)
  GatePassOn pass_on;           // changes: --pass_on, with --fail_on_change
  int keep_last = 0;            // prune: the newest runs kept per label
  // site: the folder, how many runs each series page draws, how many dates get the cost view, and
  // the price catalog (pricing/catalog_file.hpp finds one when none is given).
  std::string site_out;
  int site_last = 200;
  int cost_days = 30;
  std::string catalog;
  bool no_catalog = false;
};

// Parses `perfzero history` flags (argv[0] is "history"). Returns the help text for --help; throws
// UsageError naming the flag for anything else it cannot take.
std::optional<std::string> parse_history_flags(int argc, const char* const* argv, HistoryOptions& out);

}  // namespace perfzero::cli
