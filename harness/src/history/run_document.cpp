#include "history/run_document.hpp"

#include "history/compressed_text.hpp"
#include "history/sql_connection.hpp"
#include "results/model_json.hpp"

namespace perfzero::history {

std::string compress_document(const nlohmann::json& info, const std::vector<nlohmann::json>& headers,
                              const std::vector<std::vector<nlohmann::json>>& cases) {
  nlohmann::json doc = {{"info", info}, {"headers", headers}, {"cases", nlohmann::json::array()}};
  for (const auto& c : cases) doc["cases"].push_back(c);
  return deflate_text(doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::string compress_document(const results::Run& run) {
  std::vector<nlohmann::json> headers;
  std::vector<std::vector<nlohmann::json>> cases;
  for (const auto& c : run.cases) {
    headers.push_back(results::case_header_to_json(c));
    auto& trials = cases.emplace_back();
    for (const auto& t : c.warmups) trials.push_back(results::trial_to_json(t));
    for (const auto& t : c.trials) trials.push_back(results::trial_to_json(t));
  }
  return compress_document(results::run_info_to_json(run.info), headers, cases);
}

results::Run restore_document(const std::string& bytes, TrialDetail detail) {
  const auto text = inflate_text(bytes);
  if (!text) throw HistoryError("its stored document is not a zlib stream (a damaged database?)");
  // A trial is an object at depth 3 ({"cases": [[{...}]]}), so its keys come at depth 4; a key the
  // callback refuses is parsed past without building its value.
  std::string top_key;
  const nlohmann::json::parser_callback_t skip_samplers = [&top_key](int depth, nlohmann::json::parse_event_t event,
                                                                     nlohmann::json& parsed) {
    if (event != nlohmann::json::parse_event_t::key) return true;
    if (depth == 1) top_key = parsed.get<std::string>();
    return !(depth == 4 && top_key == "cases" && parsed == "samplers");
  };
  const auto doc =
      nlohmann::json::parse(*text, detail == TrialDetail::without_samplers ? skip_samplers : nullptr, false);
  if (!doc.is_object() || !doc.contains("cases") || !doc["cases"].is_array() || !doc.contains("headers") ||
      !doc["headers"].is_array() || doc["headers"].size() != doc["cases"].size() || !doc.contains("info")) {
    throw HistoryError("its stored document is not the JSON this perfzero writes (a damaged database?)");
  }
  results::Run run;
  try {
    run.info = results::run_info_from_json(doc["info"]);
  } catch (const std::exception& e) {
    throw HistoryError(std::string("its stored info cannot be read: ") + e.what());
  }
  const auto& cases = doc["cases"];
  for (std::size_t i = 0; i < cases.size(); ++i) {
    try {
      run.cases.push_back(results::case_header_from_json(doc["headers"][i]));
    } catch (const std::exception& e) {
      throw HistoryError("the header of stored case " + std::to_string(i + 1) + " cannot be read: " + e.what());
    }
    if (!cases[i].is_array()) continue;
    for (const auto& t : cases[i]) {
      results::Trial trial;
      try {
        trial = results::trial_from_json(t);
      } catch (const std::exception& e) {
        throw HistoryError("a stored trial of case '" + run.cases[i].name + "' cannot be read: " + e.what());
      }
      (trial.warmup ? run.cases[i].warmups : run.cases[i].trials).push_back(std::move(trial));
    }
  }
  return run;
}

}  // namespace perfzero::history
