#include "runner/leftovers.hpp"

#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

namespace perfzero::runner {

int end_leftover_processes(const std::filesystem::path& run_dir) {
  // NUL on both sides: the whole variable, so run "a/run" does not match "a/run2".
  const std::string marker = std::string(1, '\0') + "PERFZERO_RUN_DIR=" + run_dir.string() + std::string(1, '\0');
  int killed = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = static_cast<pid_t>(std::stol(name));
    if (pid == ::getpid()) continue;
    std::ifstream in(entry.path() / "environ", std::ios::binary);
    const std::string env = std::string(1, '\0') + std::string(std::istreambuf_iterator<char>(in), {});
    if (env.find(marker) != std::string::npos && ::kill(pid, SIGKILL) == 0) ++killed;
  }
  return killed;
}

}  // namespace perfzero::runner
