#include "runner/trial_runner.hpp"

#include "common/errors.hpp"
#include "common/fd_guard.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <optional>
#include <thread>

#include "procfs/proc_reader.hpp"
#include "runner/log_cap.hpp"
#include "runner/signals.hpp"
#include "samplers/sample_clock.hpp"

namespace perfzero::runner {

using Clock = std::chrono::steady_clock;

void become_subreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

namespace {

// Reaps whatever has ended without waiting; returns true when `main_pid` was among them.
bool reap_ready(pid_t main_pid, int& main_status) {
  bool main_done = false;
  while (true) {
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid <= 0) break;
    if (pid == main_pid) {
      main_status = status;
      main_done = true;
    }
  }
  return main_done;
}

}  // namespace

int kill_and_reap_all_descendants() {
  // No child at all means no descendant either: an orphan would have been handed to us (we are a
  // subreaper). One waitpid() then replaces walking /proc after every trial that cleaned up after itself.
  errno = 0;
  if (::waitpid(-1, nullptr, WNOHANG) < 0 && errno == ECHILD) return 0;
  int killed = 0;
  const auto give_up = Clock::now() + std::chrono::seconds(10);
  // Killing a parent hands its children to us (we are a subreaper), so repeat until none is left.
  while (Clock::now() < give_up) {
    const auto pids = procfs::descendants_of(::getpid());
    for (pid_t pid : pids) {
      const auto stat = procfs::read_proc_stat(pid);
      if (stat && stat->state != 'Z' && ::kill(pid, SIGKILL) == 0) ++killed;
    }
    int ignored = 0;
    reap_ready(-1, ignored);
    errno = 0;
    if (::waitpid(-1, nullptr, WNOHANG) < 0 && errno == ECHILD) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return killed;
}

namespace {

struct WaitOutcome {
  bool done = false;  // the launcher answered: the tree ended by itself, or the launcher died
  Clock::time_point ended;
};

// Waits for the launcher's answer, the deadline, a stop signal or the engine's word that the step
// failed; all but the first set execution.end.
WaitOutcome wait_for_tree(const TrialRequest& request, const LaunchServer& server, Clock::time_point started,
                          TrialExecution& execution) {
  const auto deadline = request.timeout.count() > 0 ? started + request.timeout : Clock::time_point::max();
  pollfd fds[2] = {{server.reply_fd(), POLLIN, 0}, {stop_signal_fd(), POLLIN, 0}};
  WaitOutcome outcome;
  while (true) {
    const auto now = Clock::now();
    if (now >= deadline) {
      execution.end = ProcessEnd::timed_out;
      break;
    }
    const auto wait = std::min<Clock::duration>(deadline - now, std::chrono::milliseconds(200));
    const int ready = ::poll(fds, fds[1].fd >= 0 ? 2 : 1,
                             static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(wait).count()));
    if (ready > 0 && fds[0].revents != 0) {
      outcome.ended = Clock::now();
      outcome.done = true;
      break;
    }
    // Without a signalfd (none could be made), a stop signal is still seen at every tick.
    if (const auto sig = take_pending_stop_signal()) {
      execution.end = ProcessEnd::interrupted;
      execution.signal = *sig;
      break;
    }
    if (request.engine_watch) {
      if (std::string said = request.engine_watch(); !said.empty()) {
        execution.end = ProcessEnd::engine_failed;
        execution.engine_error = std::move(said);
        break;
      }
    }
    if (request.on_tick) request.on_tick(std::chrono::duration<double>(Clock::now() - started).count());
  }
  return outcome;
}

void record_exit(int status, TrialExecution& execution) {
  if (WIFSIGNALED(status)) {
    execution.end = ProcessEnd::signaled;
    execution.signal = WTERMSIG(status);
  } else {
    execution.end = ProcessEnd::exited;
    execution.exit_code = WEXITSTATUS(status);
  }
}

// After the launcher answered: the method's end and the kernel's figures, or, when the launcher
// itself died, whatever of the tree it left is ended here. False when the method never started.
bool record_tree_end(LaunchServer& server, TrialExecution& execution) {
  std::string launcher_end;
  std::optional<TreeEnd> end;
  try {
    end = server.finish(launcher_end);
  } catch (const LaunchError& e) {
    execution.end = ProcessEnd::launch_failed;
    execution.launch_error = e.what();
    if (server.launcher_pid() < 0) kill_and_reap_all_descendants();
    return false;
  }
  if (end) {
    record_exit(end->wait_status, execution);
    execution.kernel = end->usage;
    execution.leftover_processes_killed = end->usage.leftovers_killed;
    return true;
  }
  execution.end = ProcessEnd::launcher_lost;
  execution.launch_error = "perfzero-launch " + launcher_end + " during the trial; the method's processes were killed";
  execution.leftover_processes_killed = kill_and_reap_all_descendants();
  return true;
}

// What the method left of its directory, asked once its tree is gone and before anything there is
// read (its log is cut next): the run loop's guard puts a damaged directory right first.
samplers::TrialDirState ask_trial_dir_guard(const TrialRequest& request, TrialExecution& execution) {
  if (!request.check_trial_dir) return samplers::TrialDirState::unknown;
  const TrialDirCheck checked = request.check_trial_dir();
  execution.trial_dir_damage = checked.damage;
  if (!checked.damage.empty()) return samplers::TrialDirState::damaged;
  return checked.tmp_dir_untouched ? samplers::TrialDirState::untouched_tmp : samplers::TrialDirState::intact;
}

// Lets every sampler finish with the trial's facts.
void finish_samplers(const TrialRequest& request, samplers::TrialDirState trial_dir_state,
                     samplers::ProcessTreeSampler& tree, const std::vector<samplers::Sampler*>& all,
                     TrialExecution& execution) {
  samplers::TrialFacts facts;
  facts.wall_seconds = execution.wall_seconds;
  facts.trial_dir = request.log_path.parent_path();
  facts.trial_dir_state = trial_dir_state;
  facts.tree_cpu_seconds = execution.kernel ? execution.kernel->user_seconds + execution.kernel->system_seconds
                                            : tree.result().tree_cpu_seconds;
  if (execution.kernel) {
    facts.run_queue_seconds = execution.kernel->run_queue_seconds;
    facts.counters = execution.kernel->counters;
    facts.max_rss_bytes = static_cast<double>(execution.kernel->max_rss_bytes);
  }
  for (auto* s : all) execution.samplers.emplace_back(s->name(), s->finish(facts));
  execution.tree = tree.release();
  execution.tree.samples.clear();  // they went out as the sampler's series
}

// SIGTERM to the method's main process, then up to `grace` for its tree to end: true when it did
// (the launcher answered).
bool ask_to_stop(const LaunchServer& server, std::chrono::milliseconds grace) {
  const pid_t method = server.method_pid();
  if (method <= 0 || ::kill(method, SIGTERM) != 0) return false;
  pollfd fd{server.reply_fd(), POLLIN, 0};
  const auto give_up = Clock::now() + grace;
  while (Clock::now() < give_up) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(give_up - Clock::now());
    const int ready = ::poll(&fd, 1, static_cast<int>(std::max<std::int64_t>(left.count(), 1)));
    if (ready > 0) return true;
    if (ready < 0 && errno != EINTR) return false;
  }
  return false;
}

