#pragma once
// What the runner tells the rest of the harness while a run goes on. The recorder (results/recorder.hpp)
// keeps the model and forwards each event to every observer: reporters, the journal.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "results/model.hpp"

namespace perfzero::files {
class WriteBehind;
}

namespace perfzero::results {

// One sampler's time series for one trial: named columns, one row per sample. Series go to
// observers as the trial ends and are not kept in the model (a long sweep would hold them all).
struct TimeSeries {
  std::string sampler;
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
};

struct TrialArtifacts {
  std::filesystem::path dir;  // the trial's directory (absolute)
  std::vector<TimeSeries> series;
  // Where a finished trial's own files go: written while the next trial runs (the recorder's queue,
  // common/write_behind.hpp), or now when null (a trial adopted by --resume, a test).
  files::WriteBehind* later = nullptr;
};

// Writes `text()` to `path` atomically: through artifacts.later when there is one, else now.
void write_trial_file(const TrialArtifacts& artifacts, std::filesystem::path path, std::function<std::string()> text);

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void run_started(const Run& /*run*/) {}
  virtual void trial_finished(const Run& /*run*/, const Case& /*c*/, const Trial& /*trial*/,
                              const TrialArtifacts& /*artifacts*/) {}
  // A trial kept from the run being resumed (--resume), as the journal recorded it: a chance to
  // write again what a crash lost of its files (artifacts.series is empty: samples are not journaled).
  virtual void trial_adopted(const Run& /*run*/, const Case& /*c*/, const Trial& /*trial*/,
                             const TrialArtifacts& /*artifacts*/) {}
  // Now and then during a long run (at most every few seconds): a chance to rewrite whole files.
  virtual void checkpoint(const Run& /*run*/) {}
  // The run ended: completed, or interrupted (run.status says which).
  virtual void run_finished(const Run& /*run*/) {}
};

}  // namespace perfzero::results
