#include "runner/execute_trial.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include "child_results/rank_reports.hpp"
#include "common/files.hpp"
#include "redact/redact.hpp"
#include "runner/outcome_classifier.hpp"
#include "runner/result_source.hpp"
#include "runner/trial_result.hpp"

namespace perfzero::runner {

namespace {

// Ranks an engine's daemon started on this very machine (slurmstepd here, or on hosts that are
// namespaces or containers of it: the same boot id) ran outside the launcher's tree, so this
// machine's load verdict took their CPU for a neighbour's: it is the method's own.
void count_ranks_on_this_machine(TrialExecution& e) {
  if (!e.ranks_outside_tree) return;
  const auto boot_id = files::read_line("/proc/sys/kernel/random/boot_id");
  char hostname[256] = "";
  ::gethostname(hostname, sizeof hostname - 1);
  double cpu_seconds = 0;
  for (const auto& r : e.ranks.ranks) {
    const bool by_boot_id = boot_id && !boot_id->empty() && r.host_facts && !r.host_facts->boot_id.empty();
    if (by_boot_id ? r.host_facts->boot_id == *boot_id : r.host == hostname) {
      cpu_seconds += r.user_seconds + r.system_seconds;
    }
  }
  for (auto& [name, output] : e.samplers) {
    if (output.count_own_cpu_elsewhere) output.count_own_cpu_elsewhere(output, cpu_seconds);
  }
}

}  // namespace

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
  // Asked by the executor when the tree ended (run_trial), else here: an executor that never started it.
  std::string damage;
  if (record.execution.trial_dir_damage) {
    damage = *record.execution.trial_dir_damage;
  } else if (job.request.check_trial_dir) {
    damage = job.request.check_trial_dir().damage;
  }
  if (damage.empty()) {
    // A multi-rank method's ranks each reported their end into the trial directory (perfzero-rank).
    if (record.execution.world_size > 0) {
      record.execution.ranks = child_results::read_rank_reports(job.dir, record.execution.world_size);
      count_ranks_on_this_machine(record.execution);
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
  if (record.classification.outcome == Outcome::timed_out && !job.request.timeout_cause.empty()) {
    record.classification.detail =
        fmt::format("stopped by {}: {}", job.request.timeout_cause, record.classification.detail);
  }
  // The detail quotes the child (a skip reason, an exception's message) into reports and progress lines.
  record.classification.detail = redact::redact_urls(record.classification.detail);
  record.harness_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - job.started).count();
  out.trial = make_trial(record);
  out.artifacts = make_artifacts(record);
  return out;
}

}  // namespace perfzero::runner
