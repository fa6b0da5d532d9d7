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
  ExportReporter(ExportFunction write, std::filesystem::path run_dir) : write_(write), run_dir_(std::move(run_dir)) {}
  void run_finished(const results::Run& run) override { write_(run, run_dir_); }

 private:
  ExportFunction write_;
  std::filesystem::path run_dir_;
};

}  // namespace

std::unique_ptr<Reporter> make_elasticsearch_reporter(const std::filesystem::path& run_dir) {
  return std::make_unique<ExportReporter>(export_formats::write_elasticsearch, run_dir);
}
std::unique_ptr<Reporter> make_influx_reporter(const std::filesystem::path& run_dir) {
  return std::make_unique<ExportReporter>(export_formats::write_influx, run_dir);
}
std::unique_ptr<Reporter> make_openmetrics_reporter(const std::filesystem::path& run_dir) {
  return std::make_unique<ExportReporter>(export_formats::write_openmetrics, run_dir);
}

}  // namespace perfzero::run_outputs
