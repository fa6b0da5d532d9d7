#pragma once
// --slurm_allocate: one Slurm allocation for the whole run, asked for with `salloc --no-shell` before
// the first trial and released with `scancel` when the run ends; every `engine: slurm` trial is then
// a step inside it ($SLURM_JOB_ID is set for the run). Its job id is kept in the run directory
// (kSlurmAllocationFile) until it is released, so that --resume after a killed run releases it.
#include <chrono>
#include <filesystem>
#include <string>

namespace perfzero::runner {

inline constexpr const char* kSlurmAllocationFile = "slurm_allocation";

struct AllocationRequest {
  int nodes = 1;
  int tasks_per_node = 1;  // the most any step asks for: a step cannot have more than its allocation
  int gpus_per_node = 0;
  std::string partition;           // "": the default
  std::string name;                // --job-name
  std::chrono::seconds wait{600};  // in the queue, before salloc gives up (--immediate)
};

class SlurmAllocation {
 public:
  // Throws ConfigError with Slurm's own words when the allocation is refused or not granted in time.
  SlurmAllocation(const std::filesystem::path& salloc, std::filesystem::path scancel, const AllocationRequest& request);
  SlurmAllocation(const SlurmAllocation&) = delete;
  SlurmAllocation& operator=(const SlurmAllocation&) = delete;
  ~SlurmAllocation();  // releases it (scancel); the record goes only when scancel succeeded

  const std::string& job() const { return job_; }
  // Keeps the job id in `run_dir` until the allocation is released.
  void record_in(const std::filesystem::path& run_dir);

 private:
  std::filesystem::path scancel_;
  std::string job_;
  std::filesystem::path record_;
};

// --resume: releases the allocation an earlier run of `run_dir` left; returns its job id, or "".
std::string release_leftover_allocation(const std::filesystem::path& run_dir, const std::filesystem::path& scancel);

}  // namespace perfzero::runner
