#include "runner/launch_server.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/optional.hpp>  // Boost 1.81's process/v2 headers use boost::optional without including it
#include <boost/process/v2/posix/vfork_launcher.hpp>
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/stdio.hpp>
#include <cerrno>
#include <csignal>
#include <cstring>

#include <fmt/format.h>

#include "common/fd_guard.hpp"
#include "procfs/proc_reader.hpp"

#include "launch_protocol.h"
#include "runner/signals.hpp"

namespace perfzero::runner {

static_assert(samplers::kCounterCount == PZ_COUNTERS,
              "launch_protocol.h and counter_readings.hpp list the same counters");
static_assert(static_cast<int>(samplers::Counter::context_switches) == PZ_COUNTER_CONTEXT_SWITCHES &&
                  static_cast<int>(samplers::Counter::page_faults) == PZ_COUNTER_PAGE_FAULTS &&
                  static_cast<int>(samplers::Counter::cycles) == PZ_COUNTER_CYCLES &&
                  static_cast<int>(samplers::Counter::cache_misses) == PZ_COUNTER_CACHE_MISSES,
              "samplers::Counter follows enum pz_counter");

namespace bp = boost::process::v2;

namespace {

// Runs in the forked launcher before exec: its own process group (a terminal's Ctrl-C reaches only
// the harness, which then ends the tree) and no blocked signal.
struct LauncherSetup {
  template <typename Launcher>
  bp::error_code on_exec_setup(Launcher& /*launcher*/, const bp::filesystem::path& /*exe*/,
                               const char* const*& /*argv*/) {
    ::setpgid(0, 0);
    unblock_all_signals_in_child();
    return {};
  }
};

std::string describe_wait_status(int status) {
  if (WIFSIGNALED(status))
    return fmt::format("killed by signal {} ({})", WTERMSIG(status), ::strsignal(WTERMSIG(status)));
  if (WIFEXITED(status)) return fmt::format("exited with code {}", WEXITSTATUS(status));
  return "ended";
}

std::string payload_of(const ChildCommand& command) {
  std::string payload = command.working_dir.empty() ? "." : command.working_dir.string();
  payload.push_back('\0');
  for (const auto& arg : command.argv) payload.append(arg).push_back('\0');
  for (const auto& entry : command.environment) payload.append(entry).push_back('\0');
  return payload;
}

bool send_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// The one reply, waiting as a blocking recv waits (the caller polled first); nullopt when the
// launcher is gone.
std::optional<pz_launch_reply> read_reply(int fd) {
  pz_launch_reply reply{};
  ssize_t n;
  do {
    n = ::recv(fd, &reply, sizeof reply, MSG_WAITALL);
  } while (n < 0 && errno == EINTR);
  if (n != static_cast<ssize_t>(sizeof reply)) return std::nullopt;
  return reply;
}

}  // namespace

LaunchServer::LaunchServer(std::filesystem::path launcher) : launcher_(std::move(launcher)) {}

LaunchServer::~LaunchServer() {
  if (pid_ < 0) return;
  // Mid-trial (an exception unwinds the run): SIGTERM is the launcher's "end the tree and exit".
  if (in_trial_) ::kill(pid_, SIGTERM);
  reap_launcher(true);  // it exits when the socket closes
}

void LaunchServer::spawn() {
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
    throw LaunchError(fmt::format("cannot create the launcher's socket: {}", std::strerror(errno)));
  }
  const FdGuard theirs{pair[1]};
  const FdGuard null_fd{::open("/dev/null", O_WRONLY | O_CLOEXEC)};
  const std::vector<std::string> args{"--serve", std::to_string(::getpid())};
  try {
    boost::asio::io_context context;
    // vfork: the child borrows the harness's memory until exec instead of copying its page tables.
    bp::posix::vfork_launcher launch;
    auto child = launch(context, bp::filesystem::path(launcher_.string()), args,
                        bp::process_stdio{pair[1], null_fd.fd, STDERR_FILENO}, LauncherSetup{});
    pid_ = child.id();
    // The harness reaps it itself (reap_launcher); Boost must not reap or kill it.
    child.detach();
  } catch (const std::exception& e) {
    ::close(pair[0]);
    throw LaunchError(fmt::format("cannot start {}: {}", launcher_.string(), e.what()));
  }
  socket_ = pair[0];
}

