#include "results/run_manifest.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "common/files.hpp"
#include "results/model_json.hpp"

namespace perfzero::results {

nlohmann::json manifest_json(const Run& run) {
  nlohmann::json plan = nlohmann::json::array();
  for (const auto& c : run.cases) plan.push_back(case_header_to_json(c));
  nlohmann::json comparisons = nlohmann::json::array();
  for (const auto& c : run.comparisons) comparisons.push_back(comparison_spec_to_json(c));
  // execution_id, execution_timestamp and flags stay at the top, where schema 1.0.0 had them.
  return {{"schema_version", run.info.schema_version},
          {"execution_id", run.info.execution_id},
          {"execution_timestamp", run.info.execution_timestamp},
          {"status", run.status},
          {"flags", run.info.flags},
          {"run", run_info_to_json(run.info)},
          {"plan", std::move(plan)},
          {"comparisons", std::move(comparisons)}};
}

void write_manifest(const std::filesystem::path& run_dir, const Run& run) {
  files::write_atomically(run_dir / kRunManifest,
                          manifest_json(run).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

Run read_manifest(const std::filesystem::path& run_dir) {
  const auto path = run_dir / kRunManifest;
  const auto text = files::read_text(path);
  if (!text)
    throw std::runtime_error(fmt::format("{}: missing or unreadable: not a perfzero run directory", path.string()));
  const auto doc = nlohmann::json::parse(*text, nullptr, false);
  if (!doc.is_object()) throw std::runtime_error(fmt::format("{}: not a JSON object", path.string()));
  if (!doc.contains("run")) {
    throw std::runtime_error(fmt::format("{}: written by schema 1.0.0 (no 'run' block)", path.string()));
  }
  try {
    Run run;
    run.info = run_info_from_json(doc.at("run"));
    run.status = doc.value("status", "running");
    for (const auto& c : doc.value("plan", nlohmann::json::array())) run.cases.push_back(case_header_from_json(c));
    for (const auto& c : doc.value("comparisons", nlohmann::json::array())) {
      run.comparisons.push_back(comparison_spec_from_json(c));
    }
    return run;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", path.string(), e.what()));
  }
}

}  // namespace perfzero::results
