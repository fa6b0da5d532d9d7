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

// What makes a case the same case on --resume: its name, method, parameters and command (not its
// trial counts, which a resumed run may raise, nor where in a suite it was written).
nlohmann::json case_identity(const Case& c);
// A hash of the identities of the cases, in order; stored in run.json.
std::string plan_fingerprint(const std::vector<Case>& cases);

struct PlanDifference {
  std::vector<std::string> added, removed, changed;  // case names
  bool empty() const { return added.empty() && removed.empty() && changed.empty(); }
  std::string describe() const;  // "added A, B; removed C; changed D"
};
PlanDifference plan_difference(const std::vector<Case>& before, const std::vector<Case>& after);

// The run without trials: info, plan (case headers), comparisons and status.
nlohmann::json manifest_json(const Run& run);
void write_manifest(const std::filesystem::path& run_dir, const Run& run);
// Throws std::runtime_error (file and reason) when it is missing or not a manifest of ours.
Run read_manifest(const std::filesystem::path& run_dir);

}  // namespace perfzero::results
