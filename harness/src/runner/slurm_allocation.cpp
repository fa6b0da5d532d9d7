#include "runner/slurm_allocation.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>

#include "child_results/untrusted_file.hpp"
#include "common/errors.hpp"
#include "common/program_output.hpp"
#include "common/text.hpp"
#include "runner/slurm_job_id.hpp"

namespace perfzero::runner {

namespace {

constexpr std::chrono::seconds kScancelLimit{20};

std::string job_id_in(const std::string& text) {
  // salloc: Granted job allocation 12
  const std::string key = "Granted job allocation ";
  const auto at = text.find(key);
  if (at == std::string::npos) return "";
  std::string id;
  for (auto i = at + key.size(); i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) id.push_back(text[i]);
  return id;
}

bool release(const std::filesystem::path& scancel, const std::string& job) {
  return files::run_program({scancel.string(), "--quiet", fmt::format("--user={}", ::getuid()), job}, kScancelLimit)
      .ok();
}

}  // namespace

SlurmAllocation::SlurmAllocation(const std::filesystem::path& salloc, std::filesystem::path scancel,
                                 const AllocationRequest& request)
    : scancel_(std::move(scancel)) {
  std::vector<std::string> argv{salloc.string(), "--no-shell", fmt::format("--nodes={}", request.nodes),
                                "--job-name=" + request.name, fmt::format("--immediate={}", request.wait.count())};
  argv.push_back(fmt::format("--ntasks-per-node={}", request.tasks_per_node));
  if (request.gpus_per_node > 0) argv.push_back(fmt::format("--gpus-per-node={}", request.gpus_per_node));
  if (!request.partition.empty()) argv.push_back("--partition=" + request.partition);
  // In perfzero's process group: a Ctrl-C while it waits in the queue reaches salloc, which then
  // withdraws the request.
  const auto answer = files::run_program(argv, request.wait + std::chrono::seconds(60), std::size_t{1} << 20, false);
  job_ = job_id_in(answer.err + answer.out);
  if (!answer.ok() || job_.empty()) {
    if (!job_.empty()) release(scancel_, job_);
    std::string said = text::trim(answer.err.empty() ? answer.error : answer.err);
    throw ConfigError(fmt::format("--slurm_allocate: salloc --nodes={}{} was not granted{}: {}", request.nodes,
                                  request.partition.empty() ? "" : " --partition=" + request.partition,
                                  answer.timed_out ? " in time" : "", said.empty() ? "no reason given" : said));
  }
  // Every srun of the run (the children inherit the harness's environment) is a step of it.
  ::setenv("SLURM_JOB_ID", job_.c_str(), 1);
  ::setenv("SLURM_JOBID", job_.c_str(), 1);
}

SlurmAllocation::~SlurmAllocation() {
  const bool released = release(scancel_, job_);
  ::unsetenv("SLURM_JOB_ID");
  ::unsetenv("SLURM_JOBID");
  if (!released) {
    std::fprintf(stderr,
                 "perfzero: warning: scancel %s failed: the Slurm allocation may still be held (--resume "
                 "releases it)\n",
                 job_.c_str());
    return;
  }
  if (!record_.empty()) {
    std::error_code ignored;
    std::filesystem::remove(record_, ignored);
  }
}

void SlurmAllocation::record_in(const std::filesystem::path& run_dir) {
  record_ = run_dir / kSlurmAllocationFile;
  std::ofstream(record_, std::ios::trunc) << job_ << "\n";
}

std::string release_leftover_allocation(const std::filesystem::path& run_dir, const std::filesystem::path& scancel) {
  const auto path = run_dir / kSlurmAllocationFile;
  const auto file = child_results::read_untrusted_file(path, 64);
  if (!file.text) return "";
  std::string job = text::trim(*file.text);
  // Only what the harness wrote is acted on: a job id, nothing else.
  if (!is_slurm_job_id(job) || scancel.empty()) return "";
  if (!release(scancel, job)) return "";  // kept for the next --resume
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  return job;
}

}  // namespace perfzero::runner
