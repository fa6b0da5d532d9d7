// `perfzero history ingest|list|show` flags (docs/history.md).
#include <fmt/format.h>

#include "cli/cli_app.hpp"
#include "cli/compare_options.hpp"
#include "cli/history_options.hpp"
#include "common/errors.hpp"

namespace perfzero::cli {

namespace {

void add_db_flag(CLI::App& app, HistoryOptions& out) {
  app.add_option(
         "--db", out.db,
         "The results database: a SQLite file, or a postgresql:// URL (default " + std::string(kDefaultHistoryDb) + ")")
      ->type_name("DB");
}

CLI::App* add_changes(CLI::App& app, HistoryOptions& out) {
  CLI::App* changes = app.add_subcommand(
      "changes",
      "Change points in every series (label x system x image x method x metric), oldest run first: E-Divisive "
      "means with Student's t-test (pooled variance), as Apache Otava (docs/history.md)");
  changes->add_option("--label", out.label, "Only series of this execution label")->type_name("LABEL");
  changes->add_option("--method", out.method, "Only methods (cases) matching this regular expression")
      ->type_name("REGEX");
  changes->add_option("--metric", out.metric, "Only metrics matching this regular expression")->type_name("REGEX");
  changes->add_option("--since", out.since, "Only runs started on or after this UTC date")->type_name("YYYY-MM-DD");
  changes->add_option("--max_pvalue", out.max_pvalue, "A change point's significance (default 0.001)")
      ->check(CLI::Range(1e-12, 0.5));
  changes
      ->add_option("--min_magnitude", out.min_magnitude,
                   "Leave out steps smaller than this, in percent of the mean before (default 0)")
      ->check(CLI::Range(0.0, 1000.0));
  changes->add_option("--window", out.window, "E-Divisive's window over long series, in runs (default 200)")
      ->check(CLI::Range(8, 100000));
  changes->add_flag("--use_flagged", out.use_flagged,
                    "Each run's median over all its succeeded trials, disturbed ones (host_busy, ...) too; by "
                    "default they are left out, and a run with none left is no point of its series");
  changes->add_option("--format", out.format, "text, markdown or json")
      ->check(CLI::IsMember({"text", "markdown", "json"}));
  changes
      ->add_option("--junit", out.junit_file,
                   "Also write JUnit XML: one test case per series, a slower change a failure")
      ->type_name("FILE");
  changes
      ->add_flag("--fail_on_change", out.fail_on_change,
                 "Exit by the gate (docs/compare.md): 1 when a series' latest change point is slower, 5 "
                 "(undecided) when a series cannot be judged (the flags left it empty, or it is too short to "
                 "split) or there is none, else 0")
      ->group("Gate");
  add_pass_on_flag(*changes, out.pass_on, "Gate");
  add_db_flag(*changes, out);
  return changes;
}

CLI::App* add_site(CLI::App& app, HistoryOptions& out) {
  CLI::App* site = app.add_subcommand(
      "site",
      "Write a static, self-contained site of the history: every series with its sparkline and latest change, a "
      "page per series (every trial a dot, the medians, the change points with their commits), a page per run "
      "(its results, compared with the previous run), and perfzero report's cost view per date");
  site->add_option("--out", out.site_out, "The folder to write (made when missing)")->required()->type_name("DIR");
  site->add_option("--label", out.label, "Only series and runs of this execution label")->type_name("LABEL");
  site->add_option("--method", out.method, "Only methods (cases) matching this regular expression")->type_name("REGEX");
  site->add_option("--metric", out.metric, "Only metrics matching this regular expression")->type_name("REGEX");
  site->add_option("--since", out.since, "Only runs started on or after this UTC date")->type_name("YYYY-MM-DD");
  site->add_option("--last", out.site_last,
                   "Each configuration's newest runs drawn on its series pages, each with a page of its own "
                   "(default 200: about 4 pixels a run on the chart); change points are found over whole series")
      ->check(CLI::Range(1, 100000));
  site->add_option("--cost_days", out.cost_days,
                   "perfzero report's cost view, a page per date, for the runs of the newest run's date and the "
                   "calendar days before it, this many in all (default 30; 0: none)")
      ->check(CLI::Range(0, 100000));
  site->add_option("--catalog", out.catalog, "The price catalog (default: as perfzero report finds it)")
      ->type_name("FILE");
  site->add_flag("--no_catalog", out.no_catalog, "Price nothing");
  site->add_option("--max_pvalue", out.max_pvalue, "A change point's significance (default 0.001)")
      ->check(CLI::Range(1e-12, 0.5));
  site->add_option("--min_magnitude", out.min_magnitude,
                   "Leave out steps smaller than this, in percent of the mean before (default 0)")
      ->check(CLI::Range(0.0, 1000.0));
  site->add_flag("--use_flagged", out.use_flagged,
                 "Draw disturbed trials too (host busy, GPU throttled): by default a run's point is the median of "
                 "its undisturbed trials, and a run with none is left out (and counted)");
  site->add_option("--window", out.window, "E-Divisive's window over long series, in runs (default 200)")
      ->check(CLI::Range(8, 100000));
  add_db_flag(*site, out);
  return site;
}

CLI::App* add_prune(CLI::App& app, HistoryOptions& out) {
  CLI::App* prune = app.add_subcommand("prune", "Delete all but the newest runs of each label");
  prune->add_option("--keep_last", out.keep_last, "How many of each label's newest runs to keep")
      ->required()
      ->check(CLI::Range(1, 100000000));
  prune->add_option("--label", out.label, "Only this label's runs")->type_name("LABEL");
  add_db_flag(*prune, out);
  return prune;
}

}  // namespace

std::optional<std::string> parse_history_flags(int argc, const char* const* argv, HistoryOptions& out) {
  CLI::App app{
      "Stores runs in a results database and reads them back (docs/history.md). Exit 0 when done, 2 for bad "
      "flags, an unreadable run or an unknown execution id, 4 when the database refused (cannot be opened or "
      "written, a lock held past 30 s); history changes --fail_on_change: 1 for a slower change point, 5 when "
      "undecided.",
      "perfzero history"};
  app.require_subcommand(1);
  auto* ingest = app.add_subcommand(
      "ingest", "Store run directories (a run already stored is left as it was, unless it was stored unfinished)");
  ingest->add_option("RUN_DIR", out.runs, "Run directories (or perfzero_summary.json files)")->required();
  ingest->add_flag("--partial", out.partial,
                   "Store a run that is still running (or was killed) as it stands; a later ingest of it, "
                   "finished, replaces it");
  add_db_flag(*ingest, out);
  auto* list = app.add_subcommand("list", "The stored runs, newest first");
  list->add_option("--label", out.label, "Only runs with this execution label")->type_name("LABEL");
  list->add_option("--limit", out.limit, "At most this many runs (default 50)")->check(CLI::Range(1, 1000000));
  list->add_option("--format", out.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  add_db_flag(*list, out);
  auto* show = app.add_subcommand("show", "One stored run: its cases, trials and metrics");
  show->add_option("EXECUTION_ID", out.execution_id, "The run's execution id (perfzero history list)")->required();
  show->add_option("--format", out.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  show->add_flag("--use_flagged", out.use_flagged,
                 "Each metric's median over all its succeeded trials, disturbed ones (host_busy, ...) too; by "
                 "default they are left out and counted");
  add_db_flag(*show, out);
  CLI::App* changes = add_changes(app, out);
  CLI::App* site = add_site(app, out);
  CLI::App* prune = add_prune(app, out);
  if (auto help = parse_or_help(app, argc, argv)) return help;
  for (const auto* sub : {ingest, list, show, changes, site, prune}) {
    if (sub->parsed()) out.action = sub->get_name();
  }
  if (out.db.empty()) throw UsageError("history: --db must not be empty");
  if (out.action == "site" && out.site_out.empty()) throw UsageError("history site: --out must not be empty");
  if ((out.pass_on.undecided || out.pass_on.missing) && !out.fail_on_change) {
    throw UsageError("history changes --pass_on: only with --fail_on_change (it says what the gate accepts)");
  }
  if (out.action == "changes" || out.action == "site") {
    check_metrics_pattern("--method", out.method);
    check_metrics_pattern("--metric", out.metric);
    out.min_magnitude /= 100.0;
  }
  return std::nullopt;
}

}  // namespace perfzero::cli
