// Promises of docs/reliability.md held on the real binaries: --resume ends what a killed run left
// running, a sync the disk refuses stops the run (exit 4), a kept trial's report that cannot be written
// again stops a resumed run, perfzero-launch ends the method's tree when its harness dies and starts
// nothing when its harness is gone before it looked, and the run ends with one syncfs, whose failure
// is exit 4 in one line. The disk's refusals come from an LD_PRELOAD shim (tests/fakes/failing_sync.c).
#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>

#include "../../harness/launcher/launch_protocol.h"
#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

namespace perfzero::testing {
namespace {

namespace fs = std::filesystem;
using std::chrono::seconds;

bool wait_for(const std::function<bool()>& ready, seconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return ready();
}

// A process's state letter from /proc/PID/stat ('S', 'R', 'Z', ...), or '-' when there is none.
char state_of(pid_t pid) {
  const std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(") ");
  return close == std::string::npos || close + 2 >= stat.size() ? '-' : stat[close + 2];
}

bool gone(pid_t pid) {
  const char state = state_of(pid);
  return state == '-' || state == 'Z' || state == 'X';
}

// The children of `parent` whose command name is `comm`.
std::vector<pid_t> children_named(pid_t parent, const std::string& comm) {
  std::vector<pid_t> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = slurp(entry.path() / "stat");
    const auto open = stat.find('(');
    const auto close = stat.rfind(") ");
    if (open == std::string::npos || close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 2));
    char state = 0;
    long ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent && stat.substr(open + 1, close - open - 1) == comm) found.push_back(std::stoi(name));
  }
  return found;
}

std::size_t lines_of(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

std::vector<nlohmann::json> journal_events(const fs::path& run, const std::string& type) {
  std::vector<nlohmann::json> out;
  std::ifstream in(run / "journal.ndjson");
  for (std::string line; std::getline(in, line);) {
    const auto event = nlohmann::json::parse(line, nullptr, false);
    if (event.is_object() && event.value("event", "") == type) out.push_back(event);
  }
  return out;
}

// Whatever a test started under `dir` is SIGKILLed when it ends, passed or failed.
class EndsWhatItStarted {
 public:
  explicit EndsWhatItStarted(fs::path dir) : dir_(std::move(dir)) {}
  ~EndsWhatItStarted() {
    for (const pid_t pid : processes_started_under(dir_)) ::kill(pid, SIGKILL);
  }
  EndsWhatItStarted(const EndsWhatItStarted&) = delete;
  EndsWhatItStarted& operator=(const EndsWhatItStarted&) = delete;

 private:
  fs::path dir_;
};

// A perfzero a test stopped or left running when an assertion failed is killed and reaped.
class ReapsPerfzero {
 public:
  explicit ReapsPerfzero(pid_t pid) : pid_(pid) {}
  ~ReapsPerfzero() {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == 0) {  // still our child, not yet reaped
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
    }
  }
  ReapsPerfzero(const ReapsPerfzero&) = delete;
  ReapsPerfzero& operator=(const ReapsPerfzero&) = delete;

 private:
  pid_t pid_;
};

// Environment variables for the perfzero processes started while it lives (they inherit it).
class ScopedEnv {
 public:
  explicit ScopedEnv(const std::map<std::string, std::string>& vars) {
    for (const auto& [name, value] : vars) {
      ::setenv(name.c_str(), value.c_str(), 1);
      names_.push_back(name);
    }
  }
  ~ScopedEnv() {
    for (const auto& name : names_) ::unsetenv(name.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::vector<std::string> names_;
};

// The shim, with a log of every sync perfzero makes (tests/fakes/failing_sync.c).
std::map<std::string, std::string> failing_sync(const fs::path& log, std::map<std::string, std::string> more = {}) {
  more["LD_PRELOAD"] = PERFZERO_FAILING_SYNC;
  more["ASAN_OPTIONS"] = "verify_asan_link_order=0";  // the shim comes before ASan's runtime
  more["PERFZERO_SYNC_LOG"] = log.string();
  return more;
}

std::vector<std::string> lines_with(const std::string& text, const std::string& part) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find(part) != std::string::npos) out.push_back(line);
  }
  return out;
}

