#include "results/recorder.hpp"

#include <fmt/format.h>

#include "results/run_manifest.hpp"

namespace perfzero::results {

using Clock = std::chrono::steady_clock;

Recorder::Recorder(Run run, bool resuming, std::vector<NamedObserver> observers)
    : run_(std::move(run)),
      journal_(run_.info.output_dir),
      observers_(std::move(observers)),
      last_checkpoint_(Clock::now()) {
  run_.status = "running";
  write_manifest(run_.info.output_dir, run_);
  journal_.run_started(resuming);
  each_observer("run start", [&](RunObserver& o) { o.run_started(run_); });
}

template <typename Fn>
void Recorder::each_observer(const char* event, Fn&& fn) {
  // One output failing (a full disk for one file, a bug) must not cost the others theirs.
  for (auto& [name, observer] : observers_) {
    try {
      fn(*observer);
    } catch (const std::exception& e) {
      const std::string message = fmt::format("report '{}' failed at {}: {}", name, event, e.what());
      if (std::find(reporter_errors_.begin(), reporter_errors_.end(), message) == reporter_errors_.end()) {
        reporter_errors_.push_back(message);
        fmt::print(stderr, "perfzero: warning: {}\n", message);
      }
    }
  }
}

void Recorder::adopt(std::size_t case_index, Trial trial) {
  Case& c = case_at(case_index);
  trial.resumed = true;
  (trial.warmup ? c.warmups : c.trials).push_back(std::move(trial));
}

void Recorder::trial_finished(std::size_t case_index, Trial trial, const TrialArtifacts& artifacts) {
  Case& c = case_at(case_index);
  auto& list = trial.warmup ? c.warmups : c.trials;
  list.push_back(std::move(trial));
  const Trial& stored = list.back();
  journal_.trial_finished(c, stored);
  each_observer("trial end", [&](RunObserver& o) { o.trial_finished(run_, c, stored, artifacts); });
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
  each_observer("checkpoint", [&](RunObserver& o) { o.checkpoint(run_); });
  last_checkpoint_ = Clock::now();
  last_checkpoint_cost_ = last_checkpoint_ - started;
}

void Recorder::add_system_entry(const std::string& key, nlohmann::json value) {
  run_.info.system[key] = std::move(value);
}

void Recorder::finish(const std::string& status) {
  run_.status = status;
  journal_.run_finished(status);
  write_manifest(run_.info.output_dir, run_);
  each_observer("run end", [&](RunObserver& o) { o.run_finished(run_); });
}

}  // namespace perfzero::results
