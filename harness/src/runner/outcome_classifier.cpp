#include "runner/outcome_classifier.hpp"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <vector>

#include <fmt/format.h>

namespace perfzero::runner {

std::string signal_name(int signal) {
  const char* abbrev = ::sigabbrev_np(signal);
  return abbrev != nullptr ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", signal);
}

namespace {
std::string seconds_text(double s) { return fmt::format("{:.3f} s", s); }
}  // namespace

// has_exception is PerfZero's "this method broke" flag, which its dashboards filter on: true whenever the
// method did not run to a normal end (launch failure, timeout, crash, non-zero exit, error, no valid
// result). A metric outside its bounds ran normally and is only not succeeded; skipped is neither
// (docs/reports.md, "Outcomes").
Classification classify(const TrialExecution& execution,
                        const std::variant<child_results::ChildResult, std::string>& result) {
  const auto* child = std::get_if<child_results::ChildResult>(&result);
  switch (execution.end) {
    case ProcessEnd::launch_failed:
      return {Outcome::failed, "could not start: " + execution.launch_error, true};
    case ProcessEnd::launcher_lost:
      return {Outcome::failed, execution.launch_error, true};
    case ProcessEnd::engine_failed:
      return {Outcome::failed, execution.engine_error, true};
    case ProcessEnd::timed_out:
      return {Outcome::timed_out,
              "still running after " + seconds_text(execution.wall_seconds) +
                  (execution.stopped_in_grace ? "; asked to stop (SIGTERM), it ended in its grace period"
                                              : "; its process tree was killed"),
              true};
    case ProcessEnd::interrupted:
      return {Outcome::interrupted, "the harness received " + signal_name(execution.signal), false};
    case ProcessEnd::signaled:
      return {Outcome::crashed, "ended by " + signal_name(execution.signal), true};
    case ProcessEnd::exited:
      break;
  }
  if (child != nullptr && child->skipped) return {Outcome::skipped, *child->skipped, false};
  if (execution.exit_code != 0) {
    std::string detail = fmt::format("exited with code {}", execution.exit_code);
    if (execution.exit_code == 127) detail += " (the command could not be run: see perfzero.log)";
    if (child != nullptr && child->error) detail += ": " + *child->error;
    return {Outcome::failed, detail, true};
  }
  if (child == nullptr) return {Outcome::invalid, std::get<std::string>(result), true};
  if (child->error) return {Outcome::failed, *child->error, true};
  for (const auto& metric : child->metrics) {
    if (metric.min_value && metric.value < *metric.min_value) {
      return {Outcome::failed,
              fmt::format("metric '{}' = {} is below its min_value {}", metric.name, metric.value, *metric.min_value),
              false};
    }
    if (metric.max_value && metric.value > *metric.max_value) {
      return {Outcome::failed,
              fmt::format("metric '{}' = {} is above its max_value {}", metric.name, metric.value, *metric.max_value),
              false};
    }
  }
  return {Outcome::succeeded, "", false};
}

namespace {

std::string where(const child_results::RankEnd& r) {
  return fmt::format("rank {} on {}", r.rank, r.host.empty() ? "?" : r.host);
}

// The ranks that wrote no report, each with its host where its start record names one.
std::string rank_list(const child_results::RankReports& reports) {
  const auto& ranks = reports.missing;
  std::string out;
  for (std::size_t i = 0; i < ranks.size() && i < 8; ++i) {
    out += (i == 0 ? "" : ", ") + std::to_string(ranks[i]);
    const auto start = std::find_if(reports.unreported.begin(), reports.unreported.end(),
                                    [&](const child_results::RankStart& s) { return s.rank == ranks[i]; });
    if (start != reports.unreported.end() && !start->host.empty()) out += " on " + start->host;
  }
  if (ranks.size() > 8) out += fmt::format(" and {} more", ranks.size() - 8);
  return out;
}

// The engine ends the other ranks (SIGTERM, then SIGKILL) once one fails: the first cause is a rank
// that ended by another signal, or failed by itself, before any that was ended for it. nullptr when
// every rank that reported ended well.
const child_results::RankEnd* first_failed_rank(const std::vector<child_results::RankEnd>& ranks) {
  auto ended_by_engine = [](const child_results::RankEnd& r) { return r.signal == SIGTERM || r.signal == SIGKILL; };
  for (const auto& r : ranks) {
    if (r.signal != 0 && !ended_by_engine(r)) return &r;
  }
  for (const auto& r : ranks) {
    if (r.exit_code && *r.exit_code != 0) return &r;
  }
  for (const auto& r : ranks) {
    if (r.signal != 0) return &r;
  }
  return nullptr;
}

}  // namespace

void name_the_rank(Classification& c, const TrialExecution& execution) {
  if (execution.world_size == 0 || c.outcome == Outcome::succeeded || c.outcome == Outcome::skipped) return;
  const auto& ranks = execution.ranks.ranks;
  const child_results::RankEnd* cause = first_failed_rank(ranks);
  std::string detail;
  // The engine ended the step (a lost node): the ranks it stopped elsewhere did not cause it.
  const bool engine_ended = execution.end == ProcessEnd::engine_failed;
  if (cause != nullptr && c.outcome != Outcome::timed_out && c.outcome != Outcome::interrupted && !engine_ended) {
    if (cause->signal != 0) {
      c.outcome = Outcome::crashed;
      detail = fmt::format("{} was ended by {}", where(*cause), signal_name(cause->signal));
    } else {
      c.outcome = Outcome::failed;
      detail = fmt::format("{} exited with code {}", where(*cause), *cause->exit_code);
      if (!cause->error.empty()) detail += " (" + cause->error + ")";
    }
    detail += fmt::format(" ({} of {} ranks reported)", ranks.size(), execution.world_size);
  }
  const bool killed_by_harness = c.outcome == Outcome::timed_out || c.outcome == Outcome::interrupted;
  if (!execution.ranks.missing.empty() && !killed_by_harness && !engine_ended) {
    detail += fmt::format("{}no report from rank {} (never started, or its host was lost)", detail.empty() ? "" : "; ",
                          rank_list(execution.ranks));
  }
  if (!execution.ranks.missing.empty() && engine_ended) {
    detail = fmt::format("no report from rank {}", rank_list(execution.ranks));
  } else if (!execution.ranks.missing.empty() && killed_by_harness) {
    detail = fmt::format("rank {} ended without a report (killed once {} had not stopped them in time)",
                         rank_list(execution.ranks), execution.engine);
  }
  // The engine's own end follows the rank's: "mpirun exited with code 3".
  if (!detail.empty()) {
    c.detail = c.detail.empty()                    ? detail
               : killed_by_harness || engine_ended ? c.detail + "; " + detail
                                                   : detail + "; " + execution.engine + " " + c.detail;
  }
}

void apply_engine_verdict(Classification& c, const TrialExecution& execution) {
  if (!execution.engine_note.empty()) c.detail += (c.detail.empty() ? "" : "; ") + execution.engine_note;
  if (!execution.engine_verdict || c.outcome == Outcome::succeeded || c.outcome == Outcome::timed_out ||
      c.outcome == Outcome::interrupted) {
    return;
  }
  const EngineVerdict& verdict = *execution.engine_verdict;
  // A refusal is believed only when nothing ran: a rank that reported started, whatever the log says
  // (the method writes to the same log).
  if (verdict.only_when_nothing_ran &&
      (!execution.ranks.ranks.empty() || execution.end != ProcessEnd::exited || execution.exit_code == 0)) {
    return;
  }
  c.outcome = verdict.outcome;
  c.has_exception = verdict.outcome != Outcome::skipped;
  // What the engine said leads; what the ranks and the launcher said follows it.
  if (c.detail.find(verdict.detail) == std::string::npos) {
    c.detail = c.detail.empty() ? verdict.detail : verdict.detail + "; " + c.detail;
  }
}

}  // namespace perfzero::runner
