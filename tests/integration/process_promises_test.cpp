// Promises of docs/reliability.md, "No process outlives the harness", held on the real binaries:
// perfzero-launch ends the method's tree when its harness dies, and starts nothing when its harness is
// gone before it looked.
#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <cstring>

#include "../../harness/launcher/launch_protocol.h"
#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"
#include "promise_helpers.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::process_promises_test {
namespace {

using namespace promises;  // NOLINT(google-build-using-namespace)

namespace fs = std::filesystem;
using std::chrono::seconds;

// docs/reliability.md, "No process outlives the harness": when the harness dies, even by kill -9, the
// kernel tells perfzero-launch (PR_SET_PDEATHSIG), which ends the method's whole tree: children,
// a grandchild that ignores SIGTERM, one that left the method's session (setsid), and itself.
TEST(ProcessPromises, AKillNineOfTheHarnessEndsTheMethodsWholeTreeAndItsLauncher) {
  TempDir dir;
  const EndsWhatItStarted cleanup(dir.path());
  const fs::path out = dir.path() / "run";
  const auto suite = dir.write("s.yaml", R"(
methods:
  - name: tree
    output: none
    command:
      - /bin/sh
      - -c
      - |
        sh -c 'trap "" TERM; sleep 600' &
        setsid sh -c 'sleep 600 & wait' &
        sleep 600
)");
  RunningPerfzero p({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path() / "first");
  const ReapsPerfzero reaps(p.pid());
  const fs::path trial = out / "tree" / "trial_1";
  // Its three sleeps: the method's own, the one ignoring SIGTERM and the one in its own session.
  const auto sleeps = [&] {
    const auto pids = processes_started_under(trial);
    return std::count_if(pids.begin(), pids.end(),
                         [](pid_t pid) { return slurp("/proc/" + std::to_string(pid) + "/comm") == "sleep\n"; });
  };
  ASSERT_TRUE(wait_for([&] { return sleeps() == 3; }, seconds(60)))
      << sleeps() << " sleeps; " << slurp(dir.path() / "first" / "stderr");
  const auto launchers = children_named(p.pid(), "perfzero-launch");
  ASSERT_EQ(launchers.size(), 1U);
  p.signal(SIGKILL);
  p.wait();
  EXPECT_TRUE(wait_for([&] { return processes_started_under(out).empty(); }, seconds(30)))
      << processes_started_under(out).size() << " process(es) of the killed run outlived its harness";
  EXPECT_TRUE(wait_for([&] { return gone(launchers.front()); }, seconds(30))) << "perfzero-launch outlived it";
}

// What a launcher whose harness is `harness` does with one request, already waiting on its standard
// input, to run `sh -c 'echo ran > MARKER'`: its exit status and the replies it sent. The launcher is
// started by a subreaper of the test's (so that it can be waited for); when `harness_gone`, by a
// process that exits before the launcher starts, as a harness dying at once would.
struct LauncherOutcome {
  int exit_status = -1;
  std::vector<pz_launch_reply> replies;
};

// A pid's digits, with no allocation (for a forked child).
void decimal(pid_t pid, char (&out)[24]) {
  char reversed[24];
  int n = 0;
  for (long v = pid; v > 0 && n < 23; v /= 10) reversed[n++] = static_cast<char>('0' + v % 10);
  for (int i = 0; i < n; ++i) out[i] = reversed[n - 1 - i];
  out[n] = '\0';
}

LauncherOutcome launcher_serving_one_request(const fs::path& dir, const fs::path& marker, bool harness_gone) {
  int sock[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock) != 0) return {};
  const int log_fd = ::open((dir / "launcher.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  std::string payload;
  const std::vector<std::string> strings{dir.string(), "/bin/sh", "-c", "echo ran > '" + marker.string() + "'",
                                         "PATH=/usr/bin:/bin"};
  for (const auto& s : strings) payload += s + '\0';
  pz_launch_request header{PZ_LAUNCH_MAGIC, static_cast<uint32_t>(payload.size()), 3, 1, 0, 0};
  iovec iov{&header, sizeof header};
  union {
    char buffer[CMSG_SPACE(sizeof(int))];
    cmsghdr align;
  } control{};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control.buffer;
  msg.msg_controllen = sizeof control.buffer;
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &log_fd, sizeof(int));
  const bool sent = ::sendmsg(sock[0], &msg, 0) == static_cast<ssize_t>(sizeof header) &&
                    ::write(sock[0], payload.data(), payload.size()) == static_cast<ssize_t>(payload.size());
  ::close(log_fd);
  ::shutdown(sock[0], SHUT_WR);  // one request, then the end of the stream
  if (!sent) return {};

  const std::string launch = (kBinDir / "harness" / "perfzero-launch").string();
  const pid_t subreaper = ::fork();
  if (subreaper == 0) {
    // Only system calls from here: the test process may have threads.
    ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    const pid_t harness = harness_gone ? ::fork() : ::getpid();
    if (harness == 0) {
      const pid_t me = ::getpid();
      if (::fork() == 0) {
        while (::getppid() == me) ::usleep(1000);  // until the harness is gone
        ::dup2(sock[1], 0);
        char pid[24];
        decimal(me, pid);
        ::execl(launch.c_str(), launch.c_str(), "--serve", pid, static_cast<char*>(nullptr));
        ::_exit(120);
      }
      ::_exit(0);
    }
    if (!harness_gone && ::fork() == 0) {
      ::dup2(sock[1], 0);
      char pid[24];
      decimal(harness, pid);
      ::execl(launch.c_str(), launch.c_str(), "--serve", pid, static_cast<char*>(nullptr));
      ::_exit(120);
    }
    ::close(sock[1]);
    // Every child: the harness (when it is made to die), then the launcher, whose status it returns.
    int launcher_status = 121;
    for (int status = 0;;) {
      const pid_t pid = ::wait(&status);
      if (pid < 0) break;
      if (!harness_gone || pid != harness) launcher_status = WIFEXITED(status) ? WEXITSTATUS(status) : 122;
    }
    ::_exit(launcher_status);
  }
  ::close(sock[1]);
  LauncherOutcome outcome;
  int status = 0;
  const bool ended = wait_for([&] { return ::waitpid(subreaper, &status, WNOHANG) == subreaper; }, seconds(60));
  if (!ended) {
    ::kill(subreaper, SIGKILL);  // its launcher then gets SIGTERM (PR_SET_PDEATHSIG) and ends
    ::waitpid(subreaper, &status, 0);
  }
  outcome.exit_status = ended && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  pz_launch_reply reply{};
  while (::recv(sock[0], &reply, sizeof reply, MSG_WAITALL | MSG_DONTWAIT) == static_cast<ssize_t>(sizeof reply)) {
    outcome.replies.push_back(reply);
  }
  ::close(sock[0]);
  return outcome;
}

// docs/reliability.md, "No process outlives the harness": a harness that died before the launcher
// armed PR_SET_PDEATHSIG is caught by comparing getppid() with the pid of its --serve argument, and
// the launcher then starts nothing. With its harness alive, the same request runs (the control).
TEST(ProcessPromises, ALauncherWhoseHarnessIsAlreadyGoneStartsNothingAndExits) {
  TempDir dir;
  const fs::path served = dir.path() / "served";
  const auto alive = launcher_serving_one_request(dir.path(), served, false);
  EXPECT_EQ(alive.exit_status, 0);
  ASSERT_EQ(alive.replies.size(), 1U) << "the request runs when the harness is there";
  EXPECT_EQ(alive.replies[0].kind, static_cast<int32_t>(PZ_LAUNCH_DONE));
  EXPECT_GT(alive.replies[0].pid, 0) << "DONE names the method's process";
  EXPECT_EQ(slurp(served), "ran\n");

  const fs::path orphaned = dir.path() / "orphaned";
  const auto orphan = launcher_serving_one_request(dir.path(), orphaned, true);
  EXPECT_EQ(orphan.exit_status, 0);
  EXPECT_TRUE(orphan.replies.empty()) << "it read the request: " << orphan.replies.size() << " replies";
  EXPECT_FALSE(fs::exists(orphaned)) << "a launcher whose harness was gone ran the method";
}

}  // namespace
}  // namespace perfzero::testing::process_promises_test
