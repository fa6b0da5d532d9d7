#pragma once
// What every report of one run shares.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/run_plan.hpp"
#include "sysinfo/system_info.hpp"

namespace perfzero::report {

struct RunContext {
  std::string execution_id;
  double execution_timestamp = 0;  // epoch seconds when the run started
  std::string execution_label;
  std::string platform_name;
  std::string system_name;
  std::string instance_type;  // --instance_type, else what DMI says
  std::string ml_framework_build_label;
  std::filesystem::path output_dir;
  std::vector<std::string> suite_files;
  nlohmann::json env_vars;                               // redacted
  nlohmann::json flags;                                  // redacted
  nlohmann::json setup_info = nlohmann::json::object();  // the container image, when run in ours
  sysinfo::SystemInfo system;
  std::vector<config::Comparison> comparisons;
};

nlohmann::json system_info_json(const RunContext& run);       // PerfZero's system_info keys, exactly
nlohmann::json system_extension_json(const RunContext& run);  // everything else we know

}  // namespace perfzero::report
