#pragma once
// The dashboard exports as reporters (--report=elasticsearch,influx,openmetrics): each writes its
// files once, when the run ends (completed or interrupted), from the model alone. The exports
// themselves are functions of a results::Run in export_formats/, for commands that load runs back.
#include <memory>

#include "run_outputs/reporter.hpp"

namespace perfzero::run_outputs {

std::unique_ptr<Reporter> make_elasticsearch_reporter(const std::filesystem::path& run_dir);
std::unique_ptr<Reporter> make_influx_reporter(const std::filesystem::path& run_dir);
std::unique_ptr<Reporter> make_openmetrics_reporter(const std::filesystem::path& run_dir);
// --report=+mlflow (run_outputs/mlflow_reporter.cpp): sent to a tracking server when the run ends.
std::unique_ptr<Reporter> make_mlflow_reporter(const ReporterSettings& settings);
// UsageError when no tracking server is named, or one perfzero cannot talk to.
void check_mlflow_settings(const ReporterSettings& settings);

}  // namespace perfzero::run_outputs
