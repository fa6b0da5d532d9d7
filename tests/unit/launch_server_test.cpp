// runner/launch_server against the real perfzero-launch: one launcher serves many methods, reports
// each tree's exit status and kernel figures, and a launcher that dies is noticed, never waited on.
#include "runner/launch_server.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::runner::launch_server_test {
namespace {

using testing::TempDir;

ChildCommand shell(const std::string& script, const std::filesystem::path& dir) {
  return {{"/bin/sh", "-c", script}, dir, {"PATH=/usr/bin:/bin", "PERFZERO_TEST_VALUE=seen"}};
}

struct Log {
  explicit Log(const std::filesystem::path& file)
      : path(file), fd(::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) {}
  ~Log() { ::close(fd); }
  std::string text() const {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::filesystem::path path;
  int fd;
};

bool readable_within(int fd, std::chrono::milliseconds limit) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, static_cast<int>(limit.count())) == 1;
}

template <typename Condition>
bool wait_until(Condition ready, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!ready()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

bool gone_within(pid_t pid, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    // A zombie of an exited process counts as gone: it runs nothing.
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string pid_text, name, state;
    if (!(stat >> pid_text >> name >> state) || state == "Z") return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TreeEnd run_to_end(LaunchServer& server, const ChildCommand& command, int log_fd) {
  server.start(command, log_fd);
  EXPECT_TRUE(readable_within(server.reply_fd(), std::chrono::seconds(30)));
  std::string launcher_end;
  auto end = server.finish(launcher_end);
  EXPECT_TRUE(end.has_value()) << launcher_end;
  return end.value_or(TreeEnd{});
}

TEST(LaunchServer, OneLauncherRunsEveryMethodWithItsEnvironmentDirectoryAndExitStatus) {
  TempDir dir;
  Log log(dir.path() / "perfzero.log");
  LaunchServer server(PERFZERO_LAUNCH_BINARY);
  const auto first = run_to_end(server, shell("pwd; echo $PERFZERO_TEST_VALUE; exit 3", dir.path()), log.fd);
  const pid_t launcher = server.launcher_pid();
  ASSERT_GT(launcher, 0);
  EXPECT_TRUE(WIFEXITED(first.wait_status));
  EXPECT_EQ(WEXITSTATUS(first.wait_status), 3);
  EXPECT_EQ(log.text(), dir.path().string() + "\nseen\n");

  const auto killed = run_to_end(server, shell("kill -SEGV $$", dir.path()), log.fd);
  EXPECT_TRUE(WIFSIGNALED(killed.wait_status));
  EXPECT_EQ(WTERMSIG(killed.wait_status), SIGSEGV);
  EXPECT_EQ(server.launcher_pid(), launcher) << "the same launcher serves every trial";
}

// Header, descriptor and payload go in one sendmsg; an environment larger than the socket's buffer
// is sent on in pieces and arrives whole.
TEST(LaunchServer, AnEnvironmentLargerThanTheSocketsBufferArrivesWhole) {
  TempDir dir;
  Log log(dir.path() / "perfzero.log");
  LaunchServer server(PERFZERO_LAUNCH_BINARY);
  // Five values of 100,000 bytes (the kernel takes at most 128 KiB a string), 500 KB in all.
  ChildCommand command = shell("echo ${#PZ_BIG_1} ${#PZ_BIG_5} ${PZ_BIG_5#${PZ_BIG_5%?}}", dir.path());
  for (int i = 1; i <= 5; ++i) {
    std::string entry = "PZ_BIG_";
    entry += std::to_string(i);
    entry += '=';
    entry.append(99'999, 'x');
    entry += static_cast<char>('0' + i);
    command.environment.push_back(std::move(entry));
  }
  EXPECT_EQ(run_to_end(server, command, log.fd).wait_status, 0);
  EXPECT_EQ(log.text(), "100000 100000 5\n");
}

TEST(LaunchServer, PeakMemoryAndProcessCountCoverTheWholeTreeAndNotTheLauncherHistory) {
  TempDir dir;
  Log log(dir.path() / "perfzero.log");
  LaunchServer server(PERFZERO_LAUNCH_BINARY);
  // A background job of the shell holds 100 MiB for a moment: the peak of a grandchild, whoever
  // reaps it (the shell, or the launcher as subreaper when the shell leaves it behind).
  const auto big = run_to_end(server,
                              shell("{ python3 -c 'b = bytearray(100 << 20)'; touch done; } & "
                                    "while [ ! -e done ]; do sleep 0.05; done",
                                    dir.path()),
                              log.fd);
  EXPECT_GE(big.usage.max_rss_bytes, std::uint64_t{100} << 20);
  EXPECT_GE(big.usage.reaped_processes, 1);
  // The next method is small: the figures are its own, not the previous tree's peak.
  const auto small = run_to_end(server, {{"/bin/true"}, dir.path(), {}}, log.fd);
  EXPECT_LT(small.usage.max_rss_bytes, std::uint64_t{16} << 20);
  EXPECT_EQ(small.usage.reaped_processes, 1);
}

TEST(LaunchServer, AMissingProgramExits127WithTheReasonInTheLog) {
  TempDir dir;
  Log log(dir.path() / "perfzero.log");
  LaunchServer server(PERFZERO_LAUNCH_BINARY);
  const auto end = run_to_end(server, {{"/nonexistent/program"}, dir.path(), {}}, log.fd);
  EXPECT_EQ(WEXITSTATUS(end.wait_status), 127);
  EXPECT_NE(log.text().find("cannot run /nonexistent/program"), std::string::npos) << log.text();
}

TEST(LaunchServer, AMissingWorkingDirectoryIsALaunchErrorAndTheLauncherServesOn) {
  TempDir dir;
  Log log(dir.path() / "perfzero.log");
  LaunchServer server(PERFZERO_LAUNCH_BINARY);
  // The request goes out; the answer, when the tree would have ended, says why nothing ran.
  server.start({{"/bin/true"}, dir.path() / "missing", {}}, log.fd);
  ASSERT_TRUE(readable_within(server.reply_fd(), std::chrono::seconds(30)));
  try {
    std::string launcher_end;
    server.finish(launcher_end);
    FAIL() << "expected a LaunchError";
  } catch (const LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
  }
  const pid_t launcher = server.launcher_pid();
  EXPECT_EQ(run_to_end(server, {{"/bin/true"}, dir.path(), {}}, log.fd).wait_status, 0);
  EXPECT_EQ(server.launcher_pid(), launcher);
}

TEST(LaunchServer, ALauncherKilledBetweenTrialsIsReplaced) {
  TempDir dir;
  Log log(dir.path() / "perfzero.log");
  LaunchServer server(PERFZERO_LAUNCH_BINARY);
  run_to_end(server, {{"/bin/true"}, dir.path(), {}}, log.fd);
  const pid_t first = server.launcher_pid();
  ASSERT_EQ(::kill(first, SIGKILL), 0);
  ASSERT_TRUE(gone_within(first, std::chrono::seconds(5)));
  EXPECT_EQ(run_to_end(server, {{"/bin/true"}, dir.path(), {}}, log.fd).wait_status, 0);
  EXPECT_NE(server.launcher_pid(), first);
}

// The process tree sampler reads the launcher's /proc files every trial through this cache, kept
// open for the run: a replaced launcher (even one given the same pid) must never be read through
// its predecessor's descriptors.
TEST(LaunchServer, TheLaunchersProcFilesStayOpenWhileItLivesAndCloseWithIt) {
  TempDir dir;
  Log log(dir.path() / "perfzero.log");
  LaunchServer server(PERFZERO_LAUNCH_BINARY);
  run_to_end(server, {{"/bin/true"}, dir.path(), {}}, log.fd);
  const pid_t first = server.launcher_pid();
  ASSERT_TRUE(server.launcher_files().read(first, procfs::ProcFile::stat).has_value());
  run_to_end(server, {{"/bin/true"}, dir.path(), {}}, log.fd);
  EXPECT_EQ(server.launcher_files().open_files(), 1U) << "kept from one trial to the next";
  ASSERT_EQ(::kill(first, SIGKILL), 0);
  ASSERT_TRUE(gone_within(first, std::chrono::seconds(5)));
  run_to_end(server, {{"/bin/true"}, dir.path(), {}}, log.fd);
  EXPECT_EQ(server.launcher_files().open_files(), 0U) << "the dead launcher's descriptors were closed";
  const pid_t second = server.launcher_pid();
  const auto stat = server.launcher_files().read(second, procfs::ProcFile::stat);
  ASSERT_TRUE(stat.has_value());
  EXPECT_EQ(stat->substr(0, stat->find(' ')), std::to_string(second));
}

TEST(LaunchServer, ALauncherKilledDuringATrialIsReportedNotWaitedFor) {
  TempDir dir;
  Log log(dir.path() / "perfzero.log");
  LaunchServer server(PERFZERO_LAUNCH_BINARY);
  server.start({{"/bin/sleep", "30"}, dir.path(), {}}, log.fd);
  pid_t method = -1;
  ASSERT_TRUE(wait_until([&] { return (method = server.method_pid()) > 0; }, std::chrono::seconds(5)))
      << "the method's pid, as ask_to_stop finds it, while it runs";
  ASSERT_EQ(::kill(server.launcher_pid(), SIGKILL), 0);
  ASSERT_TRUE(readable_within(server.reply_fd(), std::chrono::seconds(5))) << "the harness would hang";
  std::string launcher_end;
  EXPECT_FALSE(server.finish(launcher_end).has_value());
  EXPECT_NE(launcher_end.find("signal 9"), std::string::npos) << launcher_end;
  EXPECT_EQ(server.launcher_pid(), -1);
  // This test process is not a subreaper, so the orphan went to init; the harness kills it itself.
  ::kill(method, SIGKILL);
}

// The launcher's parent-death signal fires when the thread that started it ends (launch_server.hpp),
// here while the launcher waits for a request with its socket still open: it must end, not go on
// waiting for a request that will never come.
TEST(LaunchServer, AnIdleLauncherWhoseStartingThreadEndsExits) {
  TempDir dir;
  Log log(dir.path() / "perfzero.log");
  std::unique_ptr<LaunchServer> server;
  pid_t launcher = -1;
  std::thread starter([&] {
    server = std::make_unique<LaunchServer>(PERFZERO_LAUNCH_BINARY);
    run_to_end(*server, {{"/bin/true"}, dir.path(), {}}, log.fd);
    launcher = server->launcher_pid();
  });
  starter.join();
  ASSERT_GT(launcher, 0);
  EXPECT_TRUE(readable_within(server->reply_fd(), std::chrono::seconds(10))) << "the idle launcher did not exit";
  server.reset();  // reaps it
  EXPECT_TRUE(gone_within(launcher, std::chrono::seconds(5)));
}

TEST(LaunchServer, ALauncherWhoseHarnessDiesEndsTheMethodsTreeAndItself) {
  TempDir dir;
  int pids[2];
  ASSERT_EQ(::pipe(pids), 0);
  const pid_t harness = ::fork();
  if (harness == 0) {
    // A stand-in harness: starts a long method through its launcher, says who they are, waits.
    Log log(dir.path() / "perfzero.log");
    LaunchServer server(PERFZERO_LAUNCH_BINARY);
    server.start(shell("sleep 30 & sleep 30", dir.path()), log.fd);
    pid_t method = -1;
    if (!wait_until([&] { return (method = server.method_pid()) > 0; }, std::chrono::seconds(5))) ::_exit(1);
    const pid_t sent[2] = {server.launcher_pid(), method};
    if (::write(pids[1], sent, sizeof sent) != sizeof sent) ::_exit(1);
    ::pause();
    ::_exit(0);
  }
  ::close(pids[1]);
  pid_t got[2] = {-1, -1};
  ASSERT_EQ(::read(pids[0], got, sizeof got), static_cast<ssize_t>(sizeof got));
  ::close(pids[0]);
  ::kill(harness, SIGKILL);
  ::waitpid(harness, nullptr, 0);
  EXPECT_TRUE(gone_within(got[1], std::chrono::seconds(5))) << "the method outlived its harness";
  EXPECT_TRUE(gone_within(got[0], std::chrono::seconds(5))) << "the launcher outlived its harness";
}

}  // namespace
}  // namespace perfzero::runner::launch_server_test
