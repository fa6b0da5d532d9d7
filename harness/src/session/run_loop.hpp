#pragma once
// Executes a run's schedule: each (case, trial) in its own child through the runner, each result
// handed to the recorder as an event. Stops between trials when SIGINT/SIGTERM/SIGHUP arrives.
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/run_plan.hpp"
#include "engines/engine.hpp"
#include "progress/progress.hpp"
#include "results/model.hpp"
#include "results/recorder.hpp"
#include "runner/execute_trial.hpp"
#include "runner/local_executor.hpp"
#include "session/child_command.hpp"
#include "session/run_facts.hpp"
#include "session/schedule.hpp"
#include "session/session_settings.hpp"
#include "session/trial_dir_ahead.hpp"
#include "session/trial_tmpdirs.hpp"

namespace perfzero::session {

class RunLoop {
 public:
  // `run_dir`: the run's directory, as the session claimed it. `previous`: the run being resumed (--resume); its
  // finished trials are kept, not run again. Progress lines go to `progress_out` (stdout for a run; stderr for `ab`,
  // whose stdout is its table). `engines`: what starts each case's trials (engines/engine.hpp); a test gives its own.
  RunLoop(const SessionSettings& settings, const HarnessPaths& paths, std::filesystem::path run_dir,
          const std::vector<config::PlannedCase>& plan, results::Recorder& recorder,
          std::optional<results::Run> previous, bool with_trial_reports, std::FILE* progress_out = stdout,
          const engines::EngineRegistry& engines = engines::builtin_engines());

  // Returns the stop signal when interrupted.
  std::optional<int> run_all(bool interleave);

  // For a driver that picks the steps itself (`perfzero ab`): begin(), then run_step() per step while
  // stop() is empty, then end() (also when a step throws).
  void begin(int total_steps);
  // The same, with progress lines on a Progress shared with another loop, each line naming `role`.
  void begin(progress::Progress& shared, std::string role);
  void run_step(const Step& step, const Step* next);
  void end();
  std::optional<int> stop() const { return stop_; }
  void note(const std::string& line) { progress_->note(line); }
  // A budget for every trial from now on, warm-ups included: a trial still running at `at` is stopped
  // then (timed_out, its detail naming `cause`), and none starts after it (budget_spent()).
  void set_deadline(std::chrono::steady_clock::time_point at, std::string cause);
  bool budget_spent() const { return deadline_ && std::chrono::steady_clock::now() >= deadline_->at; }

 private:
  std::filesystem::path trial_dir(const Step& step);
  bool will_run(const Step& step) const;
  bool has_enough(const Step& step);
  // The earlier attempt's trial (or warm-up) `number` of this case, when it ended and is kept.
  const results::Trial* previous_trial(const std::string& case_name, int number, bool warmup = false) const;
  void prepare_trial_dir(const std::filesystem::path& run_dir, const std::filesystem::path& dir);
  void fill_request(runner::TrialRequest& request, const config::PlannedCase& planned, const std::filesystem::path& dir,
                    const Step& step, const std::string& what);
  void say_finished(const config::PlannedCase& planned, const std::string& what, const runner::TrialRecord& record);
  std::optional<runner::ExecutedTrial> execute(std::size_t case_index, const Step& step, const std::string& what);
  void pick_up_run_facts();

  const SessionSettings& settings_;
  const std::filesystem::path run_dir_;  // the session claimed it; the loop writes under it
  const std::vector<config::PlannedCase>& plan_;
  results::Recorder& recorder_;
  std::optional<results::Run> previous_;
  bool with_trial_reports_;
  std::FILE* progress_out_;
  std::chrono::steady_clock::time_point run_start_;
  std::optional<progress::Progress> own_progress_;
  progress::Progress* progress_ = nullptr;
  std::string role_;  // "baseline " or "candidate " in `ab`: the start of every progress name
  std::optional<int> stop_;
  struct Deadline {
    std::chrono::steady_clock::time_point at;
    std::string cause;
  };
  std::optional<Deadline> deadline_;
  RunFacts run_facts_;
  std::set<std::size_t> enough_said_;  // trials: auto cases whose stop the progress lines announced
  // One for the whole run, so its launcher and monitor thread are started once, not per trial.
  runner::LocalExecutor executor_;
  HarnessPaths paths_;
  // Each made for the first case that names it; every one starts its launcher through executor_.
  const engines::EngineRegistry& engine_registry_;
  engines::RunEngines engines_;
  TrialTmpDirs tmp_dirs_{!in_memory_file_system(run_dir_)};
  ChildEnvironments child_envs_;                                      // every trial's environment, merged once per case
  TrialDirAhead dir_ahead_{tmp_dirs_, worth_making_ahead(run_dir_)};  // after tmp_dirs_: it uses it until destroyed
};

}  // namespace perfzero::session
