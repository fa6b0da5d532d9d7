#include "runner/slurm_executor.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "child_results/untrusted_file.hpp"
#include "common/fd_guard.hpp"
#include "common/program_output.hpp"
#include "common/program_path.hpp"
#include "common/text.hpp"
#include "runner/mpirun_executor.hpp"  // kRankStopGrace
#include "runner/slurm_job_id.hpp"

namespace perfzero::runner {

namespace {

using Clock = std::chrono::steady_clock;

// How long a cancelled step gets to be gone from every host, in Slurm's view. KillWait (30 s by
// default) plus the time a lost node takes to be declared down bound it on a sane cluster.
constexpr std::chrono::milliseconds kCancelWait{60000};
constexpr std::chrono::milliseconds kSlurmCommandLimit{20000};
// What of the log is read for srun's verdict: its lines come last, after the method's output.
constexpr off_t kVerdictTailBytes = off_t{256} << 10;
constexpr std::string_view kNodeFailure = "srun: error: Node failure on ";

bool is_step_name(std::string_view name) {
  return name.starts_with("perfzero-") && name.size() <= 200 && std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
                  c == '_';
         });
}

std::string this_host() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "host";
  std::string out;
  for (const char c : std::string_view(name)) out.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '-');
  return out.empty() ? "host" : out;
}

// The lines of `text` that start with `prefix`, without it.
std::vector<std::string> lines_after(std::string_view text, std::string_view prefix) {
  std::vector<std::string> out;
  for (std::size_t at = text.find(prefix); at != std::string_view::npos; at = text.find(prefix, at + 1)) {
    if (at != 0 && text[at - 1] != '\n') continue;
    const auto start = at + prefix.size();
    const auto end = text.find('\n', start);
    std::string line(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty() && std::find(out.begin(), out.end(), line) == out.end()) out.push_back(line);
  }
  return out;
}

