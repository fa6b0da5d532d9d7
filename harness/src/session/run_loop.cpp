#include "session/run_loop.hpp"

#include "session/trial_dir_guard.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "api/param_json.hpp"
#include "child_results/google_benchmark_result.hpp"
#include "child_results/rank_reports.hpp"
#include "child_results/tool_output.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "common/trial_files.hpp"
#include "redact/redact.hpp"
#include "results/auto_trials.hpp"
#include "results/run_manifest.hpp"
#include "run_outputs/trial_report.hpp"
#include "runner/signals.hpp"
#include "samplers/cpu_clock_sampler.hpp"
#include "samplers/leftover_files_sampler.hpp"

namespace perfzero::session {

using Clock = std::chrono::steady_clock;

namespace {

// The child's command line as --debug shows it: a built-in's parameters (argv[2], JSON) redacted by
// name as reports show them, everything else by the command-line rules (docs/reports.md).
std::string debug_line(const config::PlannedCase& planned, const runner::ChildCommand& command) {
  std::vector<std::string> shown = redact::redact_argv(command.argv);
  if (!planned.external && shown.size() > 2) {
    shown[2] = redact::redacted_params(detail::params_to_json(planned.params))
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return fmt::format("debug: {} in {}", text::join(shown, " "), redact::redact_urls(command.working_dir.string()));
}

// What an earlier attempt at a trial left in its directory: its result, its log, its TMPDIR and its
// samplers' series (a sampler with no sample this time writes none, so an old one would stay).
void remove_earlier_attempt(const std::filesystem::path& dir, const engines::EngineRegistry& engines) {
  std::error_code ignored;
  std::filesystem::remove(dir / files::kResultFile, ignored);
  std::filesystem::remove(dir / child_results::kGoogleBenchmarkFile, ignored);
  std::filesystem::remove(dir / child_results::kFioFile, ignored);
  std::filesystem::remove(dir / child_results::kIperf3File, ignored);  // iperf3 --logfile appends
  std::filesystem::remove(dir / files::kChildLogFile, ignored);
  std::filesystem::remove_all(dir / "tmp", ignored);
  std::filesystem::remove_all(dir / child_results::kRanksDir, ignored);  // a multi-rank attempt's reports
  // What an engine left there (its work was ended when this run started: session/run_session.cpp).
  for (const auto& kind : engines.kinds()) {
    for (const auto& file : kind.trial_files) std::filesystem::remove(dir / file, ignored);
  }
  // What cannot be removed (a read-only directory inside, as Go's module cache makes) is moved
  // aside, left to be looked at: the new attempt's TMPDIR must be new and empty.
  for (int n = 1; std::filesystem::exists(std::filesystem::symlink_status(dir / "tmp", ignored)) && n < 1000; ++n) {
    std::filesystem::rename(dir / "tmp", dir / fmt::format("tmp.earlier.{}", n), ignored);
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir, ignored)) {
    if (files::is_sampler_log_file(entry.path().filename().string())) std::filesystem::remove(entry.path(), ignored);
  }
}

}  // namespace

RunLoop::RunLoop(const SessionSettings& settings, const HarnessPaths& paths, std::filesystem::path run_dir,
                 const std::vector<config::PlannedCase>& plan, results::Recorder& recorder,
                 std::optional<results::Run> previous, bool with_trial_reports, std::FILE* progress_out,
                 const engines::EngineRegistry& engines)
    : settings_(settings),
      run_dir_(std::move(run_dir)),
      plan_(plan),
      recorder_(recorder),
      previous_(std::move(previous)),
      with_trial_reports_(with_trial_reports),
      progress_out_(progress_out),
      run_start_(Clock::now()),
      executor_(paths.launcher,
                [context = samplers::SamplerContext{{settings.cpu_throttle_threshold, settings.cpu_throttle_share},
                                                    std::make_shared<samplers::DirListing>(),
                                                    settings.host_busy_threshold_cpus}] {
                  return samplers::make_builtin_samplers(context);
                }),
      paths_(paths),
      engine_registry_(engines),
      engines_(engines, engines::EngineSetup{executor_, paths_}) {}

void RunLoop::begin(int total_steps) {
  own_progress_.emplace(progress_out_, ::isatty(::fileno(progress_out_)) == 1, total_steps);
  progress_ = &*own_progress_;
}

void RunLoop::begin(progress::Progress& shared, std::string role) {
  progress_ = &shared;
  role_ = std::move(role) + " ";
}

// However the loop ends (a stop, or an error that ends the run), a directory made ahead for a trial
// that will not run and the kept TMPDIR go now, while the run still holds its output directory.
void RunLoop::end() {
  dir_ahead_.discard();
  tmp_dirs_.release();
}

std::optional<int> RunLoop::run_all(bool interleave) {
  const auto schedule = make_schedule(plan_, interleave);
  begin(static_cast<int>(schedule.size()));
  try {
    for (std::size_t i = 0; i < schedule.size() && !stop_; ++i) {
      run_step(schedule[i], i + 1 < schedule.size() ? &schedule[i + 1] : nullptr);
    }
  } catch (...) {
    end();
    throw;
  }
  end();
  return stop_;
}

const results::Trial* RunLoop::previous_trial(const std::string& case_name, int number, bool warmup) const {
  if (!previous_) return nullptr;
  // Only this run's own trials of this very case: a report of another run, or of a case that kept
  // its name but changed its method, parameters or command, is not a trial of this one.
  if (previous_->info.execution_id != recorder_.run().info.execution_id) return nullptr;
  const results::Case* c = previous_->find_case(case_name);
  const results::Case* now = recorder_.run().find_case(case_name);
  if (c == nullptr || now == nullptr || results::case_identity(*c) != results::case_identity(*now)) return nullptr;
  for (const auto& t : warmup ? c->warmups : c->trials) {
    if (t.number == number && t.outcome != Outcome::interrupted) return &t;
  }
  return nullptr;
}

bool RunLoop::will_run(const Step& step) const {
  const auto& planned = plan_[step.case_index];
  if (!step.warmup) return previous_trial(planned.name, step.number) == nullptr;
  // A warm-up prepares the trials after it: it runs again (a resumed cache is cold) unless every
  // trial of its case is kept, as in a resumed run that had completed (for trials: auto, every trial
  // it needed: its earlier attempt had enough).
  if (planned.auto_trials && previous_trial(planned.name, 1) != nullptr) {
    const results::Case* earlier = previous_->find_case(planned.name);
    if (earlier != nullptr && results::auto_state(*earlier, *planned.auto_trials).done) return false;
  }
  for (int n = 1; n <= planned.trials; ++n) {
    if (previous_trial(planned.name, n) == nullptr) return true;
  }
  return false;
}

// trials: auto: the case has enough (its noise is low enough, or a limit is reached) and its later
// steps are passed over.
bool RunLoop::has_enough(const Step& step) {
  const auto& planned = plan_[step.case_index];
  if (step.warmup || !planned.auto_trials) return false;
  const results::AutoState state = results::auto_state(recorder_.run().cases[step.case_index], *planned.auto_trials);
  if (state.done && enough_said_.insert(step.case_index).second) {
    progress_->note(fmt::format("{}{}: enough trials: {}", role_, planned.name, state.reason));
  }
  return state.done;
}

std::filesystem::path RunLoop::trial_dir(const Step& step) {
  return std::filesystem::path(run_dir_) / recorder_.case_at(step.case_index).dir /
         fmt::format("{}_{}", step.warmup ? "warmup" : "trial", step.number);
}

void RunLoop::run_step(const Step& step, const Step* next) {
  const config::PlannedCase& planned = plan_[step.case_index];
  if (has_enough(step)) return;
  const std::string what = step.warmup ? fmt::format("warm-up {}/{}", step.number, planned.warmup_trials)
                                       : fmt::format("trial {}/{}", step.number, planned.trials);
  if (!will_run(step)) {
    const results::Trial* done = previous_trial(planned.name, step.number, step.warmup);
    if (done == nullptr) return;  // a warm-up the earlier attempt never ran, and none is needed now
    progress_->resumed(role_ + planned.name, what, done->outcome);
    recorder_.adopt(step.case_index, *done, results::TrialArtifacts{trial_dir(step), {}});
    return;
  }
  auto executed = execute(step.case_index, step, what);
  if (!executed) return;
  // The next trial's directory is made while this one's reports are written (session/trial_dir_ahead.hpp).
  // Not for a trials: auto case: whether its next trial runs is known only once this one is recorded.
  if (next != nullptr && !stop_ && will_run(*next) && !plan_[next->case_index].auto_trials) {
    dir_ahead_.prepare(trial_dir(*next), files::kChildLogFile);
  }
  pick_up_run_facts();
  if (with_trial_reports_) executed->trial.report = run_outputs::trial_report_path(executed->trial);
  recorder_.trial_finished(step.case_index, std::move(executed->trial), std::move(executed->artifacts));
}

// What a method measured once per run about the machine (the CPU's FLOP peak) belongs to the run's
// system info from then on (session/run_facts.hpp).
void RunLoop::pick_up_run_facts() {
  const auto taken = [this](const std::string& name) { return recorder_.run().info.system.contains(name); };
  const std::size_t refused_before = run_facts_.refused().size();
  for (auto& fact : run_facts_.pick_up(run_dir_, taken)) {
    recorder_.add_system_entry(fact.name, std::move(fact.value));
  }
  for (std::size_t i = refused_before; i < run_facts_.refused().size(); ++i) note(run_facts_.refused()[i]);
}

void RunLoop::set_deadline(std::chrono::steady_clock::time_point at, std::string cause) {
  deadline_ = Deadline{at, std::move(cause)};
}

// The trial's directory, made real: one made ahead is taken as it is.
void RunLoop::prepare_trial_dir(const std::filesystem::path& run_dir, const std::filesystem::path& dir) {
  if (dir_ahead_.take(dir)) return;
  bool fresh = make_fresh_trial_dir(run_dir, dir);
  if (!fresh) {
    // A link or a file an earlier attempt's method left where a directory belongs is never followed
    // (a resumed run): the directories are made real again first.
    if (!not_a_real_directory(run_dir, dir).empty()) restore_trial_dir(run_dir, dir);
    std::error_code made;
    fresh = std::filesystem::create_directories(dir, made);
    if (made) throw OutputError(fmt::format("cannot create {}: {}", dir.string(), made.message()));
  }
  // A trial directory from before (a resumed run, or one half made ahead) may hold an earlier
  // attempt's files, which this attempt's reports must not be read with; a new one holds none,
  // and is not searched.
  if (!fresh) remove_earlier_attempt(dir, engine_registry_);
  tmp_dirs_.make(dir);  // the trial's TMPDIR (child_command)
}

// What the executor is asked: the command, its limits (a budget's deadline among them), its progress.
void RunLoop::fill_request(runner::TrialRequest& request, const config::PlannedCase& planned,
                           const std::filesystem::path& dir, const Step& step, const std::string& what) {
  request.command = child_command(planned, dir, step.number, settings_.root_data_dir, child_envs_);
  request.command.counters = settings_.counters;
  request.log_path = dir / files::kChildLogFile;
  request.timeout = planned.timeout;
  if (deadline_) {
    // What is left of the budget caps the trial, when it is less than the method's own time-out;
    // rounded up, so that a trial the budget ends never ends before it and another one starts.
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline_->at - Clock::now());
    if (request.timeout.count() == 0 || left < request.timeout) {
      request.timeout = std::max(left, std::chrono::milliseconds(1));
      request.timeout_cause = deadline_->cause;
    }
  }
  request.monitor_interval = planned.monitor_interval;
  request.max_log_bytes = static_cast<std::uint64_t>(planned.max_log_bytes);
  request.on_tick = [&](double elapsed) { progress_->running(role_ + planned.name, what, elapsed); };
  request.launch = planned.launch;
  request.trial_dir = dir;
  engines_.engine_for(planned).prepare(request, planned);
}

