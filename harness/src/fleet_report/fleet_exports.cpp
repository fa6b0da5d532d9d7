#include "fleet_report/fleet_exports.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <system_error>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "export_formats/elasticsearch_export.hpp"
#include "export_formats/influx_line_protocol.hpp"
#include "export_formats/openmetrics_export.hpp"

namespace perfzero::fleet_report {

namespace fs = std::filesystem;

bool is_export_format(const std::string& format) {
  return format == "elasticsearch" || format == "influx" || format == "openmetrics";
}

// A file written as the runs come, under a temporary name until finish() renames it: a reader never
// sees a half-written export, and a report that stops early removes it.
struct ExportFiles::Stream {
  fs::path final_path;
  fs::path temp_path;
  std::ofstream out;

  explicit Stream(fs::path path) : final_path(std::move(path)) {
    temp_path = final_path;
    temp_path += ".partial";
    out.open(temp_path, std::ios::binary | std::ios::trunc);
    if (!out) throw OutputError(fmt::format("report: cannot write {}", temp_path.string()));
  }
  void write(const std::string& text) {
    out << text;
    if (!out) throw OutputError(fmt::format("report: cannot write {} (disk full?)", temp_path.string()));
  }
  void commit() {
    out.flush();
    out.close();
    if (!out) throw OutputError(fmt::format("report: cannot write {} (disk full?)", temp_path.string()));
    std::error_code ec;
    fs::rename(temp_path, final_path, ec);
    if (ec) throw OutputError(fmt::format("report: cannot write {}: {}", final_path.string(), ec.message()));
  }
  ~Stream() {
    std::error_code ec;
    if (out.is_open()) fs::remove(temp_path, ec);
  }
};

struct ExportFiles::Elasticsearch {
  export_formats::ElasticsearchBulkWriter writer;
};

ExportFiles::ExportFiles(fs::path dir, const std::vector<std::string>& formats) : dir_(std::move(dir)) {
  const auto wanted = [&](const char* f) { return std::find(formats.begin(), formats.end(), f) != formats.end(); };
  if (wanted("elasticsearch")) {
    elasticsearch_ = std::make_unique<Stream>(dir_ / export_formats::kElasticsearchBulkFile);
    mapping_ = std::make_unique<Elasticsearch>();
  }
  if (wanted("influx")) influx_ = std::make_unique<Stream>(dir_ / export_formats::kInfluxFile);
  openmetrics_ = wanted("openmetrics");
}

ExportFiles::~ExportFiles() = default;

void ExportFiles::add(results::Run&& run) {
  if (elasticsearch_) elasticsearch_->write(mapping_->writer.add(run));
  if (influx_) influx_->write(export_formats::influx_line_protocol(run));
  if (openmetrics_ && (!latest_ || run.info.execution_timestamp >= latest_->info.execution_timestamp)) {
    latest_ = std::move(run);
  }
}

void ExportFiles::finish() {
  try {
    if (elasticsearch_) {
      elasticsearch_->commit();
      files::write_atomically(dir_ / export_formats::kElasticsearchTemplateFile, mapping_->writer.index_template());
    }
    if (influx_) influx_->commit();
    if (openmetrics_ && latest_) export_formats::write_openmetrics(*latest_, dir_);
  } catch (const std::system_error& e) {
    throw OutputError(fmt::format("report: {}", e.what()));
  }
}

}  // namespace perfzero::fleet_report
