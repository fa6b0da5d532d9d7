#include "ab/ab_session.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <memory>

#include <fmt/format.h>

#include "ab/ab_pairs.hpp"
#include "common/errors.hpp"
#include "common/text.hpp"
#include "compare/formats.hpp"
#include "compare/sequential.hpp"
#include "session/run_session.hpp"

extern char** environ;

namespace perfzero::ab {

namespace {

using Clock = std::chrono::steady_clock;

// After this many trials of a case without one success on a side, nothing can be decided: the
// case stops (a missing program, a bad image, a method that always fails).
constexpr int kFailuresBeforeGivingUp = 3;

struct CaseState {
  bool open = true;
  std::size_t next_look = 0;  // index into the look plan
  int rounds = 0;             // pairs run (a failed trial still used its round)
  std::vector<compare::MetricComparison> rows;
  bool judged = false;
};

session::SessionSettings side_settings(const cli::AbOptions& options, const AbSide& side,
                                       const std::string& session_id) {
  session::SessionSettings s;
  s.output_dir = side.run_dir.string();
  s.execution_id = fmt::format("{}-{}", session_id, side.role);
  s.execution_label = options.execution_label.empty() ? side.role : options.execution_label + "/" + side.role;
  s.given_flags = options.given;
  s.given_flags.emplace_back("ab_side", side.what);
  s.resumable = false;  // ab has no --resume to suggest
  s.host_busy_threshold_cpus = side.host_busy_threshold;
  return s;
}

// A side's container left behind by a trial the harness had to end (timeout, stop): removed, so the
// next trial can take the name and nothing keeps running.
void remove_container(const std::string& name) {
  if (name.empty()) return;
  std::vector<std::string> args = {"docker", "rm", "--force", name};
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  if (posix_spawnp(&pid, "docker", &actions, nullptr, argv.data(), environ) == 0) ::waitpid(pid, nullptr, 0);
  posix_spawn_file_actions_destroy(&actions);
}

class Session {
 public:
  Session(const cli::AbOptions& options, AbSide& baseline, AbSide& candidate, const std::string& session_id,
          const engines::EngineRegistry& engines)
      : options_(options),
        baseline_(baseline),
        candidate_(candidate),
        looks_(compare::plan_looks(options.max_pairs, options.alpha)),
        a_settings_(side_settings(options, baseline, session_id)),
        b_settings_(side_settings(options, candidate, session_id)),
        a_(std::make_unique<session::RunSession>(a_settings_, baseline.paths, baseline.plan,
                                                 std::vector<config::Comparison>{}, stderr, engines)),
        b_(std::make_unique<session::RunSession>(b_settings_, candidate.paths, candidate.plan,
                                                 std::vector<config::Comparison>{}, stderr, engines)),
        states_(baseline.plan.size()) {
    settings_.min_change = options.min_change;
    settings_.alpha = options.alpha;
    settings_.metrics = options.metrics;
    settings_.pass_on = {options.pass_on.undecided, options.pass_on.missing};
    settings_.use_flagged = true;
  }

  AbOutcome run() {
    const int cases = static_cast<int>(states_.size());
    const int total = 2 * cases * (options_.warmup_trials + options_.max_pairs);
    progress_.emplace(stderr, ::isatty(STDERR_FILENO) == 1, total);
    a_->loop().begin(*progress_, "baseline");
    b_->loop().begin(*progress_, "candidate");
    // The budget is a deadline for every trial, warm-ups included: one still running when it comes
    // is stopped (timed_out, "stopped by --max_time ..."), none starts after it.
    const std::string budget = fmt::format("--max_time {}", text::format_duration(seconds_of(options_.max_time)));
    a_->loop().set_deadline(started_ + options_.max_time, budget);
    b_->loop().set_deadline(started_ + options_.max_time, budget);
    std::string ended = "every gated metric decided";
    results::RunStatus status{results::RunStatusKind::completed, {}};
    try {
      warm_up();
      ended = over_time() ? fmt::format("{} spent in the warm-ups", budget) : pair_rounds();
    } catch (const OutputError& e) {
      status = results::RunStatus::aborted(e.what());
      ended = status.text();
    }
    a_->loop().end();
    b_->loop().end();
    AbOutcome out;
    out.stop = stop();
    if (out.stop) status = {results::RunStatusKind::interrupted, {}};
    finish_open_cases();
    out.report = report(ended);
    const auto a_unwritten = a_->finish(status);
    const auto b_unwritten = b_->finish(status);
    out.unwritten = a_unwritten ? a_unwritten : b_unwritten;
    if (!out.unwritten && status.is(results::RunStatusKind::aborted)) out.unwritten = status.why;
    remove_container(baseline_.container);
    remove_container(candidate_.container);
    return out;
  }

 private:
  std::optional<int> stop() const {
    if (auto s = a_->loop().stop()) return s;
    return b_->loop().stop();
  }

