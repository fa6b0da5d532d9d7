#include "config/engine_checks.hpp"

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <system_error>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/program_output.hpp"
#include "common/program_path.hpp"
#include "common/text.hpp"

namespace perfzero::config {

namespace {

// The partitions Slurm has (sinfo) and their node counts; the default one is also under "". Empty
// when sinfo cannot answer (no controller reachable from here): the run then learns it from srun.
std::map<std::string, int> slurm_partitions(const std::string& path_env) {
  std::map<std::string, int> out;
  const auto sinfo = files::find_program("sinfo", path_env);
  if (sinfo.empty()) return out;
  const auto answer =
      files::run_program({sinfo.string(), "--noheader", "--summarize", "--format=%P %D"}, std::chrono::seconds(20));
  if (!answer.ok()) return out;
  for (const auto& line : text::split(answer.out, '\n')) {
    const auto fields = text::split(text::trim(line), ' ');
    if (fields.size() != 2 || fields[0].empty()) continue;
    std::string name = fields[0];
    int nodes = 0;
    std::from_chars(fields[1].data(), fields[1].data() + fields[1].size(), nodes);
    if (name.back() == '*') {
      name.pop_back();
      out[""] = nodes;
    }
    out[name] = nodes;
  }
  return out;
}

// What Slurm can refuse before the run is said now: no such partition, more nodes than it has, more
// than the allocation perfzero runs in.
void check_slurm_case(const PlannedCase& c, const std::map<std::string, int>& partitions) {
  const auto& l = c.launch;
  if (const char* in = std::getenv("SLURM_JOB_NUM_NODES")) {
    int allocated = 0;
    std::from_chars(in, in + std::strlen(in), allocated);
    if (allocated > 0 && l.nodes > allocated) {
      throw ConfigError(fmt::format("{}: launch: nodes: {}, but the Slurm allocation perfzero runs in has {}", c.origin,
                                    l.nodes, allocated));
    }
  }
  if (partitions.empty()) return;
  const auto it = partitions.find(l.partition);
  if (it == partitions.end()) {
    std::vector<std::string> names;
    for (const auto& [name, nodes] : partitions) {
      if (!name.empty()) names.push_back(name);
    }
    throw ConfigError(fmt::format("{}: launch: {}; Slurm's partitions are {}", c.origin,
                                  l.partition.empty() ? std::string("Slurm has no default partition")
                                                      : "Slurm has no partition '" + l.partition + "'",
                                  text::join(names, ", ")));
  }
  if (l.nodes > it->second) {
    throw ConfigError(fmt::format("{}: launch: nodes: {}, but Slurm's partition {} has {} node{}", c.origin, l.nodes,
                                  l.partition.empty() ? "(the default)" : l.partition, it->second,
                                  it->second == 1 ? "" : "s"));
  }
}

}  // namespace

// A case launched by mpirun needs mpirun here ($PERFZERO_MPIRUN, else on the PATH) and its hostfile;
// one Slurm launches needs srun, scancel and squeue, and what Slurm has: said before the first
// trial, not as a failed trial per case.
void check_engines(const std::vector<PlannedCase>& cases, const std::string& path_env) {
  bool checked_mpirun = false;
  std::optional<std::map<std::string, int>> partitions;
  for (const auto& c : cases) {
    if (c.launch.engine == LaunchEngine::slurm) {
      if (!partitions) {
        for (const char* tool : {"srun", "scancel", "squeue"}) {
          if (files::find_program(tool, path_env).empty()) {
            throw ConfigError(
                fmt::format("{}: launch: engine slurm, but {} is not on the PATH (Slurm's client "
                            "commands: Debian's slurm-client)",
                            c.origin, tool));
          }
        }
        partitions = slurm_partitions(path_env);
      }
      check_slurm_case(c, *partitions);
      continue;
    }
    if (c.launch.engine != LaunchEngine::mpirun) continue;
    if (!checked_mpirun) {
      // The lookup the run makes (app/child_command.cpp's find_harness_paths).
      const char* given = std::getenv("PERFZERO_MPIRUN");
      if (files::find_program(given != nullptr ? given : "mpirun", path_env).empty()) {
        throw ConfigError(
            fmt::format("{}: launch: engine mpirun, but {} (OpenMPI's mpirun: Debian's openmpi-bin)", c.origin,
                        given != nullptr ? fmt::format("$PERFZERO_MPIRUN ({}) is not an executable file", given)
                                         : "mpirun is not on the PATH"));
      }
      checked_mpirun = true;
    }
    std::error_code ec;  // the error_code form: a name the kernel refuses is a message, not an exception
    if (!c.launch.hostfile.empty() && !std::filesystem::is_regular_file(c.launch.hostfile, ec)) {
      const bool missing = !ec || ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory;
      throw ConfigError(fmt::format("{}: launch: hostfile '{}' {}", c.origin, c.launch.hostfile,
                                    missing ? "is not a file" : "cannot be read (" + ec.message() + ")"));
    }
  }
}

}  // namespace perfzero::config