// A launcher to ask; false, with why, when none can be started.
bool launcher_ready(LaunchServer& server, TrialExecution& execution) {
  try {
    server.ensure_running();
    return true;
  } catch (const LaunchError& e) {
    execution.end = ProcessEnd::launch_failed;
    execution.launch_error = e.what();
    return false;
  }
}

// Asks for the method; on failure records why and ends anything a dying launcher left.
bool start_method(const TrialRequest& request, LaunchServer& server, TrialExecution& execution) {
  const FdGuard log_fd{::open(request.log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)};
  if (log_fd.fd < 0) {
    // The trial directory refused the log: the run stops (commands/run_benchmarks.cpp).
    throw OutputError("cannot create " + request.log_path.string() + ": " + std::strerror(errno));
  }
  try {
    server.start(request.command, log_fd.fd);
    return true;
  } catch (const LaunchError& e) {
    execution.end = ProcessEnd::launch_failed;
    execution.launch_error = e.what();
    if (server.launcher_pid() < 0) kill_and_reap_all_descendants();
    return false;
  }
}

// A trial's samplers, started before the request so that once it is sent this thread sleeps until
// the tree has ended and the launcher, woken by the request, has a CPU at once. The monitor's first
// tick comes a moment later (samplers/sample_clock.hpp), once the method has had time to start.
// Declared in this order so that the session ends before the samplers go.
struct TrialSampling {
  std::optional<samplers::ProcessTreeSampler> tree;
  std::vector<samplers::Sampler*> all;
  std::optional<samplers::SampleClock::Session> session;
};

