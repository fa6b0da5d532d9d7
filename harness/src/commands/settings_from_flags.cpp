#include "commands/settings_from_flags.hpp"

namespace perfzero::commands {

session::SessionSettings session_settings(const cli::Options& options) {
  session::SessionSettings s;
  s.execution_id = options.execution_id;
  s.execution_label = options.execution_label;
  s.platform_name = options.platform_name;
  s.system_name = options.system_name;
  s.ml_framework_build_label = options.ml_framework_build_label;
  s.instance_type = options.instance_type;
  s.commit = options.commit;
  s.branch = options.branch;
  s.build_label = options.build_label;
  s.detect_source = options.detect_source;
  s.suite_files = options.configs;
  s.given_flags = options.given;
  s.dmi_root = options.dmi_root;
  s.output_dir = options.output_dir;
  s.root_data_dir = options.root_data_dir;
  s.resume = options.resume;
  s.force_resume = options.force_resume;
  s.reports = options.reports;
  s.mlflow_tracking_uri = options.mlflow_tracking_uri;
  s.counters = options.counters;
  s.cpu_throttle_threshold = options.cpu_throttle_threshold;
  s.cpu_throttle_share = options.cpu_throttle_share;
  s.host_busy_threshold_cpus = options.host_busy_threshold;
  s.lock_gpu_clocks = options.lock_gpu_clocks;
  s.doctor = options.doctor;
  s.debug = options.debug;
  return s;
}

}  // namespace perfzero::commands
