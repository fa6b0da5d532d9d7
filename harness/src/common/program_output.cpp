#include "common/program_output.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include <fmt/format.h>

#include "common/fd_guard.hpp"

extern char** environ;

namespace perfzero::files {

namespace {

using Clock = std::chrono::steady_clock;

// Reads what is ready on `fd` into `into` (up to max_bytes kept); false at end of file or error.
bool drain(int fd, std::string& into, std::size_t max_bytes) {
  char buffer[4096];
  const ssize_t n = ::read(fd, buffer, sizeof buffer);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
  if (n <= 0) return false;
  const std::size_t room = max_bytes > into.size() ? max_bytes - into.size() : 0;
  into.append(buffer, std::min(room, static_cast<std::size_t>(n)));
  return true;
}

// Starts argv with stdin from /dev/null and stdout and stderr on the pipes' write ends, with a clean
// signal mask; returns posix_spawnp's error (0: started, its pid in `pid`).
int spawn_on_pipes(const std::vector<std::string>& argv, int out_write, int err_write, bool own_group,
                   char* const* envp, pid_t& pid) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_write, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_write, STDERR_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  sigset_t all;
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &all);
  // Its own process group: at the time limit the whole group is killed, not only the program, whose
  // children would otherwise be left to the harness (a subreaper).
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, static_cast<short>(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
                                                           (own_group ? POSIX_SPAWN_SETPGROUP : 0)));
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int spawned = ::posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), envp);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  return spawned;
}

// Keeps what the program prints until it closes both outputs or the deadline passes.
void read_outputs(int out_fd, int err_fd, Clock::time_point deadline, std::size_t max_bytes, ProgramOutput& result) {
  bool out_open = true;
  bool err_open = true;
  while (out_open || err_open) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) break;
    pollfd fds[2] = {{out_open ? out_fd : -1, POLLIN, 0}, {err_open ? err_fd : -1, POLLIN, 0}};
    const int ready = ::poll(fds, 2, static_cast<int>(left));
    if (ready < 0 && errno != EINTR) break;
    if (out_open && fds[0].revents != 0) out_open = drain(out_fd, result.out, max_bytes);
    if (err_open && fds[1].revents != 0) err_open = drain(err_fd, result.err, max_bytes);
  }
}

// Its output closed, it may still run (a program that closes stdout and stderr): still bounded. Its
// end (an exit code, a signal, or the kill at the deadline) goes into `result`.
void wait_for_end(const std::string& program, pid_t pid, bool own_group, Clock::time_point deadline,
                  ProgramOutput& result) {
  int status = 0;
  pid_t reaped = 0;
  while (true) {
    reaped = ::waitpid(pid, &status, WNOHANG);
    if (reaped != 0 && !(reaped < 0 && errno == EINTR)) break;
    if (Clock::now() >= deadline) {
      result.timed_out = true;
      ::kill(own_group ? -pid : pid, SIGKILL);
      while ((reaped = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
      }
      break;
    }
    ::usleep(2000);
  }
  if (reaped != pid) {
    result.error = fmt::format("{}: its end could not be read: {}", program, std::strerror(errno));
  } else if (!result.timed_out && WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (!result.timed_out && WIFSIGNALED(status)) {
    result.error = fmt::format("{} was ended by signal {}", program, WTERMSIG(status));
  }
}

ProgramOutput run_with(const std::vector<std::string>& argv, char* const* envp, std::chrono::milliseconds limit,
                       std::size_t max_bytes, bool own_group) {
  ProgramOutput result;
  if (argv.empty()) {
    result.error = "no program given";
    return result;
  }
  int out_pipe[2];
  int err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    result.error = std::strerror(errno);
    return result;
  }
  FdGuard out_read{out_pipe[0]};
  FdGuard out_write{out_pipe[1]};
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    result.error = std::strerror(errno);
    return result;
  }
  FdGuard err_read{err_pipe[0]};
  FdGuard err_write{err_pipe[1]};

  pid_t pid = -1;
  const int spawned = spawn_on_pipes(argv, out_pipe[1], err_pipe[1], own_group, envp, pid);
  // Only the child holds the write ends now: its end closes them, which ends the reading below.
  ::close(out_write.fd);
  out_write.fd = -1;
  ::close(err_write.fd);
  err_write.fd = -1;
  if (spawned != 0) {
    result.error = fmt::format("cannot run {}: {}", argv[0], std::strerror(spawned));
    return result;
  }
  result.started = true;

  const auto deadline = Clock::now() + limit;
  read_outputs(out_read.fd, err_read.fd, deadline, max_bytes, result);
  wait_for_end(argv[0], pid, own_group, deadline, result);
  return result;
}

}  // namespace

ProgramOutput run_program(const std::vector<std::string>& argv, std::chrono::milliseconds limit, std::size_t max_bytes,
                          bool own_group) {
  return run_with(argv, environ, limit, max_bytes, own_group);
}

ProgramOutput run_program_with_environment(const std::vector<std::string>& argv,
                                           const std::vector<std::string>& environment, std::chrono::milliseconds limit,
                                           std::size_t max_bytes) {
  std::vector<char*> envp;
  envp.reserve(environment.size() + 1);
  for (const auto& e : environment) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  return run_with(argv, envp.data(), limit, max_bytes, true);
}

}  // namespace perfzero::files
