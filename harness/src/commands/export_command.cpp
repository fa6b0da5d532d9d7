// `perfzero export mlflow RUN_DIR`: a finished run sent to an MLflow tracking server, or what an
// earlier export (--report=+mlflow, or this command) could not send.
#include <fmt/format.h>

#include "commands/commands.hpp"
#include "common/errors.hpp"
#include "mlflow/run_export.hpp"
#include "results/reader.hpp"

namespace perfzero::commands {

int export_command(const cli::ExportOptions& options) {
  const auto settings = mlflow::server_settings(options.tracking_uri, "--tracking_uri");
  results::LoadedRun loaded;
  try {
    loaded = results::read_run(options.run_dir);
  } catch (const results::ReadError& e) {
    throw UsageError(fmt::format("export: {} holds no run perfzero can read: {}", options.run_dir, e.what()));
  }
  for (const auto& warning : loaded.warnings) fmt::print(stderr, "perfzero: warning: {}\n", warning);
  const auto summary = mlflow::export_run(loaded.run, options.run_dir, settings, options.experiment);
  for (const auto& line : summary.lines()) fmt::print("{}\n", line);
  return to_int(summary.complete() ? ExitCode::all_succeeded : ExitCode::not_sent);
}

}  // namespace perfzero::commands
