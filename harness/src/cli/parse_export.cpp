// `perfzero export` flags.
#include "cli/cli_app.hpp"
#include "cli/export_options.hpp"

namespace perfzero::cli {

std::optional<std::string> parse_export_flags(int argc, const char* const* argv, ExportOptions& out) {
  CLI::App app{
      "Sends a finished run to a tracking server: `perfzero export mlflow RUN_DIR`. Only what the run's record "
      "(mlflow_export.json) says is missing is sent, so exporting again after a server was down sends the rest, "
      "never a step twice. Connecting gives up after 2 s and the export after 30 s. Exit 0 when everything is "
      "sent, 6 when something was not (the lines say what and why), 2 for bad flags or a directory that holds no "
      "run (docs/exports.md).",
      "perfzero export"};
  app.add_option("DESTINATION", out.destination, "mlflow (an MLflow tracking server)")
      ->required()
      ->check(CLI::IsMember({"mlflow"}));
  app.add_option("RUN_DIR", out.run_dir, "the run's directory (results/runs/EXECUTION_ID)")
      ->required()
      ->type_name("DIR");
  app.add_option("--tracking_uri", out.tracking_uri,
                 "the tracking server, http(s)://HOST:PORT (default $MLFLOW_TRACKING_URI; MLFLOW_TRACKING_TOKEN or "
                 "MLFLOW_TRACKING_USERNAME and MLFLOW_TRACKING_PASSWORD authenticate)")
      ->type_name("URL");
  app.add_option("--experiment", out.experiment, "the MLflow experiment (default the run's execution label)")
      ->type_name("NAME");
  return parse_or_help(app, argc, argv);
}

}  // namespace perfzero::cli
