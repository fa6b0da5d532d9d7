#pragma once
// run.json: the run's identity, everything known about it before the first trial (flags, system,
// the plan, the suites' comparisons) and its status. Written when the run starts and when it ends;
// with journal.ndjson it is the whole record of a run (results/reader.hpp reads them back).
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "results/model.hpp"

namespace perfzero::results {

inline constexpr const char* kRunManifest = "run.json";

// The run without trials: info, plan (case headers), comparisons and status.
nlohmann::json manifest_json(const Run& run);
void write_manifest(const std::filesystem::path& run_dir, const Run& run);
// Throws std::runtime_error (file and reason) when it is missing or not a manifest of ours.
Run read_manifest(const std::filesystem::path& run_dir);

}  // namespace perfzero::results
