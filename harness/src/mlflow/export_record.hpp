#pragma once
// What an export has sent, kept in the run's directory as mlflow_export.json (written atomically after
// every request that changed something on the server), so that a later `perfzero export mlflow`
// sends exactly what is missing: no step, parameter or artifact twice, no second MLflow run for a case.
// One entry per tracking server (its URI, redacted), so exporting to another server starts afresh.
#include <filesystem>
#include <map>
#include <set>
#include <string>

namespace perfzero::mlflow {

inline constexpr const char* kRecordFile = "mlflow_export.json";

struct CaseRecord {
  std::string run_id;  // the MLflow run made for the case
  bool params_sent = false;
  std::map<std::string, std::string> tags;  // as last sent: a tag whose value changed is sent again
  std::set<int> steps;                      // trial numbers whose metrics were logged
  std::set<std::string> artifacts;          // artifact paths uploaded
  std::string status;                       // the MLflow status last sent
};

struct ServerRecord {
  std::string experiment_id;
  std::string experiment_name;
  std::map<std::string, CaseRecord> cases;  // by the case's name in the perfzero run
};

class ExportRecord {
 public:
  // An absent file is an empty record; a damaged one is an error (std::runtime_error naming it), so
  // that a later export never sends again what the lost record said was sent.
  static ExportRecord load(const std::filesystem::path& run_dir);
  ServerRecord& server(const std::string& key) { return servers_[key]; }
  // Throws std::system_error naming the file when the directory refuses it.
  void save() const;

 private:
  std::filesystem::path file_;
  std::map<std::string, ServerRecord> servers_;
};

}  // namespace perfzero::mlflow
