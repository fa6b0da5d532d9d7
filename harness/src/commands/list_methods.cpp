#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "api/list_protocol.hpp"
#include "commands/commands.hpp"

namespace perfzero::commands {

void list_methods(std::FILE* out, const method_catalog::Catalog& catalog) {
  std::string family;
  for (const auto& m : catalog.registry().methods()) {
    if (m.family != family) {
      family = m.family;
      const method_catalog::Worker* worker = catalog.worker_of(m.full_name());
      fmt::print(out, "{}family {} ({})\n", family.empty() ? "" : "\n", family,
                 worker != nullptr ? worker->executable.filename().string() : "no worker");
    }
    fmt::print(out, "  {}\n      {}\n", m.full_name(), m.description);
    for (const auto& need : m.needs) {
      fmt::print(out, "      needs {}{}\n", need, need == "gpu" ? ": an NVIDIA GPU (skipped without one)" : "");
    }
    for (const auto& p : m.params) {
      fmt::print(out, "      param {} ({}, default {}): {}\n", p.name, to_string(p.type),
                 format_param_value(p.default_value), p.description);
    }
  }
  fmt::print(out, "\nExternal commands are methods too: see docs/suites.md.\n");
}

// The workers' own list documents merged, each method saying which worker runs it (docs/cli.md).
void list_methods_json(std::FILE* out, const method_catalog::Catalog& catalog, const nlohmann::json& python) {
  nlohmann::json doc = detail::method_list_json(catalog.registry(), "");
  doc.erase("worker");
  for (auto& m : doc["methods"]) {
    const method_catalog::Worker* worker = catalog.worker_of(m["name"].get<std::string>());
    m["worker"] = worker != nullptr ? worker->name : "";
    m["worker_executable"] = worker != nullptr ? worker->executable.string() : "";
  }
  nlohmann::json workers = nlohmann::json::array();
  for (const auto& w : catalog.workers()) workers.push_back({{"name", w.name}, {"executable", w.executable.string()}});
  doc["workers"] = workers;
  if (!python.is_null()) doc["python"] = python;
  fmt::print(out, "{}\n", doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace perfzero::commands
