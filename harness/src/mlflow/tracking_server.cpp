#include "mlflow/tracking_server.hpp"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/errors.hpp"
#include "redact/redact.hpp"

namespace perfzero::mlflow {

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// MLflow's JSON takes NaN and the infinities as strings (protobuf's JSON mapping); plain JSON has none.
nlohmann::json metric_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  return value;
}

nlohmann::json key_values(const std::vector<KeyValue>& items) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& kv : items) out.push_back({{"key", kv.key}, {"value", kv.value}});
  return out;
}

// The server's own words for a refusal (MLflow answers {"error_code", "message"}), kept short.
std::string refusal(const HttpResponse& r) {
  const auto json = nlohmann::json::parse(r.body, nullptr, false);
  std::string said = json.is_object() && json.contains("message") && json["message"].is_string()
                         ? json.value("error_code", "") + ": " + json["message"].get<std::string>()
                         : r.body;
  if (said.size() > 300) said = said.substr(0, 300) + "...";
  for (char& c : said) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return fmt::format("HTTP {}{}", r.status, said.empty() ? "" : " (" + said + ")");
}

bool is_mlflow_error(const HttpResponse& r, const std::string& code) {
  const auto json = nlohmann::json::parse(r.body, nullptr, false);
  return json.is_object() && json.value("error_code", "") == code;
}

nlohmann::json checked(const HttpResponse& r, const std::string& what) {
  if (!r.answered()) throw ServerError(redact::redact_text(fmt::format("{}: no answer: {}", what, r.error)), false);
  if (r.status < 200 || r.status >= 300) throw ServerError(redact::redact_text(what + ": " + refusal(r)), true);
  auto json = nlohmann::json::parse(r.body.empty() ? "{}" : r.body, nullptr, false);
  if (json.is_discarded()) throw ServerError(what + ": the answer is not JSON (is this an MLflow server?)", true);
  return json;
}

}  // namespace

ServerSettings server_settings(const std::string& flag_uri, const std::string& flag_name) {
  ServerSettings s;
  s.tracking_uri = !flag_uri.empty() ? flag_uri : env("MLFLOW_TRACKING_URI");
  if (s.tracking_uri.empty()) {
    throw UsageError(
        fmt::format("MLflow needs a tracking server: {}=http://HOST:PORT or MLFLOW_TRACKING_URI", flag_name));
  }
  if (!s.tracking_uri.starts_with("http://") && !s.tracking_uri.starts_with("https://")) {
    throw UsageError(
        fmt::format("MLflow tracking URI '{}': perfzero talks to a tracking server over HTTP (http:// or https://); a "
                    "local store (file:, sqlite:, databricks) needs `mlflow server` in front of it",
                    redact::redact_urls(s.tracking_uri)));
  }
  while (s.tracking_uri.ends_with('/')) s.tracking_uri.pop_back();
  s.auth.bearer_token = env("MLFLOW_TRACKING_TOKEN");
  s.auth.username = env("MLFLOW_TRACKING_USERNAME");
  s.auth.password = env("MLFLOW_TRACKING_PASSWORD");
  return s;
}

TrackingServer::TrackingServer(const ServerSettings& settings)
    : base_(settings.tracking_uri), http_(settings.auth, std::chrono::steady_clock::now() + settings.deadline) {}

std::string TrackingServer::api(const std::string& path) const { return base_ + "/api/2.0/mlflow/" + path; }

std::string TrackingServer::experiment_id(const std::string& name) {
  const auto found = http_.get(api("experiments/get-by-name?experiment_name=" + http_.escape(name)));
  // MLflow's own "no such experiment", not any 404 (a proxy, a wrong path prefix in the URI).
  if (found.status == 404 && is_mlflow_error(found, "RESOURCE_DOES_NOT_EXIST")) {
    const auto made = checked(
        http_.send("POST", api("experiments/create"), nlohmann::json{{"name", name}}.dump(), "application/json"),
        "experiments/create");
    return made.value("experiment_id", "");
  }
  const auto json = checked(found, "experiments/get-by-name");
  return json["experiment"].value("experiment_id", "");
}

std::string TrackingServer::create_run(const std::string& experiment_id, const std::string& run_name,
                                       std::int64_t start_time_ms, const std::vector<KeyValue>& tags) {
  const nlohmann::json body{{"experiment_id", experiment_id},
                            {"run_name", run_name},
                            {"start_time", start_time_ms},
                            {"tags", key_values(tags)}};
  const auto json = checked(http_.send("POST", api("runs/create"), body.dump(), "application/json"), "runs/create");
  std::string id =
      json.value("run", nlohmann::json::object()).value("info", nlohmann::json::object()).value("run_id", "");
  if (id.empty()) throw ServerError("runs/create: the answer names no run_id", true);
  return id;
}

void TrackingServer::log_batch(const std::string& run_id, const std::vector<Metric>& metrics,
                               const std::vector<KeyValue>& params, const std::vector<KeyValue>& tags) {
  nlohmann::json body{{"run_id", run_id}, {"params", key_values(params)}, {"tags", key_values(tags)}};
  body["metrics"] = nlohmann::json::array();
  for (const auto& m : metrics) {
    body["metrics"].push_back(
        {{"key", m.key}, {"value", metric_value(m.value)}, {"timestamp", m.timestamp_ms}, {"step", m.step}});
  }
  checked(http_.send("POST", api("runs/log-batch"), body.dump(), "application/json"), "runs/log-batch");
}

void TrackingServer::update_run(const std::string& run_id, const std::string& status, std::int64_t end_time_ms) {
  const nlohmann::json body{{"run_id", run_id}, {"status", status}, {"end_time", end_time_ms}};
  checked(http_.send("POST", api("runs/update"), body.dump(), "application/json"), "runs/update");
}

std::string TrackingServer::artifact_uri(const std::string& run_id) {
  const auto json = checked(http_.get(api("runs/get?run_id=" + http_.escape(run_id))), "runs/get");
  return json["run"]["info"].value("artifact_uri", "");
}

void TrackingServer::put_artifact(const std::string& artifact_uri, const std::string& path,
                                  const std::string& content) {
  // mlflow-artifacts:/1/RUN/artifacts, or with an authority: mlflow-artifacts://host:port/1/RUN/artifacts.
  constexpr std::string_view kScheme = "mlflow-artifacts:";
  std::string rest = artifact_uri.substr(kScheme.size());
  if (rest.starts_with("//")) rest = rest.substr(std::min(rest.find('/', 2), rest.size()));
  while (rest.starts_with('/')) rest.erase(0, 1);
  std::string url = base_ + "/api/2.0/mlflow-artifacts/artifacts/" + rest;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    url += '/';
    url += http_.escape(path.substr(start, end - start));
    start = end + 1;
  }
  checked(http_.send("PUT", url, content, "application/json"), "mlflow-artifacts PUT " + path);
}

}  // namespace perfzero::mlflow
