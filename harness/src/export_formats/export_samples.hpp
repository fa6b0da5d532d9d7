#pragma once
// What the dashboard exports have in common: a run flattened to samples, one per (trial, metric),
// each with the run's labels and the machine's fields beside it, as PerfKitBenchmarker's samples
// (metric, value, unit, metadata). Elasticsearch writes one document per sample, InfluxDB one point.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/model.hpp"

namespace perfzero::export_formats {

// The run and machine fields every sample carries, as strings (empty when unknown).
struct RunFields {
  std::string execution_id;
  std::string execution_label;
  std::string platform_name;
  std::string system_name;
  std::string instance_type;
  std::string cpu_model;
  std::string cloud;
  std::string harness_version;
  std::string status;
  double execution_timestamp = 0;  // epoch seconds
};

RunFields run_fields(const results::Run& run);

struct Sample {
  const results::Case* c = nullptr;
  const results::Trial* trial = nullptr;
  std::string metric;
  double value = 0;  // may be NaN or infinite: each format says so in its own way
  std::string unit;
  int occurrence = 0;  // how many samples of this metric the trial had before this one (usually 0)
  double time = 0;     // epoch seconds when the trial started
};

// Every measured trial (warm-ups are not results) of every case: its wall time ("wall_time", s),
// each metric it reported, and the process tree's peak RSS ("max_rss", bytes) and CPU
// ("max_cpu_percent", %) when they were measured. Failed trials are kept: dashboards filter on outcome.
std::vector<Sample> trial_samples(const results::Run& run);

// A case's parameters as flat fields: "param_<name>" with the name reduced to [A-Za-z0-9_] (made
// unique with a suffix when two reduce alike); numbers stay numbers, everything else becomes text.
std::vector<std::pair<std::string, nlohmann::json>> flat_params(const nlohmann::json& params);

}  // namespace perfzero::export_formats
