// `perfzero history ingest|list|show` flags (docs/history.md).
#include <fmt/format.h>

#include "cli/cli_app.hpp"
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

}  // namespace

std::optional<std::string> parse_history_flags(int argc, const char* const* argv, HistoryOptions& out) {
  CLI::App app{
      "Stores runs in a results database and reads them back (docs/history.md). Exit 0 when done, 2 for bad "
      "flags, an unreadable run or an unknown execution id, 4 when the database refused (cannot be opened or "
      "written, a lock held past 30 s).",
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
  add_db_flag(*show, out);
  if (auto help = parse_or_help(app, argc, argv)) return help;
  for (const auto* sub : {ingest, list, show}) {
    if (sub->parsed()) out.action = sub->get_name();
  }
  if (out.db.empty()) throw UsageError("history: --db must not be empty");
  return std::nullopt;
}

}  // namespace perfzero::cli
