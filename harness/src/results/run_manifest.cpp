#include "results/run_manifest.hpp"

#include <cstdint>
#include <stdexcept>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "results/model_json.hpp"

namespace perfzero::results {

nlohmann::json case_identity(const Case& c) {
  nlohmann::json id = {{"name", c.name},       {"method", c.method}, {"params", c.params},
                       {"command", c.command}, {"output", c.output}, {"working_dir", c.working_dir}};
  // Ranks measure another thing than one process: a resume with another launch: is another plan. Only
  // when set, so a local run's fingerprint is what it was before launch: existed.
  if (!c.launch.is_null()) id["launch"] = c.launch;
  // A Python method's interpreter, path and class type say which code runs; only for Python methods,
  // so every other case's fingerprint is what it was.
  if (!c.python.is_null()) id["python"] = c.python;
  return id;
}

std::string plan_fingerprint(const std::vector<Case>& cases) {
  // FNV-1a: stable across builds and platforms, which std::hash is not promised to be.
  std::uint64_t hash = 14695981039346656037ULL;
  for (const auto& c : cases) {
    for (const char ch : case_identity(c).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n") {
      hash ^= static_cast<unsigned char>(ch);
      hash *= 1099511628211ULL;
    }
  }
  return fmt::format("fnv1a64:{:016x}", hash);
}

std::string PlanDifference::describe() const {
  std::vector<std::string> parts;
  const auto list = [&](const char* what, const std::vector<std::string>& names) {
    if (names.empty()) return;
    std::string joined;
    for (const auto& n : names) joined += (joined.empty() ? "" : ", ") + n;
    parts.push_back(fmt::format("{} {}", what, joined));
  };
  list("added", added);
  list("removed", removed);
  list("changed", changed);
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

PlanDifference plan_difference(const std::vector<Case>& before, const std::vector<Case>& after) {
  PlanDifference d;
  const auto find = [](const std::vector<Case>& cases, const std::string& name) -> const Case* {
    for (const auto& c : cases) {
      if (c.name == name) return &c;
    }
    return nullptr;
  };
  for (const auto& c : after) {
    const Case* old = find(before, c.name);
    if (old == nullptr) {
      d.added.push_back(c.name);
    } else if (case_identity(*old) != case_identity(c)) {
      d.changed.push_back(c.name);
    }
  }
  for (const auto& c : before) {
    if (find(after, c.name) == nullptr) d.removed.push_back(c.name);
  }
  return d;
}

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
          {"plan_fingerprint", run.plan_fingerprint.empty() ? plan_fingerprint(run.cases) : run.plan_fingerprint},
          {"comparisons", std::move(comparisons)}};
}

void write_manifest(const std::filesystem::path& run_dir, const Run& run) {
  try {
    files::write_atomically(run_dir / kRunManifest,
                            manifest_json(run).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  } catch (const std::system_error& e) {
    throw OutputError(e.what());
  }
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
    run.plan_fingerprint = doc.value("plan_fingerprint", "");
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