void start_sampling(TrialSampling& sampling, LaunchServer& server,
                    const std::vector<std::unique_ptr<samplers::Sampler>>& others, samplers::SampleClock& sample_clock,
                    std::chrono::milliseconds interval) {
  sampling.session.reset();  // the monitor stops before the samplers start (again)
  sampling.tree.emplace(server.launcher_files());
  sampling.all = {&*sampling.tree};
  for (const auto& s : others) sampling.all.push_back(s.get());
  for (auto* s : sampling.all) s->start(server.launcher_pid());
  sampling.session.emplace(sample_clock, interval, sampling.all);
}

// After the wait: the tree's end as the launcher saw it, or, when the trial was stopped, its end
// within its grace or its killing. False when the method never started.
bool settle_tree(const TrialRequest& request, LaunchServer& server, WaitOutcome& outcome, TrialExecution& execution) {
  const bool stopped = !outcome.done;
  if (stopped && request.stop_grace.count() > 0) {
    outcome.done = execution.stopped_in_grace = ask_to_stop(server, request.stop_grace);
  }
  if (!outcome.done) {
    // Time-out or interruption: the launcher goes with the tree (so every process of it is found,
    // however deep); the next trial starts a new one.
    execution.leftover_processes_killed = kill_and_reap_all_descendants();
    server.forget();
    return true;
  }
  const ProcessEnd why = execution.end;
  const int stop_signal = execution.signal;
  if (!record_tree_end(server, execution)) return false;
  // Stopped within its grace: still a time-out (an interruption, an engine's failure), with the
  // tree's figures.
  if (stopped && execution.end != ProcessEnd::launcher_lost) {
    execution.end = why;
    execution.signal = stop_signal;
  }
  return true;
}

// The method's own start and end, on the launcher's clock: a harness stopped (SIGSTOP, a debugger, a
// host that froze it) meanwhile would otherwise count its pause as the method's time. A pause that
// long also left the samplers blind: the trial is flagged harness_stalled, and does not decide.
void take_launchers_clock(TrialExecution& execution) {
  if (!execution.kernel || !execution.kernel->wall_seconds) return;
  const double method = *execution.kernel->wall_seconds;
  execution.harness_stalled = execution.wall_seconds - method > std::max(kStallSeconds, kStallShare * method);
  execution.wall_seconds = method;
}

}  // namespace

TrialExecution run_trial(const TrialRequest& request, LaunchServer& server, samplers::SampleClock& sample_clock,
                         const std::vector<std::unique_ptr<samplers::Sampler>>& others) {
  TrialExecution execution;
  // `others` were made before the launch: a sampler may need the machine's state from before the
  // method ran.
  const auto started = Clock::now();
  if (!launcher_ready(server, execution)) return execution;
  TrialSampling sampling;
  start_sampling(sampling, server, others, sample_clock, request.monitor_interval);
  const pid_t root = server.launcher_pid();
  if (!start_method(request, server, execution)) return execution;
  // It had died since the last trial, and a new one took the request: sampled from the start again.
  if (server.launcher_pid() != root) start_sampling(sampling, server, others, sample_clock, request.monitor_interval);
  WaitOutcome outcome = wait_for_tree(request, server, started, execution);
  // Stop sampling before killing, so the samples describe the method, not its death.
  if (!outcome.done) outcome.ended = Clock::now();
  execution.monitor_cpu_seconds = sampling.session->end();
  const bool stopped = !outcome.done;
  if (!settle_tree(request, server, outcome, execution)) return execution;  // it never started: nothing to read
  const samplers::TrialDirState trial_dir_state = ask_trial_dir_guard(request, execution);
  // Nothing of the tree is left to write to the log now (a damaged directory was made afresh: no log).
  execution.log_bytes_dropped = cap_log(request.log_path, request.max_log_bytes);
  execution.wall_seconds = std::chrono::duration<double>(outcome.ended - started).count();
  if (!stopped) take_launchers_clock(execution);
  finish_samplers(request, trial_dir_state, *sampling.tree, sampling.all, execution);
  return execution;
}

}  // namespace perfzero::runner
