#pragma once
// journal.ndjson: the run's append-only record, one JSON event per line, written as each trial
// ends. It is what makes the per-method cost constant (nothing is rewritten) and what keeps a
// finished trial when the harness is killed: a kill -9 loses at most the trial that was running.
// A torn last line (the harness died inside a write) is skipped by the reader.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/model.hpp"

namespace perfzero::results {

inline constexpr const char* kJournalFile = "journal.ndjson";

class JournalWriter {
 public:
  // Opens (creating or appending) the journal in `run_dir`; throws std::runtime_error with the path.
  explicit JournalWriter(const std::filesystem::path& run_dir);
  ~JournalWriter();
  JournalWriter(const JournalWriter&) = delete;
  JournalWriter& operator=(const JournalWriter&) = delete;

  void run_started(bool resuming);
  // Writes the case's header the first time one of its trials is journaled. Throws OutputError for a
  // write refused now or a sync of an earlier line that failed in the background.
  void trial_finished(const Case& c, const Trial& trial);
  // Queues what was appended so far to be synced while the next trial runs (common/sync_behind.hpp):
  // a finished trial is the one thing a run must not lose, even to a kernel crash.
  void sync_later();
  void run_finished(const std::string& status);

 private:
  void append(const nlohmann::json& event);

  std::filesystem::path path_;
  int fd_ = -1;
  std::set<std::string> cases_written_;
};

struct JournalContents {
  std::vector<Case> cases;  // in first-journaled order, with their trials and warm-ups
  std::string last_status;  // from the last run_finished event; empty when the run never finished
  int skipped_lines = 0;    // unreadable lines (a torn write)
};

// Reads a journal; throws std::runtime_error naming the file and line for a malformed event that is
// not the last line.
JournalContents read_journal(const std::filesystem::path& path);

}  // namespace perfzero::results
