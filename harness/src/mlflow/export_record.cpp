#include "mlflow/export_record.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "common/files.hpp"

namespace perfzero::mlflow {

namespace {

constexpr int kRecordVersion = 1;

nlohmann::json to_json(const CaseRecord& c) {
  return {{"run_id", c.run_id}, {"params_sent", c.params_sent}, {"tags", c.tags},
          {"steps", c.steps},   {"artifacts", c.artifacts},     {"status", c.status}};
}

CaseRecord case_from(const nlohmann::json& j) {
  CaseRecord c;
  c.run_id = j.at("run_id").get<std::string>();
  c.params_sent = j.at("params_sent").get<bool>();
  c.tags = j.at("tags").get<std::map<std::string, std::string>>();
  c.steps = j.at("steps").get<std::set<int>>();
  c.artifacts = j.at("artifacts").get<std::set<std::string>>();
  c.status = j.at("status").get<std::string>();
  return c;
}

}  // namespace

ExportRecord ExportRecord::load(const std::filesystem::path& run_dir) {
  ExportRecord record;
  record.file_ = run_dir / kRecordFile;
  const auto text = files::read_text(record.file_);
  if (!text) {
    if (std::filesystem::exists(record.file_)) throw std::runtime_error(record.file_.string() + ": cannot be read");
    return record;
  }
  try {
    const auto json = nlohmann::json::parse(*text);
    if (json.at("version").get<int>() != kRecordVersion) throw std::runtime_error("an unknown version");
    for (const auto& [uri, s] : json.at("servers").items()) {
      ServerRecord& server = record.servers_[uri];
      server.experiment_id = s.at("experiment_id").get<std::string>();
      server.experiment_name = s.at("experiment_name").get<std::string>();
      for (const auto& [name, c] : s.at("cases").items()) server.cases[name] = case_from(c);
    }
  } catch (const std::exception& e) {
    throw std::runtime_error(record.file_.string() + ": not an MLflow export record perfzero can read (" + e.what() +
                             "); move it away to export everything again");
  }
  return record;
}

void ExportRecord::save() const {
  nlohmann::json servers = nlohmann::json::object();
  for (const auto& [uri, s] : servers_) {
    nlohmann::json cases = nlohmann::json::object();
    for (const auto& [name, c] : s.cases) cases[name] = to_json(c);
    servers[uri] = {{"experiment_id", s.experiment_id}, {"experiment_name", s.experiment_name}, {"cases", cases}};
  }
  const nlohmann::json json{{"version", kRecordVersion}, {"servers", servers}};
  files::write_atomically(file_, json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace perfzero::mlflow