// docs/reliability.md, "No process outlives the harness": --resume SIGKILLs any process whose
// environment has PERFZERO_RUN_DIR= this run's directory. The leftover here is made as a real one is:
// the harness and its launcher both killed, so that nothing ended the method's tree.
TEST(ReliabilityPromises, ResumeEndsWhatAKilledRunLeftRunningBeforeItRunsTheTrialAgain) {
  TempDir dir;
  const EndsWhatItStarted cleanup(dir.path());
  const fs::path out = dir.path() / "run";
  // First time: note its pid and sleep as a leftover would. Run again by --resume: say what the
  // leftover was at that moment ('R' while a SIGKILL already sent is carried out, for at most 2 s).
  const auto suite = dir.write("s.yaml", R"(
methods:
  - name: holder
    output: none
    command:
      - /bin/sh
      - -c
      - |
        pidfile="$PERFZERO_RUN_DIR/leftover.pid"
        if [ -e "$pidfile" ]; then
          pid=$(cat "$pidfile")
          state=gone
          i=0
          while [ -r /proc/$pid/stat ]; do
            state=$(sed 's/.*) \(.\).*/\1/' /proc/$pid/stat)
            if [ "$state" != R ] || [ $i -ge 200 ]; then break; fi
            i=$((i + 1))
            sleep 0.01
          done
          echo "$state" > "$PERFZERO_RUN_DIR/leftover_at_rerun"
          exit 0
        fi
        echo $$ > "$pidfile.tmp" && mv "$pidfile.tmp" "$pidfile"
        exec sleep 600
)");
  RunningPerfzero first({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path() / "first");
  const ReapsPerfzero reaps(first.pid());
  const fs::path pidfile = out / "leftover.pid";
  ASSERT_TRUE(wait_for([&] { return fs::exists(pidfile); }, seconds(60))) << slurp(dir.path() / "first" / "stderr");
  const pid_t leftover = std::stoi(slurp(pidfile));
  ASSERT_TRUE(wait_for([&] { return slurp("/proc/" + std::to_string(leftover) + "/comm") == "sleep\n"; }, seconds(30)));
  ASSERT_TRUE(wait_for([&] { return !children_named(first.pid(), "perfzero-launch").empty(); }, seconds(30)));
  const pid_t launcher = children_named(first.pid(), "perfzero-launch").front();
  first.signal(SIGSTOP);  // it must not see its launcher die and end the tree itself
  ::kill(launcher, SIGKILL);
  ASSERT_TRUE(wait_for([&] { return state_of(launcher) == 'Z'; }, seconds(30)));
  first.signal(SIGKILL);
  first.wait();
  ASSERT_EQ(state_of(leftover), 'S') << "the leftover survived its harness and launcher";
  ASSERT_EQ(processes_started_under(out), std::vector<pid_t>{leftover});

  const auto resumed =
      run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string(), "--resume"}, dir.path() / "second");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(lines_with(resumed.err, "ended 1 process(es) the earlier run left running").size(), 1U) << resumed.err;
  const std::string at_rerun = slurp(out / "leftover_at_rerun");
  EXPECT_TRUE(at_rerun == "gone\n" || at_rerun == "Z\n" || at_rerun == "X\n")
      << "when the trial ran again, the leftover was: " << at_rerun;
  EXPECT_TRUE(gone(leftover));
  EXPECT_TRUE(processes_started_under(out).empty());
  EXPECT_EQ(read_json(out / "run.json")["status"], "completed");
}

