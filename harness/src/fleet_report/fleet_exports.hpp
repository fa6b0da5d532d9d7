#pragma once
// `perfzero report --format elasticsearch,influx,openmetrics`: the dashboard exports of every run a
// report reads (docs/exports.md), written as the runs stream by, so that none has to be held.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "results/model.hpp"

namespace perfzero::fleet_report {

// The export formats `perfzero report --format` accepts besides its own (md, csv, json, html).
bool is_export_format(const std::string& format);

class ExportFiles {
 public:
  // Throws OutputError when `dir` cannot hold the files.
  ExportFiles(std::filesystem::path dir, const std::vector<std::string>& formats);
  ExportFiles(const ExportFiles&) = delete;
  ExportFiles& operator=(const ExportFiles&) = delete;
  ~ExportFiles();  // a report that stopped early leaves no partial export behind

  bool empty() const { return !elasticsearch_ && !influx_ && !openmetrics_; }
  void add(results::Run&& run);
  // Renames every file into place; throws OutputError naming a file that cannot be written.
  void finish();

 private:
  struct Stream;
  std::filesystem::path dir_;
  std::unique_ptr<Stream> elasticsearch_;
  std::unique_ptr<Stream> influx_;
  bool openmetrics_ = false;
  std::optional<results::Run> latest_;  // OpenMetrics is the state of the last run, not a history
  struct Elasticsearch;
  std::unique_ptr<Elasticsearch> mapping_;
};

}  // namespace perfzero::fleet_report
