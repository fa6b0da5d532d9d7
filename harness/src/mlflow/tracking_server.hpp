#pragma once
// MLflow's REST API 2.0, the calls an export needs: experiments by name, runs, batches of metrics,
// parameters and tags, and artifacts through the server's mlflow-artifacts proxy (`mlflow server
// --serve-artifacts`). Each failed call throws ServerError saying whether the server answered.
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "mlflow/http_client.hpp"

namespace perfzero::mlflow {

// Where to send, and how long an export may take in all (docs/exports.md, "MLflow").
struct ServerSettings {
  std::string tracking_uri;  // http(s)://host:port[/prefix]
  HttpAuth auth;             // MLFLOW_TRACKING_TOKEN, or MLFLOW_TRACKING_USERNAME and _PASSWORD
  std::chrono::seconds deadline{30};
};

// The tracking URI the flag gives, else MLFLOW_TRACKING_URI, with the credentials MLflow's own clients
// read from the environment. Throws UsageError when there is none or it is not http(s).
ServerSettings server_settings(const std::string& flag_uri, const std::string& flag_name);

class ServerError : public std::runtime_error {
 public:
  ServerError(const std::string& what, bool answered) : std::runtime_error(what), answered_(answered) {}
  // False: nothing answered (refused, timed out, unresolvable): later calls would fare no better.
  bool answered() const { return answered_; }

 private:
  bool answered_;
};

struct Metric {
  std::string key;
  double value = 0;
  std::int64_t timestamp_ms = 0;
  int step = 0;
};

struct KeyValue {
  std::string key;
  std::string value;
};

class TrackingServer {
 public:
  explicit TrackingServer(const ServerSettings& settings);

  // The experiment's id, made when there is none of that name.
  std::string experiment_id(const std::string& name);
  // A new run; its id.
  std::string create_run(const std::string& experiment_id, const std::string& run_name, std::int64_t start_time_ms,
                         const std::vector<KeyValue>& tags);
  // Within MLflow's limits per request (1000 metrics, 100 parameters, 100 tags); split by the caller.
  void log_batch(const std::string& run_id, const std::vector<Metric>& metrics, const std::vector<KeyValue>& params,
                 const std::vector<KeyValue>& tags);
  void update_run(const std::string& run_id, const std::string& status, std::int64_t end_time_ms);
  // The run's artifact_uri says whether its artifacts go through this server: mlflow-artifacts:/...
  // does; a path or s3:// means the client would write there itself, which perfzero does not.
  std::string artifact_uri(const std::string& run_id);
  void put_artifact(const std::string& artifact_uri, const std::string& path, const std::string& content);

  bool expired() const { return http_.expired(); }

 private:
  std::string api(const std::string& path) const;

  std::string base_;
  HttpClient http_;
};

}  // namespace perfzero::mlflow
