#include "runner/trial_runner.hpp"

#include "common/errors.hpp"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fstream>
#include <thread>

#include "monitor/proc_reader.hpp"
#include "runner/log_cap.hpp"
#include "runner/signals.hpp"
#include "samplers/monitor.hpp"

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
    const auto pids = monitor::descendants_of(::getpid());
    for (pid_t pid : pids) {
      const auto stat = monitor::read_proc_stat(pid);
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

std::optional<KernelUsage> read_kernel_usage(const std::filesystem::path& path) {
  std::ifstream in(path);
  KernelUsage usage;
  std::uint64_t max_rss_kib = 0;
  if (!(in >> max_rss_kib >> usage.user_seconds >> usage.system_seconds >> usage.reaped_processes)) {
    return std::nullopt;
  }
  usage.max_rss_bytes = max_rss_kib * 1024;
  return usage;
}

namespace {

struct WaitOutcome {
  bool done = false;  // the child ended by itself; `status` is its wait status
  int status = 0;
  Clock::time_point ended;
};

// Waits for the child to end, the deadline to pass or a stop signal; the latter two set execution.end.
WaitOutcome wait_for_child(const TrialRequest& request, pid_t pid, Clock::time_point started,
                           TrialExecution& execution) {
  const auto deadline = request.timeout.count() > 0 ? started + request.timeout : Clock::time_point::max();
  WaitOutcome outcome;
  outcome.ended = Clock::now();
  while (!outcome.done) {
    if (reap_ready(pid, outcome.status)) {
      outcome.ended = Clock::now();
      outcome.done = true;
      break;
    }
    const auto now = Clock::now();
    if (now >= deadline) {
      execution.end = ProcessEnd::timed_out;
      break;
    }
    const auto wait = std::min<Clock::duration>(deadline - now, std::chrono::milliseconds(200));
    const auto sig = wait_for_signal(std::chrono::ceil<std::chrono::milliseconds>(wait));
    if (sig && is_stop_signal(*sig)) {
      execution.end = ProcessEnd::interrupted;
      execution.signal = *sig;
      break;
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

// Reads the kernel's usage figures, then lets every sampler finish with the trial's facts.
void finish_samplers(const TrialRequest& request, samplers::ProcessTreeSampler& tree,
                     const std::vector<samplers::Sampler*>& all, TrialExecution& execution) {
  std::error_code ignored;
  execution.kernel = read_kernel_usage(request.rusage_path);
  std::filesystem::remove(request.rusage_path, ignored);
  samplers::TrialFacts facts;
  facts.wall_seconds = execution.wall_seconds;
  facts.trial_dir = request.log_path.parent_path();
  facts.tree_cpu_seconds = execution.kernel ? execution.kernel->user_seconds + execution.kernel->system_seconds
                                            : tree.result().tree_cpu_seconds;
  for (auto* s : all) execution.samplers.emplace_back(s->name(), s->finish(facts));
  execution.tree = tree.release();
  execution.tree.samples.clear();  // they went out as the sampler's series
}

}  // namespace

TrialExecution run_trial(const TrialRequest& request) {
  TrialExecution execution;
  std::error_code ignored;
  std::filesystem::remove(request.rusage_path, ignored);

  // Made before launch: a sampler may need the machine's state from before the method ran.
  std::vector<std::unique_ptr<samplers::Sampler>> others = samplers::make_builtin_samplers();
  const auto started = Clock::now();
  pid_t pid = -1;
  try {
    pid = launch_child(request.launcher, request.command, request.rusage_path, request.log_path);
  } catch (const OutputError&) {
    throw;  // the trial directory refused the log: the run stops (app/run_benchmarks.cpp)
  } catch (const std::exception& e) {
    execution.end = ProcessEnd::launch_failed;
    execution.launch_error = e.what();
    return execution;
  }

  samplers::ProcessTreeSampler tree;
  std::vector<samplers::Sampler*> all{&tree};
  for (auto& s : others) all.push_back(s.get());
  for (auto* s : all) s->start(pid);
  samplers::Monitor monitor(request.monitor_interval, all);
  WaitOutcome outcome = wait_for_child(request, pid, started, execution);
  // Stop sampling before killing, so the samples describe the method, not its death.
  if (!outcome.done) outcome.ended = Clock::now();
  execution.monitor_cpu_seconds = monitor.stop();
  execution.leftover_processes_killed = kill_and_reap_all_descendants();
  // Nothing of the tree is left to write to the log now.
  execution.log_bytes_dropped = cap_log(request.log_path, request.max_log_bytes);
  execution.wall_seconds = std::chrono::duration<double>(outcome.ended - started).count();
  if (outcome.done) record_exit(outcome.status, execution);
  finish_samplers(request, tree, all, execution);
  return execution;
}

}  // namespace perfzero::runner
