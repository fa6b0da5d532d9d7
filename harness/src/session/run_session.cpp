#include "session/run_session.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "doctor/doctor.hpp"
#include "nvml/gpu_clock_lock.hpp"
#include "results/reader.hpp"
#include "results/run_manifest.hpp"
#include "run_outputs/reporter.hpp"
#include "runner/leftovers.hpp"
#include "runner/signals.hpp"
#include "session/run_setup.hpp"

namespace perfzero::session {

namespace {

constexpr long kFinalWritesReserve = 256L * 1024L;

// The run being resumed, as its files say (this version's journal, or an earlier version's reports).
std::optional<results::Run> previous_run(const ClaimedOutput& output) {
  if (!output.resuming) return std::nullopt;
  try {
    auto loaded = results::read_run(output.dir);
    for (const auto& warning : loaded.warnings) fmt::print(stderr, "perfzero: warning: {}\n", warning);
    return std::move(loaded.run);
  } catch (const results::ReadError& e) {
    throw UsageError(fmt::format("--resume: cannot read the run in {}: {}", output.dir.string(), e.what()));
  }
}

// --resume continues the same plan only: a different one would adopt other cases' trials and drop
// methods from the summary. With --force_resume, the cases the plan no longer has stay in the
// record (after the plan's), and a changed case runs again (RunLoop::previous_trial).
void check_resumed_plan(const SessionSettings& settings, results::Run& run, const results::Run& previous) {
  // The --git_repos checkouts are the code the Python methods run: another revision is another plan.
  if (previous.info.site_packages != run.info.site_packages) {
    const std::string what = fmt::format("run {}'s --git_repos checkouts were {}, now {}", previous.info.execution_id,
                                         previous.info.site_packages.dump(), run.info.site_packages.dump());
    if (!settings.force_resume)
      throw UsageError(fmt::format("--resume: {}; pass --force_resume to resume anyway", what));
    fmt::print(stderr, "perfzero: warning: --force_resume: {}\n", what);
  }
  run.plan_fingerprint = results::plan_fingerprint(run.cases);
  if (previous.plan_fingerprint.empty() || previous.plan_fingerprint == run.plan_fingerprint) return;
  const auto difference = results::plan_difference(previous.cases, run.cases);
  const std::string what = difference.empty() ? "its cases are in another order" : difference.describe();
  if (!settings.force_resume) {
    throw UsageError(fmt::format("--resume: the plan differs from run {}'s: {}; pass --force_resume to resume anyway",
                                 previous.info.execution_id, what));
  }
  fmt::print(stderr, "perfzero: warning: --force_resume: the plan differs from the run's: {}\n", what);
  for (const auto& old : previous.cases) {
    if (run.find_case(old.name) == nullptr) run.cases.push_back(old);
  }
}

std::vector<results::NamedObserver> observers_for(const std::vector<std::string>& names,
                                                  const std::filesystem::path& run_dir,
                                                  const SessionSettings& settings) {
  auto made = run_outputs::make_reporters(names, {run_dir, settings.mlflow_tracking_uri});
  std::vector<results::NamedObserver> out;
  for (std::size_t i = 0; i < names.size(); ++i) out.push_back({names[i], std::move(made[i])});
  return out;
}

void end_leftovers_of_earlier_run(const ClaimedOutput& output, const HarnessPaths& paths,
                                  const engines::EngineRegistry& engines) {
  if (const int killed = runner::end_leftover_processes(output.dir); killed > 0) {
    fmt::print(stderr, "perfzero: warning: --resume: ended {} process(es) the earlier run left running\n", killed);
  }
  // On other hosts only an engine can end what its work left, and release what the run held.
  for (const auto& kind : engines.kinds()) {
    if (!kind.clean_up_earlier) continue;
    for (const auto& line : kind.clean_up_earlier(output.dir, paths)) {
      fmt::print(stderr, "perfzero: warning: --resume: {}\n", line);
    }
  }
}

}  // namespace

RunSession::RunSession(const SessionSettings& settings, const HarnessPaths& paths,
                       const std::vector<config::PlannedCase>& plan, const std::vector<config::Comparison>& comparisons,
                       std::FILE* progress_out, const engines::EngineRegistry& engines) {
  const std::vector<std::string> report_names = run_outputs::selected_reporter_names(settings.reports);
  // Before anything is written: a bad name, or a reporter that lacks its server, is a usage error.
  run_outputs::check_reporter_names(report_names, {{}, settings.mlflow_tracking_uri});
  if (const auto how = nvml::clock_lock_from(settings.lock_gpu_clocks)) {
    // Before anything is written too: a run that cannot lock does not start.
    try {
      clock_lock_ = std::make_unique<nvml::GpuClockLock>(*how);
    } catch (const std::runtime_error& e) {
      throw UsageError(fmt::format("--lock_gpu_clocks={}: {}", settings.lock_gpu_clocks, e.what()));
    }
  }
  output_ = claim_output_dir(settings.output_dir, settings.execution_id, settings.resume, settings.resumable);
  try {
    root_ = std::make_unique<files::TrustedRoot>(output_.dir);
  } catch (const std::system_error& e) {
    throw OutputError(e.what());
  }
  if (output_.resuming) end_leftovers_of_earlier_run(output_, paths, engines);
  std::optional<results::Run> previous = previous_run(output_);
  results::Run run = make_run(settings, output_, plan, comparisons);
  if (previous) check_resumed_plan(settings, run, *previous);
  recorder_ = std::make_unique<results::Recorder>(std::move(run), output_.dir, output_.resuming,
                                                  observers_for(report_names, output_.dir, settings));
  const bool with_trial_reports = std::find(report_names.begin(), report_names.end(), "perfzero") != report_names.end();
  if (settings.doctor) {
    // Before the first trial, so its noise kernels run on a machine nothing of the run loads yet.
    const doctor::DoctorReport report = doctor::examine(true, doctor::DoctorPaths{}, output_.dir);
    nlohmann::json verdict = doctor::to_json(report);
    std::string names;
    for (const auto& name : verdict["warnings"]) names += (names.empty() ? "" : ", ") + name.get<std::string>();
    std::fprintf(
        progress_out != nullptr ? progress_out : stderr, "perfzero: doctor: %s (run.json: run.system.doctor)\n",
        report.warnings() == 0
            ? "nothing to fix"
            : fmt::format("{} warning{}: {}", report.warnings(), report.warnings() == 1 ? "" : "s", names).c_str());
    recorder_->add_system_entry("doctor", std::move(verdict));
  }
  if (clock_lock_) {
    recorder_->add_system_entry("gpu_clock_lock", clock_lock_->record());
    std::fprintf(progress_out != nullptr ? progress_out : stderr,
                 "perfzero: GPU clocks locked at %s for the run (run.json: run.system.gpu_clock_lock)\n",
                 settings.lock_gpu_clocks.c_str());
  }
  loop_ = std::make_unique<RunLoop>(settings, paths, output_.dir, plan, *recorder_, std::move(previous),
                                    with_trial_reports, progress_out, engines);
  // Room for the final run.json, journal line and summaries when a method fills the disk.
  reserve_ = output_.dir / ".perfzero.reserve";
  files::reserve_space(reserve_, kFinalWritesReserve);
}

RunSession::~RunSession() {
  if (!finished_) {
    std::error_code ignored;
    std::filesystem::remove(reserve_, ignored);
  }
  if (output_.lock_fd >= 0) ::close(output_.lock_fd);
}

std::optional<std::string> RunSession::finish(const results::RunStatus& status) {
  finished_ = true;
  std::error_code ignored;
  std::filesystem::remove(reserve_, ignored);
  std::optional<std::string> unwritten = recorder_->finish(status.text());
  if (status.is(results::RunStatusKind::completed)) {
    if ((late_signal_ = runner::take_pending_stop_signal())) {
      const auto again =
          recorder_->finish(results::RunStatus{results::RunStatusKind::interrupted_after_completion, {}}.text());
      if (!unwritten) unwritten = again;
    }
  }
  root_.reset();
  ::close(output_.lock_fd);
  output_.lock_fd = -1;
  return unwritten;
}

}  // namespace perfzero::session
