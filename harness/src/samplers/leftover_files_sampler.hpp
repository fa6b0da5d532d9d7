#pragma once
// What a trial left on disk outside its reports: files it created in /dev/shm (shared memory that
// outlives every process, counted by no process's RSS) and what remains in its own TMPDIR
// (<trial>/tmp, set by the harness; session/trial_tmpdirs.hpp removes or reuses it after the trial).
// A sampler that looks at start and at finish only.
#include <filesystem>
#include <map>
#include <string>

#include "samplers/sampler.hpp"

namespace perfzero::samplers {

class LeftoverFilesSampler : public Sampler {
 public:
  // Lists shm_dir now, before the launch: a method may create its files before start() runs.
  explicit LeftoverFilesSampler(std::filesystem::path shm_dir = "/dev/shm");
  std::string name() const override { return "leftover_files"; }
  void start(pid_t /*root*/) override {}
  void sample(double /*time*/) override {}
  SamplerOutput finish(const TrialFacts& facts) override;

 private:
  std::filesystem::path shm_dir_;
  std::map<std::string, std::uintmax_t> shm_before_;  // name -> size
};

}  // namespace perfzero::samplers