  void step(session::RunSession& side, const AbSide& which, const session::Step& s) {
    side.loop().run_step(s, nullptr);
    if (which.container.empty()) return;
    const auto& trials = s.warmup ? side.run().cases[s.case_index].warmups : side.run().cases[s.case_index].trials;
    if (!trials.empty() && trials.back().outcome != Outcome::succeeded) remove_container(which.container);
  }

  // ABBA: odd pairs baseline first, even pairs candidate first, so a drift or an order effect (a warm
  // cache for the second) falls on both sides alike.
  void pair(std::size_t c, bool warmup, int number, bool baseline_first) {
    const session::Step s{c, warmup, number};
    if (baseline_first) {
      step(*a_, baseline_, s);
      if (!stop() && !over_time()) step(*b_, candidate_, s);
    } else {
      step(*b_, candidate_, s);
      if (!stop() && !over_time()) step(*a_, baseline_, s);
    }
  }

  void warm_up() {
    for (std::size_t c = 0; c < states_.size() && !stop() && !over_time(); ++c) {
      for (int w = 1; w <= options_.warmup_trials && !stop() && !over_time(); ++w) pair(c, true, w, w % 2 == 1);
    }
  }

  bool over_time() const { return Clock::now() - started_ >= options_.max_time; }

  std::string pair_rounds() {
    for (int round = 1; round <= options_.max_pairs; ++round) {
      if (stop()) return "stopped by a signal";
      if (over_time()) return fmt::format("--max_time {} spent", text::format_duration(seconds_since_start()));
      bool any_open = false;
      for (std::size_t c = 0; c < states_.size() && !stop() && !over_time(); ++c) {
        if (!states_[c].open) continue;
        pair(c, false, round, round % 2 == 1);
        ++states_[c].rounds;
        any_open = true;
      }
      if (over_time()) return fmt::format("--max_time {} spent", text::format_duration(seconds_since_start()));
      if (!any_open) return all_closed_text(round - 1);
      for (std::size_t c = 0; c < states_.size(); ++c) {
        if (!states_[c].open) continue;
        give_up_if_failing(c);
        if (states_[c].open && states_[c].next_look < looks_.pairs.size() &&
            looks_.pairs[states_[c].next_look] == round) {
          look(c, looks_.nominal_alpha[states_[c].next_look], round == options_.max_pairs);
          ++states_[c].next_look;
        }
      }
      if (std::none_of(states_.begin(), states_.end(), [](const CaseState& s) { return s.open; })) {
        return all_closed_text(round);
      }
    }
    return fmt::format("--max_trials {} pairs spent", options_.max_pairs);
  }

  // Why the rounds ended once no case is open: every gated metric decided, or some closed undecided
  // (a failing side, the last look) - never "decided" for a metric that is unknown.
  std::string all_closed_text(int rounds) const {
    int undecided = 0;
    for (const auto& s : states_) {
      for (const auto& row : s.rows) {
        if (row.gated && (row.verdict == compare::Verdict::unknown || row.verdict == compare::Verdict::missing)) {
          ++undecided;
        }
      }
    }
    if (undecided == 0) return fmt::format("every gated metric decided after {} round(s)", rounds);
    return fmt::format("no case left open after {} round(s), {} gated metric(s) undecided or missing", rounds,
                       undecided);
  }

  double seconds_since_start() const { return std::chrono::duration<double>(Clock::now() - started_).count(); }
  static double seconds_of(std::chrono::milliseconds d) { return std::chrono::duration<double>(d).count(); }

  static int succeeded_trials(const session::RunSession& side, std::size_t c) {
    const auto& trials = side.run().cases[c].trials;
    return static_cast<int>(std::count_if(trials.begin(), trials.end(),
                                          [](const results::Trial& t) { return t.outcome == Outcome::succeeded; }));
  }

  void give_up_if_failing(std::size_t c) {
    for (const session::RunSession* side : {a_.get(), b_.get()}) {
      const auto& trials = side->run().cases[c].trials;
      if (succeeded_trials(*side, c) == 0 && static_cast<int>(trials.size()) >= kFailuresBeforeGivingUp) {
        states_[c].open = false;
        states_[c].judged = true;
        compare::MetricComparison row;
        row.case_name = baseline_.plan[c].name;
        row.metric = compare::kWallTimeRow;
        row.verdict = compare::Verdict::missing;
        // What each side measured: the gate fails a candidate that measured nothing (compare/gate.hpp),
        // and holds nothing against one whose baseline did.
        row.baseline.succeeded = succeeded_trials(*a_, c);
        row.candidate.succeeded = succeeded_trials(*b_, c);
        row.reason =
            fmt::format("no {} trial succeeded in {}: {}", side == a_.get() ? "baseline" : "candidate", trials.size(),
                        trials.front().detail.empty() ? to_string(trials.front().outcome) : trials.front().detail);
        states_[c].rows = {row};
        a_->loop().note(fmt::format("perfzero ab: {}: {}", row.case_name, row.reason));
        return;
      }
    }
  }