// The progress line of a finished trial.
void RunLoop::say_finished(const config::PlannedCase& planned, const std::string& what,
                           const runner::TrialRecord& record) {
  // The line shows the method's time; when the harness took longer than the method (reading a huge
  // result, say), that is shown too, so a slow trial is not blamed on the method.
  std::string shown = record.classification.detail;
  const double harness_only = record.harness_seconds - record.execution.wall_seconds;
  if (harness_only > 0.1 && harness_only > record.execution.wall_seconds) {
    shown += fmt::format("{}the harness took {} more", shown.empty() ? "" : "; ", text::format_duration(harness_only));
  }
  progress_->finished(role_ + planned.name, what, record.classification.outcome, shown, record.execution.wall_seconds);
}

std::optional<runner::ExecutedTrial> RunLoop::execute(std::size_t case_index, const Step& step,
                                                      const std::string& what) {
  if (auto sig = runner::take_pending_stop_signal()) {
    stop_ = *sig;
    return std::nullopt;
  }
  if (budget_spent()) return std::nullopt;
  const config::PlannedCase& planned = plan_[case_index];
  runner::TrialJob job;
  job.planned = &planned;
  job.trial = step.number;
  job.warmup = step.warmup;
  job.run_dir = run_dir_;
  job.dir = trial_dir(step);
  job.started = Clock::now();
  job.started_offset = std::chrono::duration<double>(job.started - run_start_).count();
  prepare_trial_dir(job.run_dir, job.dir);
  engines::Engine& engine = engines_.engine_for(planned);
  fill_request(job.request, planned, job.dir, step, what);
  runner::Executor* executor = &engine.executor();
  if (settings_.debug) {
    progress_->note(debug_line(planned, job.request.command));
  }

  // The method may have removed or replaced its directory: then a fresh directory takes the reports.
  const std::optional<DirIdentity> made = real_directory(job.dir);
  job.request.check_trial_dir = [this, made, run_dir = job.run_dir, dir = job.dir]() {
    runner::TrialDirCheck checked;
    checked.damage = made ? damage_to(run_dir, dir, *made) : std::string();
    if (checked.damage.empty()) {
      checked.tmp_dir_untouched = tmp_dirs_.done(dir);
    } else {
      restore_trial_dir(run_dir, dir);
    }
    return checked;
  };
  runner::ExecutedTrial executed = runner::execute_trial(job, *executor);
  const runner::TrialRecord& record = executed.record;
  if (record.classification.outcome == Outcome::interrupted) stop_ = record.execution.signal;
  say_finished(planned, what, record);
  return executed;
}

}  // namespace perfzero::session
