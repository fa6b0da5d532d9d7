#include "method_catalog/worker_discovery.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

#include <fmt/format.h>

#include "common/text.hpp"

extern char** environ;

namespace perfzero::method_catalog {

namespace {

bool is_worker_file(const std::filesystem::directory_entry& entry) {
  const std::string name = entry.path().filename().string();
  return name.starts_with(kWorkerPrefix) && name.size() > kWorkerPrefix.size() && entry.is_regular_file() &&
         ::access(entry.path().c_str(), X_OK) == 0;
}

struct Running {
  Listing listing;
  pid_t pid = -1;
  int out_fd = -1;
  int err_fd = -1;
};

// The harness blocks its signals before any thread starts (runner/signals.hpp); the worker must not
// inherit that mask, or a stuck one could not be stopped with a plain SIGTERM.
void start(Running& r) {
  int out[2];
  int err[2];
  if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    r.listing.failure = "cannot create a pipe";
    return;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
  const std::string path = r.listing.worker.string();
  std::string flag = "--list-json";
  char* argv[] = {const_cast<char*>(path.c_str()), flag.data(), nullptr};
  const int rc = ::posix_spawn(&r.pid, path.c_str(), &actions, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(out[1]);
  ::close(err[1]);
  r.out_fd = out[0];
  r.err_fd = err[0];
  if (rc != 0) {
    r.pid = -1;
    r.listing.failure = fmt::format("cannot start it: {}", std::strerror(rc));
  }
}

// Reads every pipe until all are closed or the deadline passes.
void drain(std::vector<Running>& running, std::chrono::steady_clock::time_point deadline) {
  char buffer[65536];
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<std::pair<int*, std::string*>> sinks;
    auto watch = [&](int& fd, std::string& sink) {
      if (fd < 0) return;
      fds.push_back({fd, POLLIN, 0});
      sinks.emplace_back(&fd, &sink);
    };
    for (auto& r : running) {
      watch(r.out_fd, r.listing.out);
      watch(r.err_fd, r.listing.err);
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (fds.empty() || left.count() <= 0) return;
    if (::poll(fds.data(), fds.size(), static_cast<int>(left.count())) < 0 && errno != EINTR) return;
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i].second->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(*sinks[i].first);
        *sinks[i].first = -1;
      }
    }
  }
}

void finish(Running& r, std::chrono::milliseconds limit) {
  const bool unfinished = r.out_fd >= 0 || r.err_fd >= 0;
  if (r.out_fd >= 0) ::close(r.out_fd);
  if (r.err_fd >= 0) ::close(r.err_fd);
  if (r.pid < 0) return;
  if (unfinished) ::kill(r.pid, SIGKILL);
  int status = 0;
  ::waitpid(r.pid, &status, 0);
  if (unfinished) {
    r.listing.failure = fmt::format("did not answer --list-json within {}",
                                    text::format_duration(static_cast<double>(limit.count()) / 1e3));
  } else if (WIFSIGNALED(status)) {
    r.listing.failure = fmt::format("--list-json was killed by signal {}", WTERMSIG(status));
  } else if (WEXITSTATUS(status) != 0) {
    r.listing.failure = fmt::format("--list-json exited with status {}", WEXITSTATUS(status));
  }
}

}  // namespace

std::vector<std::filesystem::path> find_workers(const std::filesystem::path& bin_dir, std::string_view worker_path) {
  std::vector<std::filesystem::path> dirs{bin_dir};
  for (const auto& dir : text::split(worker_path, ':')) {
    if (!dir.empty()) dirs.emplace_back(dir);
  }
  std::vector<std::filesystem::path> workers;
  std::set<std::filesystem::path> seen;
  for (const auto& dir : dirs) {
    std::error_code ec;
    std::vector<std::filesystem::path> here;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      if (is_worker_file(entry)) here.push_back(entry.path());
    }
    std::sort(here.begin(), here.end());
    for (auto& path : here) {
      // The same directory given twice (or the bin dir in the path) must not duplicate every method.
      if (seen.insert(std::filesystem::weakly_canonical(path, ec)).second) workers.push_back(std::move(path));
    }
  }
  return workers;
}

std::vector<Listing> list_workers(const std::vector<std::filesystem::path>& workers, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::vector<Running> running(workers.size());
  for (std::size_t i = 0; i < workers.size(); ++i) {
    running[i].listing.worker = workers[i];
    start(running[i]);
  }
  drain(running, deadline);
  std::vector<Listing> out;
  for (auto& r : running) {
    finish(r, limit);
    out.push_back(std::move(r.listing));
  }
  return out;
}

}  // namespace perfzero::method_catalog
