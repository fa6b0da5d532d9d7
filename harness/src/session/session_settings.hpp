#pragma once
// What a run session needs from the command that starts it. The commands build it: `perfzero run`
// from its flags (commands/settings_from_flags.cpp), `ab` once per side (ab/ab_session.cpp). The run
// engine never reads the command line.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "samplers/counter_readings.hpp"

namespace perfzero::session {

struct SessionSettings {
  // Who the run is: run.json's identity. An empty execution_id asks for a new one.
  std::string execution_id;
  std::string execution_label;
  std::string platform_name;
  std::string system_name;
  std::string ml_framework_build_label;
  std::string instance_type;  // else what the cloud's DMI files say
  std::string commit;         // what the measured code was made of (docs/history.md)
  std::string branch;
  std::string build_label;
  bool detect_source = true;  // else only the three above
  std::vector<std::string> suite_files;
  std::vector<std::pair<std::string, std::string>> given_flags;  // name -> value, for benchmark_info.flags
  std::string dmi_root = "/sys/class/dmi/id";
  // Where it goes.
  std::string output_dir;     // empty: results/runs/EXECUTION_ID
  std::string root_data_dir;  // {root_data_dir} in methods' parameters
  // --git_repos' checkouts, {dir: {url, branch, hash}}: benchmark_info.site_package_info
  nlohmann::json site_packages = nlohmann::json::object();
  bool resume = false;
  bool force_resume = false;         // resume although the plan changed
  bool resumable = true;             // false: errors never suggest a --resume the command lacks
  std::vector<std::string> reports;  // the outputs to write; empty: every built-in one
  std::string mlflow_tracking_uri;   // --report=+mlflow's server; empty: MLFLOW_TRACKING_URI
  // How its trials are watched.
  std::uint32_t counters = samplers::kAllCounters;
  double cpu_throttle_threshold = 0.90;            // of the CPU's maximum clock
  double cpu_throttle_share = 0.10;                // of a trial's clock samples
  std::optional<double> host_busy_threshold_cpus;  // none: samplers/host_load_sampler.hpp's default
  std::string lock_gpu_clocks;                     // "base", "max" or "" (leave them)
  bool doctor = false;                             // check the machine first, record the verdict
  bool debug = false;                              // every trial's command line on stderr
};

}  // namespace perfzero::session
