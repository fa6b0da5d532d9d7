#pragma once
// One line per finished (method, trial) on stdout; on a terminal also a live line while it runs.
#include <chrono>
#include <cstdio>
#include <string>

#include "common/outcome.hpp"

namespace perfzero::progress {

class Progress {
 public:
  Progress(std::FILE* out, bool live, int total_runs);

  void running(const std::string& name, const std::string& what, double elapsed_seconds);
  void finished(const std::string& name, const std::string& what, Outcome outcome, const std::string& detail,
                double wall_seconds);
  void resumed(const std::string& name, const std::string& what, Outcome outcome);
  void note(const std::string& line);

 private:
  std::string counter() const;
  std::string eta() const;
  void clear_live_line();

  std::FILE* out_;
  bool live_;
  int total_;
  int done_ = 0;
  int executed_ = 0;  // runs actually executed (resumed ones are excluded from the ETA rate)
  bool live_line_shown_ = false;
  std::chrono::steady_clock::time_point first_start_ = std::chrono::steady_clock::now();
};

}  // namespace perfzero::progress
