#pragma once
// Runs a short helper program (Slurm's squeue and scancel, say) to its end and keeps what it printed:
// no shell, a time limit, bounded output, and a clean signal mask (the harness blocks its stop
// signals, which a child would otherwise inherit).
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace perfzero::files {

struct ProgramOutput {
  bool started = false;    // false: it could not be run at all (error says why)
  bool timed_out = false;  // killed at the time limit
  int exit_code = -1;      // when it exited; -1 when killed by a signal or not started
  std::string out;         // its standard output, cut at max_bytes
  std::string err;         // its standard error, cut at max_bytes
  std::string error;       // why it could not be started
  bool ok() const { return started && !timed_out && exit_code == 0; }
};

// own_group: the program gets a process group of its own, all of which is killed at the limit. false
// keeps it in the harness's, so a terminal's Ctrl-C reaches it (salloc withdraws its request then).
ProgramOutput run_program(const std::vector<std::string>& argv, std::chrono::milliseconds limit,
                          std::size_t max_bytes = std::size_t{1} << 20, bool own_group = true);

// The same with `environment` ("NAME=value" each) as the program's whole environment.
ProgramOutput run_program_with_environment(const std::vector<std::string>& argv,
                                           const std::vector<std::string>& environment, std::chrono::milliseconds limit,
                                           std::size_t max_bytes = std::size_t{1} << 20);

}  // namespace perfzero::files
