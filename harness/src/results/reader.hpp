#pragma once
// Loads finished (or interrupted, or killed) runs back into the results model, for --resume and
// for the commands that read results (report, compare, history). Reads:
//   - a run directory of this version: run.json + journal.ndjson;
//   - a run directory written by schema 1.0.0: summary.json + each trial's perfzero_summary.json;
//   - a single perfzero_summary.json: a run of one case and one trial.
// Refuses another major schema version with a message saying which version wrote it.
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "results/model.hpp"
#include "results/run_status.hpp"

namespace perfzero::results {

class ReadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LoadedRun {
  Run run;
  std::string format;                 // "journal", "summary-1.0", "report"
  std::vector<std::string> warnings;  // e.g. a torn last journal line, a missing trial report
  int foreign_lines = 0;              // journal lines the harness did not write, left out (journal.hpp)
  // The run never finished: still being written, or its harness was killed. What it holds is what
  // had finished; each command that reads it says so (partial_warning).
  bool partial() const { return RunStatus::parse(run.status).is(RunStatusKind::running); }
};

// The one line every command prints for a partial run: nullopt for a run that ended.
std::optional<std::string> partial_warning(const LoadedRun& loaded, const std::string& path);

LoadedRun read_run(const std::filesystem::path& path);

// Throws ReadError unless `version` has the major version this build reads.
void check_schema_version(const std::string& version, const std::filesystem::path& where);

namespace detail {
// Readers of the formats of earlier versions and of single reports (results/legacy_reader.cpp).
LoadedRun read_legacy_run(const std::filesystem::path& dir);
LoadedRun read_single_report(const std::filesystem::path& file);
}  // namespace detail

}  // namespace perfzero::results