// The log's bytes from `from` on, or only its last `max` bytes when more than that were written
// since: srun's own lines come last. Opened without following a symlink and read only when it is a
// regular file (the method can replace it); `start` says where the text begins.
std::optional<std::string> read_log_from(const std::filesystem::path& log, off_t from, off_t max, off_t& size,
                                         off_t& start) {
  const FdGuard fd{::open(log.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)};
  struct stat st {};
  if (fd.fd < 0 || ::fstat(fd.fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  size = st.st_size;
  // A log cut since (shorter than `from`) is read again from its start.
  start = std::max(from <= size ? from : 0, size - max);
  if (start >= size) return std::string();
  std::string text(static_cast<std::size_t>(size - start), '\0');
  const ssize_t n = ::pread(fd.fd, text.data(), text.size(), start);
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return text;
}

// Watches the trial's log while srun runs, for Slurm's word that a node of the step was lost: srun
// then waits for that node's tasks for ever (measured with Slurm 22.05).
class NodeFailureWatch {
 public:
  explicit NodeFailureWatch(std::filesystem::path log) : log_(std::move(log)) {}

  std::string poll() {
    const auto now = Clock::now();
    if (now < next_) return "";
    next_ = now + std::chrono::milliseconds(500);
    off_t size = 0;
    off_t start = 0;
    const auto chunk = read_log_from(log_, offset_, kWatchBytes, size, start);
    if (!chunk) return "";
    if (start != offset_) pending_.clear();  // what lay between is not joined to what follows it
    offset_ = size;
    pending_ += *chunk;
    const auto last_newline = pending_.rfind('\n');
    if (last_newline == std::string::npos) {
      if (pending_.size() > 4096) pending_.clear();
      return "";
    }
    const auto lost = lines_after(std::string_view(pending_).substr(0, last_newline + 1), kNodeFailure);
    pending_.erase(0, last_newline + 1);
    if (lost.empty()) return "";
    return fmt::format("Slurm lost node {} (srun: Node failure on {}); the step was stopped", text::join(lost, ", "),
                       text::join(lost, ", "));
  }

 private:
  static constexpr off_t kWatchBytes = off_t{1} << 20;
  std::filesystem::path log_;
  off_t offset_ = 0;
  std::string pending_;
  Clock::time_point next_{};
};

std::string log_tail(const std::filesystem::path& log) {
  off_t size = 0;
  off_t start = 0;
  return read_log_from(log, 0, kVerdictTailBytes, size, start).value_or("");
}

void write_step_file(const std::filesystem::path& trial_dir, const SlurmStep& step) {
  std::ofstream out(trial_dir / kSlurmStepFile, std::ios::trunc);
  out << "job=" << step.job << "\nname=" << step.name << "\n";
}

std::optional<SlurmStep> read_step_file(const std::filesystem::path& path) {
  const auto file = child_results::read_untrusted_file(path, 4096);
  if (!file.text) return std::nullopt;
  SlurmStep step;
  for (const auto& line : text::split(*file.text, '\n')) {
    if (line.starts_with("job=")) step.job = line.substr(4);
    if (line.starts_with("name=")) step.name = line.substr(5);
  }
  // A method can write into its trial directory: only what the executor itself writes is acted on.
  if (!is_step_name(step.name) || (!step.job.empty() && !is_slurm_job_id(step.job))) return std::nullopt;
  return step;
}

// What Slurm still knows of the step: its ids ("12" for a job of its own, "12.3" for a step), or
// nullopt when squeue could not be asked.
std::optional<std::vector<std::string>> known_ids(const SlurmTools& tools, const SlurmStep& step) {
  // Only this user's jobs: a record a method planted cannot reach anyone else's.
  std::vector<std::string> argv{tools.squeue.string(), "--noheader", fmt::format("--user={}", ::getuid())};
  if (step.job.empty()) {
    argv.insert(argv.end(), {"--name=" + step.name, "--format=%i"});
  } else {
    argv.insert(argv.end(), {"--steps", "--jobs=" + step.job, "--format=%i %j"});
  }
  const auto answer = files::run_program(argv, kSlurmCommandLimit);
  if (!answer.ok()) {
    // The allocation itself is gone: so is every step of it.
    if (!step.job.empty() && answer.started && answer.err.find("Invalid job id") != std::string::npos) {
      return std::vector<std::string>{};
    }
    return std::nullopt;
  }
  std::vector<std::string> ids;
  for (const auto& line : text::split(answer.out, '\n')) {
    const auto fields = text::split(text::trim(line), ' ');
    if (fields.empty() || fields[0].empty()) continue;
    if (!step.job.empty() && (fields.size() < 2 || fields[1] != step.name)) continue;
    ids.push_back(fields[0]);
  }
  return ids;
}

struct Cancelled {
  bool found = false;
  std::string problem;
};

Cancelled cancel(const SlurmTools& tools, const SlurmStep& step, std::chrono::milliseconds wait) {
  Cancelled out;
  auto ids = known_ids(tools, step);
  if (!ids) return {false, "squeue could not be asked whether it still runs"};
  if (ids->empty()) return out;
  out.found = true;
  std::vector<std::string> argv{tools.scancel.string(), "--quiet", fmt::format("--user={}", ::getuid())};
  argv.insert(argv.end(), ids->begin(), ids->end());
  const auto answer = files::run_program(argv, kSlurmCommandLimit);
  if (!answer.ok()) {
    out.problem = fmt::format("scancel {} failed: {}", text::join(*ids, " "),
                              text::trim(answer.err.empty() ? answer.error : answer.err));
  }
  // Gone from squeue: slurmstepd has ended the step's processes on every host (or the host is down).
  const auto give_up = Clock::now() + wait;
  while (Clock::now() < give_up) {
    ids = known_ids(tools, step);
    if (ids && ids->empty()) {
      out.problem.clear();  // scancel's complaint, if any, was about a step that ended meanwhile
      return out;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(wait).count();
  out.problem = ids ? fmt::format("Slurm still lists {} {} s after scancel", text::join(*ids, " "), seconds)
                    : fmt::format("squeue could not be asked whether it ended ({} s after scancel)", seconds);
  return out;
}

}  // namespace

SlurmTools find_slurm_tools(const std::string& path_env) {
  return {files::find_program("srun", path_env), files::find_program("scancel", path_env),
          files::find_program("squeue", path_env)};
}

SlurmExecutor::SlurmExecutor(LocalExecutor& local, SlurmTools tools, std::filesystem::path rank_agent)
    : local_(local), tools_(std::move(tools)), rank_agent_(std::move(rank_agent)) {}

std::vector<std::string> srun_prefix(const std::filesystem::path& srun, const config::LaunchSpec& spec,
                                     const std::string& step_name, const std::filesystem::path& rank_agent) {
  std::vector<std::string> argv{srun.string(), "--job-name=" + step_name, fmt::format("--nodes={}", spec.nodes),
                                fmt::format("--ntasks-per-node={}", spec.tasks_per_node),
                                fmt::format("--ntasks={}", spec.world_size()),
                                // One rank that fails ends the step: the others would wait in a
                                // collective for ever.
                                "--kill-on-bad-exit=1"};
  if (!spec.hosts.empty()) argv.push_back("--nodelist=" + text::join(spec.hosts, ","));
  if (!spec.partition.empty()) argv.push_back("--partition=" + spec.partition);
  if (spec.gpus_per_task > 0) argv.push_back(fmt::format("--gpus-per-task={}", spec.gpus_per_task));
  // OpenMPI's ranks find each other through PMIx; a site's default may be none.
  const bool mpi_given = std::any_of(spec.extra_args.begin(), spec.extra_args.end(),
                                     [](const std::string& a) { return a.starts_with("--mpi"); });
  if (!mpi_given) argv.push_back("--mpi=pmix");
  argv.insert(argv.end(), spec.extra_args.begin(), spec.extra_args.end());
  argv.push_back(rank_agent.string());
  return argv;
}

std::optional<EngineVerdict> read_srun_verdict(std::string_view log) {
  const auto lost = lines_after(log, kNodeFailure);
  if (!lost.empty()) {
    return EngineVerdict{Outcome::failed, fmt::format("Slurm lost node {} (srun: Node failure on {})",
                                                      text::join(lost, ", "), text::join(lost, ", "))};
  }
  // Refused before any task started: too many nodes, no such partition, more than the allocation has.
  for (const std::string_view prefix :
       {"srun: error: Unable to allocate resources: ", "srun: error: Unable to create step for job ",
        "srun: error: Job submit/allocate failed: "}) {
    const auto said = lines_after(log, prefix);
    if (!said.empty()) return EngineVerdict{Outcome::skipped, "Slurm refused the step: " + said.front(), true};
  }
  // srun could not work at all (no configuration, no controller): its last words, not "exited with 1".
  if (const auto fatal = lines_after(log, "srun: fatal: "); !fatal.empty()) {
    return EngineVerdict{Outcome::failed, "srun could not start the step: " + fatal.back(), true};
  }
  return std::nullopt;
}

int cancel_leftover_steps(const std::filesystem::path& run_dir, const SlurmTools& tools) {
  int found = 0;
  std::error_code ec;
  // <run>/<case>/trial_N/slurm_step; nothing is followed through a symlink.
  for (const auto& case_dir : std::filesystem::directory_iterator(run_dir, ec)) {
    if (!case_dir.is_directory(ec) || case_dir.is_symlink(ec)) continue;
    for (const auto& trial_dir : std::filesystem::directory_iterator(case_dir.path(), ec)) {
      if (!trial_dir.is_directory(ec) || trial_dir.is_symlink(ec)) continue;
      const auto path = trial_dir.path() / kSlurmStepFile;
      if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) continue;
      if (!tools.complete()) {
        std::fprintf(stderr,
                     "perfzero: warning: --resume: %s names a Slurm step, but srun, squeue or scancel is not on "
                     "the PATH: it is not cancelled\n",
                     path.c_str());
        continue;
      }
      if (const auto step = read_step_file(path)) {
        const auto result = cancel(tools, *step, kCancelWait);
        found += result.found ? 1 : 0;
        if (result.problem.empty()) std::filesystem::remove(path, ec);
      }
    }
  }
  return found;
}

TrialExecution SlurmExecutor::run(const TrialRequest& request) {
  SlurmStep step;
  if (const char* job = std::getenv("SLURM_JOB_ID"); job != nullptr && is_slurm_job_id(job)) step.job = job;
  step.name = fmt::format("perfzero-{}-{}-{}", this_host(), ::getpid(), ++steps_started_);
  write_step_file(request.trial_dir, step);

  TrialRequest wrapped = request;
  auto& argv = wrapped.command.argv;
  const auto prefix = srun_prefix(tools_.srun, request.launch, step.name, rank_agent_);
  argv.insert(argv.begin(), prefix.begin(), prefix.end());
  if (wrapped.stop_grace.count() == 0) wrapped.stop_grace = kRankStopGrace;
  NodeFailureWatch watch(request.log_path);
  wrapped.engine_watch = [&watch] { return watch.poll(); };

  TrialExecution execution = local_.run(wrapped);
  execution.engine = std::string(name());
  execution.ranks_outside_tree = true;  // slurmstepd started them, on every host
  execution.world_size = request.launch.world_size();
  execution.engine_verdict = read_srun_verdict(log_tail(request.log_path));
  // srun saw the step to its end only when it exited by itself; otherwise its tasks may still run.
  if (execution.end != ProcessEnd::exited) {
    const Cancelled cancelled = cancel(tools_, step, kCancelWait);
    if (!cancelled.problem.empty()) {
      execution.engine_note = fmt::format("its Slurm step {} may still run: {}", step.name, cancelled.problem);
      return execution;  // the step file stays, for --resume to try again
    }
  }
  std::error_code ignored;
  std::filesystem::remove(request.trial_dir / kSlurmStepFile, ignored);
  return execution;
}

}  // namespace perfzero::runner
