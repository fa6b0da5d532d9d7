#pragma once
// The run's long-lived perfzero-launch (harness/launcher/): started once, it starts each trial's
// method on request and reports the kernel's accounting of the method's whole tree, so a trial
// costs one program start, not two (docs/monitoring.md, docs/performance.md).
#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "procfs/proc_file_cache.hpp"
#include "runner/trial_execution.hpp"
#include "samplers/counter_readings.hpp"

namespace perfzero::runner {

struct ChildCommand {
  std::vector<std::string> argv;  // argv[0] is looked up on the child's PATH
  std::filesystem::path working_dir;
  std::vector<std::string> environment;             // NAME=value, the child's whole environment
  std::uint32_t counters = samplers::kAllCounters;  // what perfzero-launch counts (--counters)
};

// The method could not be started (the launcher cannot run, fork or chdir failed): the trial fails
// with this message; the run goes on.
class LaunchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How the method's tree ended, as the launcher saw it after reaping all of it.
struct TreeEnd {
  int wait_status = 0;  // the method's own process
  KernelUsage usage;
};

// Use it from the thread that runs the whole run (the main thread): the launcher's PR_SET_PDEATHSIG
// fires when the thread that started it ends, not only when the harness does.
class LaunchServer {
 public:
  explicit LaunchServer(std::filesystem::path launcher);
  ~LaunchServer();
  LaunchServer(const LaunchServer&) = delete;
  LaunchServer& operator=(const LaunchServer&) = delete;

  // Asks the launcher to start `command` with stdin /dev/null, stdout and stderr on `log_fd`, in its
  // own process group, every signal unblocked; starts (or restarts) the launcher first when it is
  // not running. Returns once the request is sent: the one answer (finish()) comes when the tree has
  // ended, or at once when the method could not start. Throws LaunchError when no launcher can be asked.
  void start(const ChildCommand& command, int log_fd);
  // Starts the launcher when none runs (the samplers start on its pid before the request). Throws LaunchError.
  void ensure_running() {
    if (pid_ < 0) spawn();
  }
  // The method's process while it runs (the launcher's first child: it has no other when a trial
  // starts); -1 when it has none, having not forked yet or reaped the tree already.
  pid_t method_pid() const;
  // The launcher's pid (the root of the method's tree for the samplers); -1 when none runs.
  pid_t launcher_pid() const { return pid_; }
  // The launcher's own /proc files, open for as long as this launcher lives (the process tree
  // sampler reads them every trial); closed when it is reaped, before its pid can name another.
  procfs::ProcFileCache& launcher_files() { return launcher_files_; }
  // Readable when the method's tree has ended or the launcher died.
  int reply_fd() const { return socket_; }
  // After reply_fd() became readable: the tree's end, or nullopt when the launcher died (its exit is
  // then in `launcher_end`, e.g. "killed by SIGKILL"); a later start() starts a new launcher. Throws
  // LaunchError when the method could not start (fork or chdir failed, or the request was refused).
  std::optional<TreeEnd> finish(std::string& launcher_end);
  // The launcher was killed with the method's tree (time-out, interruption): reap it, start anew later.
  void forget();

 private:
  void spawn();
  bool send_request(const ChildCommand& command, int log_fd);
  std::string reap_launcher(bool wait);

  std::filesystem::path launcher_;
  pid_t pid_ = -1;
  int socket_ = -1;
  bool in_trial_ = false;
  std::filesystem::path last_working_dir_;  // the running request's, for a failed chdir's message
  procfs::ProcFileCache launcher_files_;
};

}  // namespace perfzero::runner