  // Judges every metric of case c at the interval level `level_alpha`; the case closes once every
  // gated metric is decided (or on the last look).
  void look(std::size_t c, double level_alpha, bool last) {
    CaseState& state = states_[c];
    const auto all = collect_pairs(a_->run().cases[c], b_->run().cases[c]);
    state.rows.clear();
    bool gated_open = false;
    int gated = 0;
    std::string summary;
    for (const auto& m : all) {
      compare::MetricComparison row;
      row.case_name = baseline_.plan[c].name;
      row.metric = m.metric;
      row.unit = m.unit;
      row.direction = m.direction;
      row.gated = is_gated(options_.metrics, m, all);
      bool decided = true;
      if (m.inconsistency.empty()) {
        decided = compare::judge_pairs(row, m.series, level_alpha, settings_, last);
        if (row.verdict == compare::Verdict::missing) {
          // No pair where both succeeded: which side measured nothing decides the gate (a failing
          // baseline leaves the candidate not judged), so each side says what it did.
          row.baseline.succeeded = succeeded_trials(*a_, c);
          row.candidate.succeeded = succeeded_trials(*b_, c);
        }
      } else {
        // Values that are not one quantity are never judged, and not waited for.
        row.verdict = compare::Verdict::unknown;
        row.reason = "not judged: " + m.inconsistency;
      }
      if (!row.gated && !decided) row.reason = "not gated, so not waited for: " + row.reason;
      if (row.gated) {
        ++gated;
        gated_open = gated_open || !decided;
        summary += fmt::format("{}{} {} {}", summary.empty() ? "" : "; ", row.metric, compare::percent(row.change),
                               decided ? std::string(compare::to_string(row.verdict)) : "open");
      }
      state.rows.push_back(std::move(row));
    }
    state.judged = true;
    if (gated == 0) {
      a_->loop().note(fmt::format("perfzero ab: warning: {}: --metrics '{}' finds no metric of it; nothing to wait for",
                                  baseline_.plan[c].name, options_.metrics));
    }
    if (!gated_open || last) state.open = false;
    a_->loop().note(fmt::format("perfzero ab: {} after {} pairs (interval {:.2f}%): {}", baseline_.plan[c].name,
                                state.rounds, (1 - level_alpha) * 100, summary.empty() ? "-" : summary));
  }

  // A case the budget or a signal left open gets a last look, spending what its planned looks left.
  void finish_open_cases() {
    for (std::size_t c = 0; c < states_.size(); ++c) {
      CaseState& state = states_[c];
      if (!state.open) continue;
      const bool looked_now = state.judged && state.next_look > 0 && looks_.pairs[state.next_look - 1] == state.rounds;
      if (state.rounds > 0 && !looked_now) {
        look(c, compare::last_look_alpha(looks_, state.next_look, state.rounds), true);
      } else if (state.judged) {
        for (auto& row : state.rows) {
          if (row.verdict == compare::Verdict::unknown) row.reason = "undecided: " + row.reason;
        }
      } else {
        compare::MetricComparison row;
        row.case_name = baseline_.plan[c].name;
        row.metric = compare::kWallTimeRow;
        row.verdict = compare::Verdict::unknown;  // the budget ended the session first: undecided
        row.reason = "no pair was run";
        state.rows = {row};
      }
      state.open = false;
    }
  }

  compare::RunComparison report(const std::string& ended) const {
    compare::RunComparison r;
    r.settings = settings_;
    r.baseline = {baseline_.what, a_->run().info.execution_id, a_->run().info.execution_label, false, 0};
    r.candidate = {candidate_.what, b_->run().info.execution_id, b_->run().info.execution_label, false, 0};
    for (const auto& s : states_) r.rows.insert(r.rows.end(), s.rows.begin(), s.rows.end());
    std::string looks;
    for (const int n : looks_.pairs) looks += fmt::format("{}{}", looks.empty() ? "" : ", ", n);
    r.design = fmt::format(
        "ABBA pairs, judged by the Wilcoxon signed-rank interval of the paired change at looks after {} pairs, "
        "alpha {} spent across the looks (Pocock-type); stopped: {} ({}, {} and {} trials)",
        looks, settings_.alpha, ended, text::format_duration(seconds_since_start()), count_trials(*a_),
        count_trials(*b_));
    return r;
  }

  static std::size_t count_trials(const session::RunSession& s) {
    std::size_t n = 0;
    for (const auto& c : s.run().cases) n += c.trials.size();
    return n;
  }

  const cli::AbOptions& options_;
  AbSide& baseline_;
  AbSide& candidate_;
  compare::LookPlan looks_;
  compare::Settings settings_;
  session::SessionSettings a_settings_;
  session::SessionSettings b_settings_;
  std::unique_ptr<session::RunSession> a_;
  std::unique_ptr<session::RunSession> b_;
  std::vector<CaseState> states_;
  std::optional<progress::Progress> progress_;  // one counter for both sides' trials
  Clock::time_point started_ = Clock::now();
};

}  // namespace

AbOutcome run_ab_session(const cli::AbOptions& options, AbSide& baseline, AbSide& candidate,
                         const std::string& session_id, const engines::EngineRegistry& engines) {
  Session session(options, baseline, candidate, session_id, engines);
  return session.run();
}

}  // namespace perfzero::ab
