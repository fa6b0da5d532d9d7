#include "mlflow/run_export.hpp"

#include <algorithm>
#include <system_error>

#include <fmt/format.h>

#include "mlflow/export_record.hpp"
#include "mlflow/run_content.hpp"
#include "redact/redact.hpp"

namespace perfzero::mlflow {

namespace {

// MLflow's limits for one runs/log-batch request.
constexpr std::size_t kMaxMetricsPerBatch = 1000;
constexpr std::size_t kMaxParamsPerBatch = 100;
constexpr std::size_t kMaxTagsPerBatch = 100;

template <typename T>
std::vector<std::vector<T>> chunks(const std::vector<T>& items, std::size_t size) {
  std::vector<std::vector<T>> out;
  for (std::size_t i = 0; i < items.size(); i += size) {
    out.emplace_back(items.begin() + static_cast<std::ptrdiff_t>(i),
                     items.begin() + static_cast<std::ptrdiff_t>(std::min(items.size(), i + size)));
  }
  return out;
}

std::vector<KeyValue> changed_tags(const CaseContent& c, const CaseRecord& r) {
  std::vector<KeyValue> out;
  for (const auto& tag : c.tags) {
    const auto it = r.tags.find(tag.key);
    if (it == r.tags.end() || it->second != tag.value) out.push_back(tag);
  }
  return out;
}

// The record's key for a server: its URI without credentials, so that the same server reached with
// other credentials (or none, a token instead) is the same server and gets no second copy.
std::string server_key(const std::string& uri) {
  std::string key = redact::redact_urls(uri);
  const std::string userinfo = std::string("://") + redact::kRedacted + "@";
  if (const auto at = key.find(userinfo); at != std::string::npos) key.replace(at, userinfo.size(), "://");
  return key;
}

class Exporter {
 public:
  Exporter(const results::Run& run, const std::filesystem::path& run_dir, const ServerSettings& settings,
           ExportSummary& summary)
      : settings_(settings),
        summary_(summary),
        record_(ExportRecord::load(run_dir)),
        sent_(record_.server(server_key(settings.tracking_uri))),
        content_(run_content(run, run_dir)) {}

  void send() {
    if (missing().none()) return;
    TrackingServer server(settings_);
    const std::string& name = summary_.experiment;
    if (sent_.experiment_id.empty() || sent_.experiment_name != name) {
      sent_.experiment_id = server.experiment_id(name);
      sent_.experiment_name = name;
      record_.save();
    }
    summary_.experiment_id = sent_.experiment_id;
    for (const auto& c : content_) send_case(server, c, sent_.cases[c.key]);
  }

  // What is still missing, per the record: before sending (nothing missing: no request at all) and
  // once the export is over, whether it ended early or not.
  struct Missing {
    int steps = 0;
    int artifacts = 0;
    int other = 0;  // MLflow runs, parameter sets, tag changes, statuses
    bool none() const { return steps == 0 && artifacts == 0 && other == 0; }
  };

  Missing missing() const {
    Missing m;
    const CaseRecord none;
    for (const auto& c : content_) {
      const auto it = sent_.cases.find(c.key);
      const CaseRecord& r = it != sent_.cases.end() ? it->second : none;
      m.other += r.run_id.empty() ? 1 : 0;
      m.other += !r.params_sent && !c.params.empty() ? 1 : 0;
      m.other += changed_tags(c, r).empty() ? 0 : 1;
      m.other += !c.status.empty() && r.status != c.status ? 1 : 0;
      for (const auto& s : c.steps) m.steps += r.steps.count(s.step) == 0 ? 1 : 0;
      for (const auto& a : c.artifacts) m.artifacts += r.artifacts.count(a.path) == 0 ? 1 : 0;
    }
    return m;
  }

 private:
  void send_case(TrackingServer& server, const CaseContent& c, CaseRecord& r) {
    if (r.run_id.empty()) {
      r.run_id = server.create_run(sent_.experiment_id, c.run_name, c.start_time_ms, c.tags);
      for (const auto& tag : c.tags) r.tags[tag.key] = tag.value;
      ++summary_.runs_made;
      record_.save();
    }
    if (!r.params_sent) {
      for (const auto& part : chunks(c.params, kMaxParamsPerBatch)) server.log_batch(r.run_id, {}, part, {});
      r.params_sent = true;
      record_.save();
    }
    for (const auto& part : chunks(changed_tags(c, r), kMaxTagsPerBatch)) {
      server.log_batch(r.run_id, {}, {}, part);
      for (const auto& tag : part) r.tags[tag.key] = tag.value;
      record_.save();
    }
    send_steps(server, c, r);
    send_artifacts(server, c, r);
    if (!c.status.empty() && r.status != c.status) {
      server.update_run(r.run_id, c.status, c.end_time_ms);
      r.status = c.status;
      record_.save();
    }
  }