bool LaunchServer::send_request(const ChildCommand& command, int log_fd) {
  const std::string payload = payload_of(command);
  pz_launch_request header{PZ_LAUNCH_MAGIC,
                           static_cast<std::uint32_t>(payload.size()),
                           static_cast<std::uint32_t>(command.argv.size()),
                           static_cast<std::uint32_t>(command.environment.size()),
                           command.counters,
                           0};
  if (payload.size() > PZ_LAUNCH_MAX_PAYLOAD) throw LaunchError("the command line and environment exceed 16 MiB");
  union {
    char buffer[CMSG_SPACE(sizeof(int))];
    cmsghdr align;
  } control{};
  // Header and payload in one call (the descriptor goes with the header's first byte).
  iovec iov[2] = {{&header, sizeof header}, {const_cast<char*>(payload.data()), payload.size()}};
  msghdr msg{};
  msg.msg_iov = iov;
  msg.msg_iovlen = 2;
  msg.msg_control = control.buffer;
  msg.msg_controllen = sizeof control.buffer;
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &log_fd, sizeof(int));
  ssize_t n;
  do {
    n = ::sendmsg(socket_, &msg, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  if (n <= 0) return false;
  // A short first send (a large environment) leaves the rest to go as plain bytes.
  auto sent = static_cast<std::size_t>(n);
  if (sent < sizeof header) {
    const auto* rest = reinterpret_cast<const char*>(&header) + sent;
    if (!send_all(socket_, rest, sizeof header - sent)) return false;
    sent = sizeof header;
  }
  const std::size_t payload_sent = sent - sizeof header;
  return send_all(socket_, payload.data() + payload_sent, payload.size() - payload_sent);
}

void LaunchServer::start(const ChildCommand& command, int log_fd) {
  if (command.argv.empty()) throw LaunchError("empty command");
  // A launcher that died between trials (killed from outside) is noticed at the request: nothing of
  // this trial has started yet, so a new launcher gets it.
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (pid_ < 0) spawn();
    if (send_request(command, log_fd)) break;
    const std::string end = reap_launcher(true);
    if (attempt == 1) throw LaunchError(fmt::format("{} {} before its first request", launcher_.string(), end));
  }
  in_trial_ = true;
  last_working_dir_ = command.working_dir;
}

pid_t LaunchServer::method_pid() const {
  if (pid_ < 0) return -1;
  const std::vector<pid_t> children = procfs::children_of(pid_);
  return children.empty() ? -1 : children.front();
}

std::optional<TreeEnd> LaunchServer::finish(std::string& launcher_end) {
  const auto reply = read_reply(socket_);
  in_trial_ = false;
  if (reply && (reply->kind == PZ_LAUNCH_SETUP_FAILED || reply->kind == PZ_LAUNCH_FORK_FAILED)) {
    // Nothing ran; the launcher serves on.
    if (reply->kind == PZ_LAUNCH_SETUP_FAILED) {
      throw LaunchError(fmt::format("cannot enter the working directory {}: {}", last_working_dir_.string(),
                                    std::strerror(reply->error)));
    }
    throw LaunchError(fmt::format("perfzero-launch cannot fork: {}", std::strerror(reply->error)));
  }
  if (reply && reply->kind == PZ_LAUNCH_BAD_REQUEST) {
    reap_launcher(true);  // it exits after refusing
    throw LaunchError("perfzero-launch refused the request");
  }
  if (!reply || reply->kind != PZ_LAUNCH_DONE) {
    // An answer of no known kind (a launcher of another build): it may still be running the tree.
    if (reply && pid_ > 0) ::kill(pid_, SIGTERM);
    launcher_end = reap_launcher(true);
    return std::nullopt;
  }
  TreeEnd end;
  end.wait_status = reply->wait_status;
  end.usage.max_rss_bytes = static_cast<std::uint64_t>(reply->maxrss_kib) * 1024;
  end.usage.user_seconds = static_cast<double>(reply->user_microseconds) / 1e6;
  end.usage.system_seconds = static_cast<double>(reply->system_microseconds) / 1e6;
  end.usage.reaped_processes = reply->reaped_processes;
  end.usage.leftovers_killed = reply->leftovers_killed;
  if (reply->wall_nanoseconds > 0) end.usage.wall_seconds = static_cast<double>(reply->wall_nanoseconds) / 1e9;
  if (reply->run_delay_microseconds >= 0) {
    end.usage.run_queue_seconds = static_cast<double>(reply->run_delay_microseconds) / 1e6;
  }
  samplers::CounterReadings& counters = end.usage.counters;
  for (std::size_t i = 0; i < samplers::kCounterCount; ++i) {
    samplers::CounterReading& c = counters.counters[i];
    c.asked = reply->counter_errors[i] != -1;
    c.error = std::max(0, reply->counter_errors[i]);
    if (c.asked && reply->counter_errors[i] == 0) c.value = static_cast<double>(reply->counter_values[i]);
    c.running_share = static_cast<double>(reply->counter_running_ppm[i]) / 1e6;
  }
  counters.user_only = reply->counters_user_only != 0;
  counters.voluntary_switches = reply->voluntary_switches;
  counters.involuntary_switches = reply->involuntary_switches;
  counters.minor_faults = reply->minor_faults;
  counters.major_faults = reply->major_faults;
  return end;
}

void LaunchServer::forget() {
  in_trial_ = false;
  reap_launcher(false);
}

std::string LaunchServer::reap_launcher(bool wait) {
  launcher_files_.clear();
  if (socket_ >= 0) ::close(socket_);
  socket_ = -1;
  std::string end = "is gone";
  if (pid_ > 0) {
    int status = 0;
    // Without `wait`, the harness's own reaping (kill_and_reap_all_descendants) may have taken it.
    if (::waitpid(pid_, &status, wait ? 0 : WNOHANG) == pid_) end = describe_wait_status(status);
  }
  pid_ = -1;
  return end;
}

}  // namespace perfzero::runner
