#include "runner/execute_trial.hpp"

#include <fmt/format.h>

#include "redact/redact.hpp"
#include "runner/outcome_classifier.hpp"
#include "runner/rank_reports.hpp"
#include "runner/result_source.hpp"
#include "runner/trial_result.hpp"

namespace perfzero::runner {

ExecutedTrial execute_trial(const TrialJob& job, Executor& executor) {
  ExecutedTrial out;
  TrialRecord& record = out.record;
  record.planned = job.planned;
  record.trial = job.trial;
  record.warmup = job.warmup;
  record.run_dir = job.run_dir;
  record.dir = job.dir;
  record.started_offset = job.started_offset;
  record.execution = executor.run(job.request);
  // A method that removed or replaced its directory fails, and its results are not read: nothing of
  // what it put there is followed.
  const std::string damage = job.damage ? job.damage() : std::string();
  if (damage.empty()) {
    // A multi-rank method's ranks each reported their end into the trial directory (perfzero-rank).
    if (record.execution.world_size > 0) {
      record.execution.ranks = read_rank_reports(job.dir, record.execution.world_size);
    }
    record.result = read_trial_result(*job.planned, job.dir, record.execution);
    record.classification = classify(record.execution, record.result);
    name_the_rank(record.classification, record.execution);
    apply_engine_verdict(record.classification, record.execution);
  } else {
    record.result = fmt::format("the method {}; its results are not read", damage);
    record.classification = classify(record.execution, record.result);
    record.classification.outcome = Outcome::failed;
    record.classification.has_exception = true;
    record.classification.detail =
        fmt::format("the method {} (its trial alone fails; nothing there was followed)", damage);
  }
  // The detail quotes the child (a skip reason, an exception's message) into reports and progress lines.
  record.classification.detail = redact::redact_urls(record.classification.detail);
  record.harness_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - job.started).count();
  out.trial = make_trial(record);
  out.artifacts = make_artifacts(record);
  return out;
}

}  // namespace perfzero::runner
