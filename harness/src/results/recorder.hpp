#pragma once
// Keeps the results model of the run in progress. The runner reports events here; the recorder
// updates the model, appends each finished trial to the journal (crash safety at constant cost),
// and forwards the event to the reporters. Whole-file outputs are rewritten at checkpoints, at most
// every few seconds, and never more often than their own cost justifies (see checkpoint_due).
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/write_behind.hpp"
#include "results/events.hpp"
#include "results/journal.hpp"
#include "results/model.hpp"

namespace perfzero::results {

struct NamedObserver {
  std::string name;
  std::unique_ptr<RunObserver> observer;
};

class Recorder {
 public:
  // Writes run.json (status running) and opens the journal in run_dir, the run's directory as its
  // owner claimed it (never read back out of the model).
  Recorder(Run run, std::filesystem::path run_dir, bool resuming, std::vector<NamedObserver> observers);

  const Run& run() const { return run_; }
  Case& case_at(std::size_t index) { return run_.cases.at(index); }

  // A trial taken over from the run being resumed: in the model, already in the journal.
  void adopt(std::size_t case_index, Trial trial, const TrialArtifacts& artifacts);
  // Throws OutputError when the journal refuses the trial; the trial is then flagged not_recorded.
  void trial_finished(std::size_t case_index, Trial trial, TrialArtifacts artifacts);
  // Adds what became known about the machine during the run (e.g. the CPU peak a method measured),
  // for run.json, the summaries and every later trial report.
  void add_system_entry(const std::string& key, nlohmann::json value);
  // Ends the run: journal, run.json and every reporter see the final status. Never throws for a
  // refused write: each output is tried, and the first refusal is returned (file and reason).
  std::optional<std::string> finish(const std::string& status);
  // For a command about to exit: the model is left to the process's end, which frees it at once,
  // rather than node by node (a 1,000-trial run's model took 13 ms to free); run() is empty after.
  void leave_model_to_exit();

  static constexpr std::chrono::seconds kMinCheckpointInterval{5};

 private:
  // What a refused write does where an event happens: at `goes_on` the run continues, so each refusal
  // is a warning; at `stops` the caller stops the run (or fails its end) with the first refusal as
  // the run's one error line, so they are not printed again before it (docs/reliability.md).
  enum class OnRefusal { goes_on, stops };
  // Returns the first write the file system refused (a std::system_error), if any.
  template <typename Fn>
  std::optional<std::string> each_observer(const char* event, OnRefusal on_refusal, Fn&& fn);
  void warn_once(const std::string& message);
  // Waits for the last trial's files (written behind: common/write_behind.hpp); a refusal flags that
  // trial report_not_written and is returned, other failures are warnings.
  std::optional<std::string> settle_trial_files();
  bool checkpoint_due() const;
  void checkpoint();

  Run run_;
  std::filesystem::path run_dir_;
  JournalWriter journal_;
  std::vector<NamedObserver> observers_;
  std::vector<std::string> reporter_errors_;
  std::chrono::steady_clock::time_point last_checkpoint_;
  std::chrono::steady_clock::duration last_checkpoint_cost_{};
  // Where in the model the trial whose files are being written behind is (a place, not a pointer:
  // the lists grow meanwhile).
  struct TrialPlace {
    std::size_t case_index = 0;
    bool warmup = false;
    std::size_t index = 0;
  };
  std::optional<TrialPlace> written_behind_;
  // Last member: destroyed first, so its thread finishes the queued writes while the rest is intact.
  files::WriteBehind behind_;
};

}  // namespace perfzero::results
