#include "results/recorder.hpp"

#include <cerrno>
#include <cstring>
#include <memory>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/write_behind.hpp"
#include "results/run_manifest.hpp"

namespace perfzero::results {

using Clock = std::chrono::steady_clock;

Recorder::Recorder(Run run, std::filesystem::path run_dir, bool resuming, std::vector<NamedObserver> observers)
    : run_(std::move(run)),
      run_dir_(std::move(run_dir)),
      journal_(run_dir_),
      observers_(std::move(observers)),
      last_checkpoint_(Clock::now()) {
  run_.status = "running";
  write_manifest(run_dir_, run_);
  journal_.run_started(resuming);
  each_observer("run start", OnRefusal::goes_on, [&](RunObserver& o) { o.run_started(run_); });
}

template <typename Fn>
std::optional<std::string> Recorder::each_observer(const char* event, OnRefusal on_refusal, Fn&& fn) {
  // One output failing (a full disk for one file, a bug) must not cost the others theirs.
  std::optional<std::string> refused;  // the first write the file system refused
  for (auto& [name, observer] : observers_) {
    try {
      fn(*observer);
    } catch (const std::system_error& e) {
      if (!refused) refused = e.what();
      if (on_refusal == OnRefusal::goes_on)
        warn_once(fmt::format("report '{}' failed at {}: {}", name, event, e.what()));
    } catch (const std::exception& e) {
      warn_once(fmt::format("report '{}' failed at {}: {}", name, event, e.what()));
    }
  }
  return refused;
}

void Recorder::warn_once(const std::string& message) {
  if (std::find(reporter_errors_.begin(), reporter_errors_.end(), message) == reporter_errors_.end()) {
    reporter_errors_.push_back(message);
    fmt::print(stderr, "perfzero: warning: {}\n", message);
  }
}

void Recorder::adopt(std::size_t case_index, Trial trial, const TrialArtifacts& artifacts) {
  Case& c = case_at(case_index);
  trial.resumed = true;
  auto& list = trial.warmup ? c.warmups : c.trials;
  list.push_back(std::move(trial));
  // A kept trial whose report cannot be written again stops the run, as a new one's would.
  if (auto refused = each_observer("trial adopt", OnRefusal::stops,
                                   [&](RunObserver& o) { o.trial_adopted(run_, c, list.back(), artifacts); })) {
    throw OutputError(*refused);
  }
}

void write_trial_file(const TrialArtifacts& artifacts, std::filesystem::path path, std::function<std::string()> text) {
  if (artifacts.later != nullptr) {
    artifacts.later->write(std::move(path), std::move(text));
  } else {
    files::write_atomically(path, text());
  }
}

std::optional<std::string> Recorder::settle_trial_files() {
  std::optional<std::string> refused;
  for (const auto& failure : behind_.wait()) {
    if (!failure.refused) {
      warn_once(fmt::format("a trial's file failed: {}", failure.what));
      continue;
    }
    if (!refused) refused = failure.what;
  }
  if (refused && written_behind_) {
    // The trial is in the journal, its report is not: said in the model (and so in the summaries);
    // --resume writes it again from the journal.
    Case& c = case_at(written_behind_->case_index);
    auto& list = written_behind_->warmup ? c.warmups : c.trials;
    if (written_behind_->index < list.size()) list[written_behind_->index].flags.emplace_back("report_not_written");
  }
  written_behind_.reset();
  return refused;
}

void Recorder::trial_finished(std::size_t case_index, Trial trial, TrialArtifacts artifacts) {
  // The last trial's files were written while this one ran; a refusal among them stops the run once
  // this trial is in the journal (it ran: the record keeps it, and --resume writes its report).
  const auto earlier_refused = settle_trial_files();
  Case& c = case_at(case_index);
  auto& list = trial.warmup ? c.warmups : c.trials;
  list.push_back(std::move(trial));
  Trial& stored = list.back();
  artifacts.later = &behind_;
  try {
    journal_.trial_finished(c, stored);
  } catch (const OutputError& e) {
    // The trial ran; say in the model (and so in the summaries, where they fit) why it is not kept.
    stored.flags.emplace_back("not_recorded");
    stored.detail += (stored.detail.empty() ? "" : "; ") + std::string("not recorded: ") + e.what();
    artifacts.later = nullptr;  // the run stops here: nothing is left to write behind
    each_observer("trial end", OnRefusal::stops, [&](RunObserver& o) { o.trial_finished(run_, c, stored, artifacts); });
    throw;
  }
  if (earlier_refused) {
    journal_.sync_later();
    throw OutputError(*earlier_refused);
  }
  written_behind_ = TrialPlace{case_index, stored.warmup, list.size() - 1};
  behind_.hold();
  const auto refused = each_observer("trial end", OnRefusal::stops,
                                     [&](RunObserver& o) { o.trial_finished(run_, c, stored, artifacts); });
  behind_.send();
  // The journal line is the trial's record: synced in the background while the next trial runs. The
  // report is not synced; a crash that takes it is repaired by --resume (trial_adopted).
  journal_.sync_later();
  if (refused) {
    // The trial is in the journal, its report is not: stop before the next trial meets the same.
    stored.flags.emplace_back("report_not_written");
    throw OutputError(*refused);
  }
  if (checkpoint_due()) checkpoint();
}

bool Recorder::checkpoint_due() const {
  // A checkpoint rewrites whole files, so its cost grows with the run: wait at least 20 times what
  // the last one cost, which keeps them under 5 % of the run's time however large it gets.
  const auto wait = std::max<Clock::duration>(kMinCheckpointInterval, 20 * last_checkpoint_cost_);
  return Clock::now() - last_checkpoint_ >= wait;
}

void Recorder::checkpoint() {
  const auto started = Clock::now();
  each_observer("checkpoint", OnRefusal::goes_on, [&](RunObserver& o) { o.checkpoint(run_); });
  last_checkpoint_ = Clock::now();
  last_checkpoint_cost_ = last_checkpoint_ - started;
}

void Recorder::add_system_entry(const std::string& key, nlohmann::json value) {
  run_.info.system[key] = std::move(value);
  ++run_.info.edits;
}

std::optional<std::string> Recorder::finish(const std::string& status) {
  // Every output is tried, each on its own: a full disk may still take the small ones.
  run_.status = status;
  std::optional<std::string> failure = settle_trial_files();
  try {
    journal_.run_finished(status);
  } catch (const OutputError& e) {
    if (!failure) failure = e.what();
  }
  try {
    write_manifest(run_dir_, run_);
  } catch (const OutputError& e) {
    if (!failure) failure = e.what();
  }
  // A summary the disk refused fails the run's end (exit 4), in the same one line.
  if (auto refused = each_observer("run end", OnRefusal::stops, [&](RunObserver& o) { o.run_finished(run_); })) {
    if (!failure) failure = std::move(refused);
  }
  // Reports and summaries are written but not synced during the run (the journal is the record):
  // one syncfs now, so that when perfzero exits every file of the run is on disk.
  if (!files::sync_file_system(run_dir_) && !failure) {
    failure = fmt::format("cannot write the files of {} to disk: {}", run_dir_.string(), std::strerror(errno));
  }
  return failure;
}

void Recorder::leave_model_to_exit() {
  // Reachable from a static until the process ends, so that a leak checker does not count it.
  static auto* const left = new std::vector<std::unique_ptr<Run>>();
  left->push_back(std::make_unique<Run>(std::move(run_)));
  run_ = Run{};
}

}  // namespace perfzero::results