  // Whole steps per request where they fit, so that the record never holds half a step.
  void send_steps(TrackingServer& server, const CaseContent& c, CaseRecord& r) {
    std::vector<Metric> batch;
    std::vector<int> in_batch;
    const auto flush = [&] {
      if (batch.empty()) return;
      for (const auto& part : chunks(batch, kMaxMetricsPerBatch)) server.log_batch(r.run_id, part, {}, {});
      r.steps.insert(in_batch.begin(), in_batch.end());
      summary_.steps_sent += static_cast<int>(in_batch.size());
      record_.save();
      batch.clear();
      in_batch.clear();
    };
    for (const auto& step : c.steps) {
      if (r.steps.count(step.step) != 0) continue;
      if (!batch.empty() && batch.size() + step.metrics.size() > kMaxMetricsPerBatch) flush();
      batch.insert(batch.end(), step.metrics.begin(), step.metrics.end());
      in_batch.push_back(step.step);
    }
    flush();
  }

  void send_artifacts(TrackingServer& server, const CaseContent& c, CaseRecord& r) {
    std::string uri;
    for (const auto& a : c.artifacts) {
      if (artifacts_refused_) return;
      if (r.artifacts.count(a.path) != 0) continue;
      const auto text = artifact_text(a.file);
      if (!text) {
        summary_.artifacts_why_not = fmt::format("{} is missing or not JSON", a.file.string());
        continue;
      }
      if (uri.empty()) uri = server.artifact_uri(r.run_id);
      if (!uri.starts_with("mlflow-artifacts:")) {
        refuse_artifacts(
            fmt::format("the server does not take artifacts over HTTP (the run's artifact_uri is '{}'; `mlflow server "
                        "--serve-artifacts` does)",
                        redact::redact_urls(uri)));
        return;
      }
      try {
        server.put_artifact(uri, a.path, *text);
      } catch (const ServerError& e) {
        if (!e.answered()) throw;
        refuse_artifacts(fmt::format("the server refused an artifact: {}", e.what()));
        return;
      }
      r.artifacts.insert(a.path);
      ++summary_.artifacts_sent;
      record_.save();
    }
  }

  // Metrics still go; the other artifacts are not tried against a server that refused one.
  void refuse_artifacts(std::string why) {
    artifacts_refused_ = true;
    summary_.artifacts_why_not = std::move(why);
  }

  const ServerSettings& settings_;
  ExportSummary& summary_;
  ExportRecord record_;
  ServerRecord& sent_;
  std::vector<CaseContent> content_;
  bool artifacts_refused_ = false;
};

}  // namespace

std::vector<std::string> ExportSummary::lines() const {
  std::vector<std::string> out;
  const std::string where = fmt::format("{}, experiment '{}'{}", server, experiment,
                                        experiment_id.empty() ? "" : " (id " + experiment_id + ")");
  if (complete() && steps_sent == 0 && artifacts_sent == 0 && runs_made == 0 && why_not.empty()) {
    out.push_back(fmt::format("MLflow: {}: everything was already sent; nothing to send", where));
    return out;
  }
  out.push_back(fmt::format("MLflow: {}: sent {} step(s) and {} artifact(s); {} new MLflow run(s)", where, steps_sent,
                            artifacts_sent, runs_made));
  if (!complete()) {
    std::string left = fmt::format("{} step(s), {} artifact(s)", steps_left, artifacts_left);
    if (other_left > 0) left += fmt::format(", {} other item(s) (MLflow runs, parameters, tags, statuses)", other_left);
    out.push_back(
        fmt::format("MLflow: NOT sent: {}; `perfzero export mlflow {}` sends what is missing ({} records "
                    "what was sent)",
                    left, run_dir, kRecordFile));
  }
  if (!why_not.empty()) out.push_back("MLflow: stopped: " + why_not);
  if (!artifacts_why_not.empty()) out.push_back("MLflow: artifacts not sent: " + artifacts_why_not);
  return out;
}

ExportSummary export_run(const results::Run& run, const std::filesystem::path& run_dir, const ServerSettings& settings,
                         const std::string& experiment) {
  ExportSummary summary;
  summary.server = redact::redact_urls(settings.tracking_uri);
  summary.run_dir = run_dir.string();
  summary.experiment = experiment.empty() ? experiment_name(run) : redact::redact_text(experiment);
  try {
    Exporter exporter(run, run_dir, settings, summary);
    try {
      exporter.send();
    } catch (const ServerError& e) {
      summary.why_not = e.what();
    } catch (const std::system_error& e) {
      summary.why_not = fmt::format("the export record could not be written: {}", e.what());
    }
    const auto left = exporter.missing();
    summary.steps_left = left.steps;
    summary.artifacts_left = left.artifacts;
    summary.other_left = left.other;
  } catch (const std::exception& e) {
    // The record could not be read, or the client not made: nothing was sent.
    summary.why_not = e.what();
    summary.other_left = std::max(summary.other_left, 1);
  }
  return summary;
}

}  // namespace perfzero::mlflow
