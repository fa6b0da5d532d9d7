#pragma once
// Keeps queue_depth I/Os in flight on one file with Linux native AIO (libaio), as fio's libaio
// engine does: a thread submits, reaps each completion, records its latency from submission, and
// submits the next. libaio rather than io_uring: Docker's default seccomp profile refuses io_uring,
// and the images must measure too.
#include <cstdint>
#include <string>

#include "common/latency_histogram.hpp"

namespace perfzero::storage {

struct IoPattern {
  bool write = false;
  bool random = true;
  std::uint64_t block_size = 4096;
  std::uint64_t file_size = 0;
  int queue_depth = 32;
  double ramp_seconds = 0.5;  // run, not counted, before the measured window
  double runtime_seconds = 5;
  std::uint64_t seed = 1;
};

struct IoResult {
  std::uint64_t ios = 0;  // completed in the measured window
  std::uint64_t bytes = 0;
  double seconds = 0;  // the measured window
  std::string error;   // an I/O failed or the queue could not be set up
};

// `latency` holds the measured window's completions afterwards.
IoResult run_io(int fd, const IoPattern& pattern, bench::LatencyHistogram& latency);

}  // namespace perfzero::storage
