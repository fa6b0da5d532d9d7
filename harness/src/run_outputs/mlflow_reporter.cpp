// --report=+mlflow: the run sent to an MLflow tracking server once its last trial is over, never
// before: a server that is slow, down or refusing costs the run at most the export's deadline, after
// every measurement, and never its exit status. What was not sent stays listed in the run's export
// record for `perfzero export mlflow RUN_DIR`.
#include <cstdio>

#include <fmt/format.h>

#include "mlflow/run_export.hpp"
#include "run_outputs/export_reporters.hpp"

namespace perfzero::run_outputs {

namespace {

constexpr const char* kFlag = "--mlflow_tracking_uri";

class MlflowReporter : public Reporter {
 public:
  explicit MlflowReporter(ReporterSettings settings) : settings_(std::move(settings)) {}

  void run_finished(const results::Run& run) override {
    try {
      const auto summary =
          mlflow::export_run(run, settings_.run_dir, mlflow::server_settings(settings_.mlflow_tracking_uri, kFlag));
      for (const auto& line : summary.lines()) {
        fmt::print(stderr, "perfzero: {}{}\n", summary.complete() ? "" : "warning: ", line);
      }
    } catch (const std::exception& e) {
      // Whatever happens here is the export's, not the run's: one line, and the run's status stands.
      fmt::print(stderr, "perfzero: warning: MLflow: nothing sent: {}\n", e.what());
    }
  }

 private:
  ReporterSettings settings_;
};

}  // namespace

std::unique_ptr<Reporter> make_mlflow_reporter(const ReporterSettings& settings) {
  return std::make_unique<MlflowReporter>(settings);
}

void check_mlflow_settings(const ReporterSettings& settings) {
  static_cast<void>(mlflow::server_settings(settings.mlflow_tracking_uri, kFlag));
}

}  // namespace perfzero::run_outputs
