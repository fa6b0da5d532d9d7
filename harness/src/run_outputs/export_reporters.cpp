#include "run_outputs/export_reporters.hpp"

#include <filesystem>

#include "export_formats/elasticsearch_export.hpp"
#include "export_formats/influx_line_protocol.hpp"
#include "export_formats/openmetrics_export.hpp"

namespace perfzero::run_outputs {

namespace {

using ExportFunction = void (*)(const results::Run&, const std::filesystem::path&);

// Not rewritten at checkpoints: an export is loaded into a dashboard once, after the run.
class ExportReporter : public Reporter {
 public:
  explicit ExportReporter(ExportFunction write) : write_(write) {}
  void run_finished(const results::Run& run) override { write_(run, run.info.output_dir); }

 private:
  ExportFunction write_;
};

}  // namespace

std::unique_ptr<Reporter> make_elasticsearch_reporter() {
  return std::make_unique<ExportReporter>(export_formats::write_elasticsearch);
}
std::unique_ptr<Reporter> make_influx_reporter() {
  return std::make_unique<ExportReporter>(export_formats::write_influx);
}
std::unique_ptr<Reporter> make_openmetrics_reporter() {
  return std::make_unique<ExportReporter>(export_formats::write_openmetrics);
}

}  // namespace perfzero::run_outputs