// docs/reliability.md, "Nothing finished is lost": the journal line is synced (fdatasync) behind, while
// the next trial runs; a sync that fails stops the run at the next trial with "cannot write FILE to
// disk: REASON" and exit 4, and --resume continues it.
TEST(ReliabilityPromises, AJournalSyncTheDiskRefusesStopsTheRunAtTheNextTrialWithExit4) {
  TempDir dir;
  const EndsWhatItStarted cleanup(dir.path());
  const fs::path out = dir.path() / "run";
  const fs::path log = dir.path() / "syncs.log";
  // Trial 2 ends once the shim has refused trial 1's sync: the run meets the failure at trial 2's end
  // (the shim's log is set for the first run only).
  const auto suite = dir.write("s.yaml", R"(
methods:
  - name: step
    output: none
    trials: 3
    command:
      - /bin/sh
      - -c
      - |
        touch "$PERFZERO_RUN_DIR/ran_$PERFZERO_TRIAL"
        if [ "$PERFZERO_TRIAL" = 2 ] && [ -n "$PERFZERO_SYNC_LOG" ]; then
          i=0
          until grep -q failed "$PERFZERO_SYNC_LOG" 2>/dev/null || [ $i -ge 3000 ]; do
            i=$((i + 1))
            sleep 0.01
          done
        fi
)");
  Finished f;
  {
    const ScopedEnv env(failing_sync(log, {{"PERFZERO_FAIL_SYNC_OF", "/journal.ndjson"}}));
    RunningPerfzero p({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path() / "first");
    f = p.wait();
  }
  const std::string journal = (fs::canonical(out) / "journal.ndjson").string();
  const std::string why = "cannot write " + journal + " to disk: Input/output error";
  EXPECT_EQ(f.exit_code, 4) << f.err;
  EXPECT_EQ(lines_of(f.err), 1U) << f.err;
  EXPECT_NE(f.err.find("perfzero: error: run stopped: " + why), std::string::npos) << f.err;
  EXPECT_GE(lines_with(slurp(log), "fdatasync " + journal + " failed").size(), 1U) << slurp(log);
  EXPECT_TRUE(fs::exists(out / "ran_2"));
  EXPECT_FALSE(fs::exists(out / "ran_3")) << "the run went on past the failed sync";
  EXPECT_EQ(journal_events(out, "trial").size(), 1U) << "trial 2 is not recorded";
  EXPECT_EQ(read_json(out / "run.json")["status"], "aborted: " + why);

  const auto again =
      run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string(), "--resume"}, dir.path() / "second");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(fs::exists(out / "ran_3"));
  EXPECT_EQ(journal_events(out, "trial").size(), 3U);
  EXPECT_EQ(read_json(out / "run.json")["status"], "completed");
  EXPECT_TRUE(processes_started_under(out).empty());
}

// docs/reliability.md, "Nothing finished is lost": --resume writes again a kept trial's report that is
// missing or not whole; one that cannot be written stops the run with exit 4 (results/recorder.cpp,
// Recorder::adopt). Root ignores permissions, so a directory takes the report's place.
TEST(ReliabilityPromises, AKeptTrialsReportThatCannotBeWrittenAgainStopsTheResumedRunWithExit4) {
  TempDir dir;
  const EndsWhatItStarted cleanup(dir.path());
  const fs::path out = dir.path() / "run";
  const std::string method = R"(
methods:
  - name: step
    output: none
    command: [/bin/sh, -c, 'touch "$PERFZERO_RUN_DIR/ran_$PERFZERO_TRIAL"']
)";
  const auto two = dir.write("two.yaml", method + "    trials: 2\n");
  const auto three = dir.write("three.yaml", method + "    trials: 3\n");
  ASSERT_EQ(run_perfzero({"--config=" + two.string(), "--output_dir=" + out.string()}, dir.path() / "first").exit_code,
            0);
  const fs::path report = out / "step" / "trial_1" / "perfzero_summary.json";
  ASSERT_TRUE(fs::exists(report));
  fs::remove(report);
  fs::create_directories(report / "in_the_way");

  const auto f =
      run_perfzero({"--config=" + three.string(), "--output_dir=" + out.string(), "--resume"}, dir.path() / "second");
  EXPECT_EQ(f.exit_code, 4) << f.err;
  EXPECT_EQ(lines_of(f.err), 1U) << f.err;
  EXPECT_NE(f.err.find("perfzero: error: run stopped: cannot rename into " +
                       (fs::canonical(out) / "step" / "trial_1" / "perfzero_summary.json").string()),
            std::string::npos)
      << f.err;
  EXPECT_FALSE(fs::exists(out / "ran_3")) << "the run went on past a report it could not write";
  EXPECT_TRUE(fs::is_directory(report / "in_the_way")) << "what was in the way is left as it is";
  EXPECT_EQ(read_json(out / "run.json")["status"].get<std::string>().rfind("aborted: cannot rename into ", 0), 0U);

  // Once the way is clear, --resume writes the report again and runs the rest.
  fs::remove_all(report);
  const auto again =
      run_perfzero({"--config=" + three.string(), "--output_dir=" + out.string(), "--resume"}, dir.path() / "third");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(read_json(report)["benchmark_result"]["trial_id"], 1);
  EXPECT_TRUE(fs::exists(out / "ran_3"));
  EXPECT_TRUE(processes_started_under(out).empty());
}

