#pragma once
// Real tools a test needs (influxd, promtool, curl, Debian's python3): find them, run them. A test
// whose tool cannot run here skips with the reason, except in CI (CI=true), where it fails.
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include <gtest/gtest.h>

namespace perfzero::testing {

inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

// The program's path on $PATH, or nullopt.
inline std::optional<std::filesystem::path> find_program(const std::string& name) {
  const char* env = std::getenv("PATH");
  const std::string path = env ? env : "";
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t colon = std::min(path.find(':', start), path.size());
    const std::filesystem::path candidate = std::filesystem::path(path.substr(start, colon - start)) / name;
    std::error_code ec;
    if (colon > start && std::filesystem::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    start = colon + 1;
  }
  return std::nullopt;
}

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs `command` with /bin/sh; the caller quotes its arguments.
inline CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Single quotes for /bin/sh.
inline std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace perfzero::testing

// Skips the test with `reason`, or fails it in CI, where every tool must be present.
#define PERFZERO_SKIP_UNLESS_CI(reason)                                     \
  do {                                                                      \
    if (::perfzero::testing::in_ci()) FAIL() << "CI=true and " << (reason); \
    GTEST_SKIP() << (reason);                                               \
  } while (0)
