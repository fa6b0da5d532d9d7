#pragma once
// Runs the real perfzero binary as a user would, capturing its output and exit status.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dirent.h>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace perfzero::testing {

// Whether this build (and so the perfzero under test) runs under AddressSanitizer, whose shadow
// memory and quarantine raise every process's memory: upper bounds on memory are for normal builds.
// GCC defines __SANITIZE_ADDRESS__ under -fsanitize=address; Clang says so through __has_feature.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitizedBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif
#else
inline constexpr bool kSanitizedBuild = false;
#endif

inline const std::filesystem::path kBinDir = PERFZERO_BIN_DIR;
inline const std::filesystem::path kSourceDir = PERFZERO_SOURCE_DIR;

struct Finished {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline nlohmann::json read_json(const std::filesystem::path& path) { return nlohmann::json::parse(slurp(path)); }

// How often `part` occurs in `text` (overlapping occurrences counted), for checks on pages and output.
inline std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// The lines of TEXT that hold PART.
inline std::vector<std::string> lines_with(const std::string& text, const std::string& part) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find(part) != std::string::npos) out.push_back(line);
  }
  return out;
}

class RunningPerfzero {
 public:
  // `binary`: another copy of perfzero, e.g. one installed without some worker.
  RunningPerfzero(const std::vector<std::string>& args, const std::filesystem::path& scratch,
                  const std::filesystem::path& binary = kBinDir / "harness" / "perfzero")
      : scratch_(scratch) {
    std::filesystem::create_directories(scratch);
    pid_ = ::fork();
    if (pid_ == 0) {
      const int out = ::open((scratch / "stdout").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = ::open((scratch / "stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(out, 1);
      ::dup2(err, 2);
      if (::chdir(scratch.c_str()) != 0) ::_exit(126);
      std::vector<std::string> argv{binary.string()};
      argv.insert(argv.end(), args.begin(), args.end());
      std::vector<char*> raw;
      for (auto& a : argv) raw.push_back(a.data());
      raw.push_back(nullptr);
      ::execv(raw[0], raw.data());
      ::_exit(127);
    }
  }
  pid_t pid() const { return pid_; }
  void signal(int sig) const { ::kill(pid_, sig); }

  Finished wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    return finished(status);
  }

  // For input that once made perfzero loop or take all memory: a regression must fail the test,
  // not take the machine down. Kills it past `limit` or `max_rss_kib` (VmRSS) and says so in err.
  Finished wait_bounded(std::chrono::seconds limit, long max_rss_kib) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    int status = 0;
    while (true) {
      const pid_t r = ::waitpid(pid_, &status, WNOHANG);
      if (r == pid_ || (r < 0 && errno != EINTR)) return finished(status);
      const long rss = rss_kib();
      if (std::chrono::steady_clock::now() > deadline || rss > max_rss_kib) {
        ::kill(pid_, SIGKILL);
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        Finished f = finished(status);
        // Only when the kill ended it: a child that exited just before keeps its own status.
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
          f.err += "[killed by the test: over " + std::to_string(limit.count()) + " s or " +
                   std::to_string(max_rss_kib) + " KiB, at " + std::to_string(rss) + " KiB]";
        }
        return f;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

 private:
  long rss_kib() const {
    std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    }
    return 0;
  }

  Finished finished(int status) const {
    Finished f;
    f.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    f.out = slurp(scratch_ / "stdout");
    f.err = slurp(scratch_ / "stderr");
    return f;
  }

  std::filesystem::path scratch_;
  pid_t pid_ = -1;
};

inline Finished run_perfzero(const std::vector<std::string>& args, const std::filesystem::path& scratch,
                             const std::filesystem::path& binary = kBinDir / "harness" / "perfzero") {
  RunningPerfzero p(args, scratch, binary);
  return p.wait();
}

// A trial report's hosts with their ranks only (each host also carries its system_info and load).
inline nlohmann::json host_ranks(const nlohmann::json& hosts) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& h : hosts) out.push_back({{"hostname", h["hostname"]}, {"ranks", h["ranks"]}});
  return out;
}

// Clears the flags of every trial in a run's journal. For tests whose figures are synthetic (a
// command printing a fixed rate): a busy test machine flags their trials host_busy, which is true of
// the machine and beside the point of the test, and would leave them out of the figures.
inline void clear_trial_flags(const std::filesystem::path& run) {
  std::ifstream in(run / "journal.ndjson");
  std::string out;
  for (std::string line; std::getline(in, line);) {
    auto event = nlohmann::json::parse(line, nullptr, false);
    if (event.is_object() && event.value("event", "") == "trial") event["trial"]["flags"] = nlohmann::json::array();
    out += (event.is_discarded() ? line : event.dump()) + "\n";
  }
  in.close();
  std::ofstream(run / "journal.ndjson", std::ios::trunc) << out;
}

// Processes whose environment says they belong to a trial under `dir` (every child gets
// PERFZERO_TRIAL_DIR), so a test can prove that none outlived its run.
inline std::vector<pid_t> processes_started_under(const std::filesystem::path& dir) {
  std::vector<pid_t> found;
  const std::string marker = "PERFZERO_TRIAL_DIR=" + dir.string();
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "environ", std::ios::binary);
    std::string env((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (env.find(marker) != std::string::npos) found.push_back(std::stoi(name));
  }
  return found;
}

}  // namespace perfzero::testing
