// `perfzero history ingest|list|show|changes|site|prune` (docs/history.md).
#include <cstdio>
#include <ctime>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands/commands.hpp"
#include "commands/history_database.hpp"
#include "commands/history_site_command.hpp"
#include "common/errors.hpp"
#include "common/escape.hpp"
#include "common/si_number.hpp"
#include "common/utc_time.hpp"
#include "compare/compare_runs.hpp"
#include "history/history_changes.hpp"
#include "history/run_id_prefix.hpp"
#include "history/store.hpp"
#include "results/model_json.hpp"
#include "results/reader.hpp"
#include "results/run_status.hpp"
#include "results/statistics.hpp"

namespace perfzero::commands {

namespace {

using nlohmann::json;

// Reading never creates a database: a mistyped --db is an error, not an empty history.
history::Store open_store(const cli::HistoryOptions& o, bool create) {
  if (!create) return open_history_for_reading(o.db, "history", " (perfzero history ingest creates it)");
  if (!is_database_url(o.db)) {
    const std::filesystem::path file(o.db);
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  }
  return history::Store(o.db);
}

int ingest(const cli::HistoryOptions& o) {
  // Every run is read before the database is touched: a bad path stores nothing.
  std::vector<results::Run> runs;
  for (const auto& path : o.runs) {
    try {
      auto loaded = results::read_run(path);
      for (const auto& w : loaded.warnings) fmt::print(stderr, "perfzero history: warning: {}\n", w);
      runs.push_back(std::move(loaded.run));
    } catch (const std::exception& e) {
      throw UsageError(fmt::format("history: cannot read {}: {}", path, e.what()));
    }
    // A run still running (or killed) would be stored frozen half way: only when asked.
    if (results::RunStatus::parse(runs.back().status).is(results::RunStatusKind::running) && !o.partial) {
      throw UsageError(
          fmt::format("history: {} is still running, or was killed (its status is running): ingest it once it ends "
                      "(--resume completes a killed run), or as it stands now with --partial",
                      path));
    }
  }
  history::Store store = open_store(o, true);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto ingested = store.ingest(runs[i]);
    const char* what = ingested == history::Store::Ingested::stored      ? "stored"
                       : ingested == history::Store::Ingested::completed ? "stored (replacing its unfinished copy)"
                                                                         : "already stored";
    fmt::print("{} {} ({}, {}) in {}\n", what, runs[i].info.execution_id, o.runs[i], runs[i].status, store.describe());
  }
  return to_int(ExitCode::all_succeeded);
}

int list(const cli::HistoryOptions& o) {
  history::Store store = open_store(o, false);
  const auto rows = store.list({o.label, o.limit});
  if (o.format == "json") {
    json out = json::array();
    for (const auto& r : rows) {
      out.push_back({{"execution_id", r.execution_id},
                     {"execution_timestamp", r.execution_timestamp},
                     {"execution_label", r.execution_label},
                     {"system_name", r.system_name},
                     {"image", r.image},
                     {"status", r.status},
                     {"cases", r.cases},
                     {"trials", r.trials},
                     {"commit", r.commit},
                     {"branch", r.branch},
                     {"build_label", r.build_label}});
    }
    fmt::print("{}\n", out.dump(2, ' ', false, json::error_handler_t::replace));
    return 0;
  }
  fmt::print("{:<28} {:<20} {:<12} {:<16} {:<11} {:>5} {:>6}  {}\n", "execution_id", "started (UTC)", "label", "system",
             "status", "cases", "trials", "commit");
  for (const auto& r : rows) {
    fmt::print("{:<28} {:<20} {:<12} {:<16} {:<11} {:>5} {:>6}  {}\n", text::printable(r.execution_id),
               text::utc_time(r.execution_timestamp), text::printable(r.execution_label),
               text::printable(r.system_name), r.status, r.cases, r.trials,
               r.commit.empty() ? "-" : text::printable(r.commit.substr(0, 12)));
  }
  return 0;
}

json run_json(const results::Run& run) {
  json cases = json::array();
  for (const auto& c : run.cases) {
    json trials = json::array();
    for (const auto& t : c.trials) trials.push_back(results::trial_to_json(t));
    json header = results::case_header_to_json(c);
    header["trials"] = std::move(trials);
    cases.push_back(std::move(header));
  }
  return {{"run", results::run_info_to_json(run.info)}, {"status", run.status}, {"cases", std::move(cases)}};
}

// Each metric's median over its undisturbed trials (all of them with --use_flagged), and what the
// flags left out: a busy host's run shows why a median is missing instead of a number from noise.
void print_run(const results::Run& run, bool use_flagged) {
  fmt::print("{}  {}  label {}  system {}  {}\n", run.info.execution_id, text::utc_time(run.info.execution_timestamp),
             run.info.execution_label, run.info.system_name, run.status);
  if (!run.info.source.empty()) {
    const auto& src = run.info.source;
    fmt::print("  commit {}{}{}\n", src.commit.empty() ? "-" : text::printable(src.commit),
               src.branch.empty() ? "" : " on " + text::printable(src.branch),
               src.build_label.empty() ? "" : ", build " + text::printable(src.build_label));
  }
  int left_out = 0;
  for (const auto& c : compare::collect_values(run)) {
    fmt::print("  {}\n", text::printable(c.case_name));
    for (const auto& s : c.series) {
      const auto side = compare::side_of(c, s, use_flagged);
      const auto stats = results::compute_stats(side.values);
      std::string note;
      if (side.disturbed > 0) {
        note = use_flagged ? fmt::format(", {} disturbed among them", side.disturbed)
                           : fmt::format(", {} disturbed left out", side.disturbed);
      }
      if (!use_flagged) left_out += side.disturbed;
      fmt::print("    {:<32} median {}  ({} trials{})\n", text::printable(s.metric),
                 text::si_or(stats.median, text::printable(s.unit), "-"), side.values.size(), note);
    }
  }
  if (left_out > 0) {
    fmt::print(
        "  {} metric value(s) of disturbed trials (host busy, GPU throttled) left out; --use_flagged judges "
        "them\n",
        left_out);
  }
}

int show(const cli::HistoryOptions& o) {
  history::Store store = open_store(o, false);
  const auto run = store.show(history::resolve_run_id(store, o.execution_id));
  if (!run) throw UsageError(fmt::format("history: no run {} in {}", o.execution_id, store.describe()));
  if (o.format == "json") {
    fmt::print("{}\n", run_json(*run).dump(2, ' ', false, json::error_handler_t::replace));
  } else {
    print_run(*run, o.use_flagged);
  }
  return 0;
}

int prune(const cli::HistoryOptions& o) {
  history::Store store = open_store(o, false);
  std::string vacuum_problem;
  const auto deleted = store.prune(o.label, o.keep_last, &vacuum_problem);
  for (const auto& id : deleted) fmt::print("deleted {}\n", text::printable(id));
  if (!vacuum_problem.empty()) {
    fmt::print(stderr, "perfzero history prune: warning: the runs are deleted, but the file was not compacted: {}\n",
               vacuum_problem);
  }
  fmt::print("pruned {} run(s) from {}, keeping the newest {} of {}\n", deleted.size(), store.describe(), o.keep_last,
             o.label.empty() ? "each label" : "label " + text::printable(o.label));
  return 0;
}

}  // namespace

int history_command(const cli::HistoryOptions& options) {
  try {
    if (options.action == "ingest") return ingest(options);
    if (options.action == "list") return list(options);
    if (options.action == "changes") {
      history::Store store = open_store(options, false);
      return history::history_changes(options, store);
    }
    if (options.action == "site") {
      history::Store store = open_store(options, false);
      return history_site(options, store);
    }
    if (options.action == "prune") return prune(options);
    return show(options);
  } catch (const history::HistoryError& e) {
    // The database refused (cannot open, locked past the timeout, full, a newer schema).
    throw OutputError(fmt::format("history: {}", e.what()));
  }
}

}  // namespace perfzero::commands
