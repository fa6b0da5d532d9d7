#pragma once
// The three-host Slurm cluster the cluster tests run on (scripts/slurm-test-cluster.sh: each host its
// own network namespace, hostname and slurmd, slurmctld on the first; perfzero runs here, the submit
// host), brought up for each test and taken down after it, and what the tests read of it: every
// host's process table, the ranks' start, the reports. Needs root and Debian's slurm-wlm and munge.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "perfzero_runner.hpp"

namespace perfzero::testing {

using namespace std::chrono_literals;

inline const std::filesystem::path kCluster = kSourceDir / "scripts" / "slurm-test-cluster.sh";
inline const std::vector<std::string> kHosts{"pz-node1", "pz-node2", "pz-node3"};

struct Shell {
  int status = -1;
  std::string out;
};

inline Shell shell(const std::string& command) {
  Shell result;
  std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) result.out.append(buffer, n);
  result.status = ::pclose(pipe);
  return result;
}

inline std::vector<std::string> text_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

inline Shell cluster(const std::string& args) { return shell(fmt::format("{} {}", kCluster.string(), args)); }

// The processes on `host` other than Slurm's own: what a step left there. slurmstepd, Slurm's keeper
// of a step, outlives the step's processes by a moment after squeue stops listing it.
inline std::vector<std::string> step_processes_on(const std::string& host) {
  std::vector<std::string> found;
  for (const auto& pid : text_lines(cluster("pids " + host).out)) {
    std::string comm = slurp("/proc/" + pid + "/comm");
    while (!comm.empty() && comm.back() == '\n') comm.pop_back();
    if (comm.empty() || comm == "slurmd" || comm == "slurmctld" || comm == "slurmscriptd" || comm == "slurmstepd") {
      continue;
    }
    found.push_back(pid + " " + comm);
  }
  return found;
}

// Every host's leftovers, waiting up to `limit` for them to go (slurmstepd ends a cancelled step's
// processes within KillWait).
inline std::string leftovers_after(std::chrono::seconds limit) {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  std::string left;
  do {
    left.clear();
    for (const auto& host : kHosts) {
      for (const auto& p : step_processes_on(host)) left += host + ": " + p + "\n";
    }
    if (left.empty()) return left;
    std::this_thread::sleep_for(250ms);
  } while (std::chrono::steady_clock::now() < give_up);
  return left;
}

// Waits until `count` files named started-* exist under `dir` (each rank makes one when it runs).
inline bool ranks_started(const std::filesystem::path& dir, int count, std::chrono::seconds limit) {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < give_up) {
    int n = 0;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (it->path().filename().string().starts_with("started-")) ++n;
    }
    if (n >= count) return true;
    std::this_thread::sleep_for(100ms);
  }
  return false;
}

inline nlohmann::json report(const std::filesystem::path& out, const std::string& case_dir) {
  return read_json(out / case_dir / "trial_1" / "perfzero_summary.json");
}

inline std::string detail_of(const nlohmann::json& rep) {
  return rep["perfzero_cpp"]["outcome_detail"].get<std::string>();
}

class SlurmCluster : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root: network namespaces, a bridge and slurmd";
    if (shell("command -v slurmctld && command -v slurmd && command -v munged && command -v srun").status != 0) {
      GTEST_SKIP() << "Slurm or munge is not installed (Debian's slurm-wlm and munge; scripts/install-deps.sh)";
    }
    cluster_up_ = true;  // down runs whatever up did
    const Shell up = cluster("up");
    ASSERT_EQ(up.status, 0) << up.out;
    // What a user would paste: the export lines up prints.
    for (const auto& line : text_lines(up.out)) {
      const auto eq = line.find('=');
      if (line.starts_with("export ") && eq != std::string::npos) {
        ::setenv(line.substr(7, eq - 7).c_str(), line.substr(eq + 1).c_str(), 1);
      }
    }
    ASSERT_NE(std::getenv("SLURM_CONF"), nullptr) << up.out;
  }
  void TearDown() override {
    if (cluster_up_) cluster("down");
  }

 private:
  bool cluster_up_ = false;
};

}  // namespace perfzero::testing