// docs/reliability.md, "No process outlives the harness": when the harness dies, even by kill -9, the
// kernel tells perfzero-launch (PR_SET_PDEATHSIG), which ends the method's whole tree: children,
// a grandchild that ignores SIGTERM, one that left the method's session (setsid), and itself.
TEST(ReliabilityPromises, AKillNineOfTheHarnessEndsTheMethodsWholeTreeAndItsLauncher) {
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
  pz_launch_request header{PZ_LAUNCH_MAGIC, static_cast<uint32_t>(payload.size()), 3, 1};
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
TEST(ReliabilityPromises, ALauncherWhoseHarnessIsAlreadyGoneStartsNothingAndExits) {
  TempDir dir;
  const fs::path served = dir.path() / "served";
  const auto alive = launcher_serving_one_request(dir.path(), served, false);
  EXPECT_EQ(alive.exit_status, 0);
  ASSERT_EQ(alive.replies.size(), 2U) << "the request runs when the harness is there";
  EXPECT_EQ(alive.replies[0].kind, static_cast<int32_t>(PZ_LAUNCH_STARTED));
  EXPECT_EQ(alive.replies[1].kind, static_cast<int32_t>(PZ_LAUNCH_DONE));
  EXPECT_EQ(slurp(served), "ran\n");

  const fs::path orphaned = dir.path() / "orphaned";
  const auto orphan = launcher_serving_one_request(dir.path(), orphaned, true);
  EXPECT_EQ(orphan.exit_status, 0);
  EXPECT_TRUE(orphan.replies.empty()) << "it read the request: " << orphan.replies.size() << " replies";
  EXPECT_FALSE(fs::exists(orphaned)) << "a launcher whose harness was gone ran the method";
}

// docs/reliability.md, "Nothing finished is lost": the run's end waits for every queued sync, then
// syncs the output directory's file system once (syncfs); a syncfs that fails is exit 4 in one line.
TEST(ReliabilityPromises, TheRunEndsWithOneSyncfsAfterEveryOtherSyncAndExits4InOneLineWhenItFails) {
  TempDir dir;
  const EndsWhatItStarted cleanup(dir.path());
  const auto suite = dir.write("s.yaml", "methods: [{name: step, command: [/bin/true], output: none, trials: 3}]\n");
  const fs::path out = dir.path() / "run";
  const fs::path log = dir.path() / "syncs.log";
  Finished f;
  {
    const ScopedEnv env(failing_sync(log));
    f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path() / "first");
  }
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const std::string syncs = slurp(log);
  const std::string run_dir = fs::canonical(out).string();
  EXPECT_EQ(lines_with(syncs, "syncfs ").size(), 1U) << syncs;
  EXPECT_EQ(lines_with(syncs, "syncfs " + run_dir + " ok").size(), 1U) << syncs;
  EXPECT_GE(lines_with(syncs, "fdatasync " + run_dir + "/journal.ndjson ok").size(), 1U) << syncs;
  EXPECT_EQ(syncs.rfind("syncfs "), syncs.rfind('\n', syncs.size() - 2) + 1) << "syncfs is the last sync:\n" << syncs;

  const fs::path failing = dir.path() / "failing";
  Finished g;
  {
    const ScopedEnv env(failing_sync(dir.path() / "failing.log", {{"PERFZERO_FAIL_SYNCFS", "1"}}));
    g = run_perfzero({"--config=" + suite.string(), "--output_dir=" + failing.string()}, dir.path() / "second");
  }
  const std::string failing_dir = fs::canonical(failing).string();
  EXPECT_EQ(g.exit_code, 4) << g.err;
  // Every trial ran and is recorded: the run stays completed (nothing for --resume to do), and the one
  // line says what may not be on disk.
  EXPECT_EQ(g.err, "perfzero: error: the run completed, but cannot write the files of " + failing_dir +
                       " to disk: Input/output error; its files may not all be on disk (results in " + failing_dir +
                       ")\n");
  EXPECT_EQ(read_json(failing / "run.json")["status"], "completed");
  EXPECT_EQ(lines_with(slurp(dir.path() / "failing.log"), "syncfs " + failing_dir + " failed").size(), 1U);
  EXPECT_TRUE(processes_started_under(dir.path()).empty());
}

}  // namespace
}  // namespace perfzero::testing
