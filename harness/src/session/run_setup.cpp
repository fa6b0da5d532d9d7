#include "session/run_setup.hpp"

#include <chrono>
#include <cstdlib>

#include "api/param_json.hpp"
#include "config/output_format.hpp"
#include "perfzero_build_info.hpp"
#include "provenance/source_info.hpp"
#include "redact/redact.hpp"
#include "sysinfo/system_info_json.hpp"

extern char** environ;

namespace perfzero::session {

namespace {

double epoch_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string env_or(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

results::RunInfo make_run_info(const SessionSettings& o, const ClaimedOutput& output) {
  results::RunInfo run;
  run.execution_id = output.execution_id;
  run.execution_timestamp = epoch_seconds();
  run.execution_label = redact::redact_urls(o.execution_label);
  run.platform_name = o.platform_name;
  run.system_name = o.system_name;
  run.ml_framework_build_label = redact::redact_urls(o.ml_framework_build_label);
  std::error_code ec;
  run.source = provenance::detect_source({o.commit, o.branch, o.build_label, o.detect_source},
                                         provenance::process_environment(), std::filesystem::current_path(ec));
  run.output_dir = output.dir.string();
  run.suite_files = o.suite_files;
  run.site_packages = o.site_packages;
  run.harness_version = build_info::kVersion;
  // WriteBuildInfo.cmake already strips a token from the URL; a build made otherwise is checked again.
  run.harness_info = {{"url", redact::redact_urls(build_info::kGitUrl)},
                      {"branch", build_info::kGitBranch},
                      {"hash", build_info::kGitHash}};
  run.env_vars = redact::redacted_environment(environ);
  // Our images set these (docker/Dockerfile); the user may add the digest.
  if (std::getenv("PERFZERO_IMAGE") != nullptr) {
    run.setup_info = {{"docker_image", env_or("PERFZERO_IMAGE")},
                      {"docker_image_revision", env_or("PERFZERO_IMAGE_REVISION")},
                      {"docker_image_digest", env_or("PERFZERO_IMAGE_DIGEST")}};
  }
  run.flags = redact::redacted_flags(o.given_flags);
  sysinfo::Paths paths;
  paths.dmi = o.dmi_root;
  const sysinfo::SystemInfo system = sysinfo::collect_system_info(paths);
  run.instance_type = !o.instance_type.empty() ? o.instance_type : system.cloud.instance_type;
  run.system_info = sysinfo::system_info_json(system, run.platform_name, run.system_name);
  run.system = sysinfo::system_extension_json(system, run.instance_type);
  return run;
}

results::Case case_of(const config::PlannedCase& planned) {
  results::Case c;
  c.name = planned.name;
  c.method = planned.method;
  c.description = redact::redact_urls(planned.description);
  c.origin = planned.origin;
  c.external = planned.external;
  c.output = std::string(config::output_format_name(planned.command.output));
  c.params = redact::redacted_params(detail::params_to_json(planned.params));
  c.trials_planned = planned.trials;
  c.auto_trials = planned.auto_trials;
  c.warmups_planned = planned.warmup_trials;
  c.timeout_seconds = static_cast<double>(planned.timeout.count()) / 1000.0;
  c.monitor_interval_ms = static_cast<int>(planned.monitor_interval.count());
  c.main_metric = redact::redact_text(planned.main_metric);
  if (planned.external) {
    c.command = redact::redact_argv(planned.command.argv);
    c.working_dir = redact::redact_urls(planned.command.working_dir.string());
  }
  if (planned.python) {
    const auto& p = *planned.python;
    c.python = {
        {"spec", p.spec},
        {"interpreter", redact::redact_urls(p.interpreter)},
        {"python_path", redact::redact_argv(p.python_path)},
        {"class_type", p.class_type},
        {"constructor_args", redact::redacted_params(nlohmann::json::parse(p.constructor_args, nullptr, false))}};
  }
  if (planned.launch.engine != config::LaunchEngine::local) {
    const auto& l = planned.launch;
    c.launch = {{"engine", config::launch_engine_name(l.engine)},
                {"nodes", l.nodes},
                {"tasks_per_node", l.tasks_per_node},
                {"hosts", l.hosts},
                {"hostfile", l.hostfile},
                {"extra_args", redact::redact_argv(l.extra_args)}};
    // Only when set: a run made before these keys existed resumes with the same identity.
    if (l.gpus_per_task != 0) c.launch["gpus_per_task"] = l.gpus_per_task;
    if (!l.partition.empty()) c.launch["partition"] = l.partition;
  }
  c.dir = planned.dir;
  return c;
}

}  // namespace

results::Run make_run(const SessionSettings& settings, const ClaimedOutput& output,
                      const std::vector<config::PlannedCase>& plan,
                      const std::vector<config::Comparison>& comparisons) {
  results::Run run;
  run.info = make_run_info(settings, output);
  for (const auto& planned : plan) run.cases.push_back(case_of(planned));
  for (const auto& c : comparisons) {
    run.comparisons.push_back({c.name, c.ours_case, c.ours_metric, c.theirs_case, c.theirs_metric, c.goal});
  }
  return run;
}

}  // namespace perfzero::session
