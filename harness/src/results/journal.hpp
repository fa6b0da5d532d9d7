#pragma once
// journal.ndjson: the run's append-only record, one JSON event per line, written as each trial
// ends. It is what makes the per-method cost constant (nothing is rewritten) and what keeps a
// finished trial when the harness is killed: a kill -9 loses at most the trial that was running.
// A torn last line (the harness died inside a write) is skipped by the reader.
//
// A method can reach the journal too ($PERFZERO_RUN_DIR/journal.ndjson), and a line it appends must
// not make the run unreadable or replace what the harness recorded. Each harness line carries "seq",
// 1, 2, 3, ... across the run and its resumes; the reader keeps, for each seq, the last line (the
// harness's own comes after anything a method appended while it ran) and ignores, naming each with a
// warning, lines that are not JSON, carry no or no valid seq once seq lines began, or do not hold an
// event perfzero writes. Journals written before seq (schema 1.2) are read as before.
#include <sys/types.h>

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
  // Resuming, the numbering goes on from the journal's last seq.
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

  // Bytes others appended to the journal since the harness's last line, cut off before its next one.
  long long foreign_bytes_cut() const { return foreign_bytes_cut_; }

 private:
  void append(nlohmann::json event);
  void append_line(std::string line);  // an event's JSON text with its seq, without the newline
  // Returns where the file ends now (-1: unknown), where the next line will start.
  off_t cut_what_others_appended();

  std::filesystem::path path_;
  int fd_ = -1;
  off_t size_ = -1;  // the journal's size after the harness's last line
  long long foreign_bytes_cut_ = 0;
  long long seq_ = 0;  // of the last line appended
  std::set<std::string> cases_written_;
};

struct JournalContents {
  std::vector<Case> cases;  // in first-journaled order, with their trials and warm-ups
  std::string last_status;  // from the last run_finished event; empty when the run never finished
  int skipped_lines = 0;    // lines not used: a torn last line, or lines perfzero did not write
  int foreign_lines = 0;    // of those, well-formed lines out of the harness's own sequence (a method's)
  bool torn_last_line = false;
  std::vector<std::string> warnings;  // one per line ignored, naming it (file:line: why)
  long long last_seq = 0;             // the highest seq read (0 for a journal written before seq)
};

// The longest journal line read; a longer one is an error naming it and this limit, which
// $PERFZERO_MAX_JOURNAL_LINE_BYTES raises.
inline constexpr std::size_t kDefaultMaxJournalLineBytes = 64ULL << 20;
std::size_t max_journal_line_bytes();

// Reads a journal. Throws std::runtime_error naming the file and line for a line over the limit, or
// when the file cannot be read; every other bad line is skipped with a warning.
JournalContents read_journal(const std::filesystem::path& path);

}  // namespace perfzero::results
