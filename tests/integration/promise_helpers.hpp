#pragma once
// Helpers of the reliability promise tests (reliability_promises_test.cpp,
// process_promises_test.cpp): waiting for a state, reading /proc, ending what a test started, and the
// LD_PRELOAD shim that makes a sync fail (tests/fakes/failing_sync.c).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "../unit/scoped_env.hpp"
#include "perfzero_runner.hpp"

// Their own namespace: these names (wait_for among them) exist elsewhere in the same test executable,
// and two definitions of one class there are an ODR violation (ASan caught the wrong destructor).
namespace perfzero::testing::promises {

namespace fs = std::filesystem;
using std::chrono::seconds;

inline bool wait_for(const std::function<bool()>& ready, seconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return ready();
}

// A process's state letter from /proc/PID/stat ('S', 'R', 'Z', ...), or '-' when there is none.
inline char state_of(pid_t pid) {
  const std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(") ");
  return close == std::string::npos || close + 2 >= stat.size() ? '-' : stat[close + 2];
}

inline bool gone(pid_t pid) {
  const char state = state_of(pid);
  return state == '-' || state == 'Z' || state == 'X';
}

// The children of `parent` whose command name is `comm`.
inline std::vector<pid_t> children_named(pid_t parent, const std::string& comm) {
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

inline std::size_t lines_of(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

inline std::vector<nlohmann::json> journal_events(const fs::path& run, const std::string& type) {
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

// The shim, with a log of every sync perfzero makes (tests/fakes/failing_sync.c).
inline std::map<std::string, std::string> failing_sync(const fs::path& log,
                                                       std::map<std::string, std::string> more = {}) {
  more["LD_PRELOAD"] = PERFZERO_FAILING_SYNC;
  more["ASAN_OPTIONS"] = "verify_asan_link_order=0";  // the shim comes before ASan's runtime
  more["PERFZERO_SYNC_LOG"] = log.string();
  return more;
}

}  // namespace perfzero::testing::promises
