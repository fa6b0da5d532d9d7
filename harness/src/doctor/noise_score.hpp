#pragma once
// The noise score, as `bencher noise` measures one: the same fixed compute, memory and file kernels
// run `rounds` times; the coefficient of variation of each is how much this machine varies a
// measurement that does not change. Below 1 % is quiet, above 5 % is noisy (docs/doctor.md).
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "doctor/machine_checks.hpp"

namespace perfzero::doctor {

struct KernelNoise {
  std::string kernel;  // "compute", "memory", "file"
  int rounds = 0;
  double median_seconds = 0;
  double cv = 0;  // standard deviation / mean
};

// Runs each kernel until `budget` is spent (at least 5 rounds each); the file kernel writes and
// reads back 4 MiB in `scratch`, fsynced.
std::vector<KernelNoise> measure_noise(std::chrono::milliseconds budget, const std::filesystem::path& scratch);
Check noise_check(const std::vector<KernelNoise>& noise);

}  // namespace perfzero::doctor
