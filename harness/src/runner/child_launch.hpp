#pragma once
// Starts one benchmark child with Boost.Process, through perfzero-launch.
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace perfzero::runner {

struct ChildCommand {
  std::vector<std::string> argv;  // argv[0] is looked up on the child's PATH
  std::filesystem::path working_dir;
  std::vector<std::string> environment;  // NAME=value, the child's whole environment
};

// Starts `launcher rusage_file argv...` in its own process group with stdout and stderr appended
// to `log_path` and every signal unblocked. Throws std::runtime_error when it cannot start.
pid_t launch_child(const std::filesystem::path& launcher, const ChildCommand& command,
                   const std::filesystem::path& rusage_file, const std::filesystem::path& log_path);

}  // namespace perfzero::runner
