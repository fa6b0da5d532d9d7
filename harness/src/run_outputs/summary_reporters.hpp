#pragma once
// The run summaries (summary.json, summary.csv, summary.md): their text, and reporters that write
// them at checkpoints and at the end of the run.
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "results/model.hpp"
#include "run_outputs/reporter.hpp"

namespace perfzero::run_outputs {

nlohmann::json summary_json(const results::Run& run);
std::string summary_csv(const results::Run& run);
std::string summary_markdown(const results::Run& run);

std::unique_ptr<Reporter> make_summary_json_reporter(const std::filesystem::path& run_dir);
std::unique_ptr<Reporter> make_summary_csv_reporter(const std::filesystem::path& run_dir);
std::unique_ptr<Reporter> make_summary_markdown_reporter(const std::filesystem::path& run_dir);

}  // namespace perfzero::run_outputs
