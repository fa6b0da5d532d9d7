#include "history/run_document.hpp"

#include "history/compressed_text.hpp"
#include "history/sql_connection.hpp"
#include "results/model_json.hpp"

namespace perfzero::history {

std::string compress_document(const nlohmann::json& info, const std::vector<std::vector<nlohmann::json>>& cases) {
  nlohmann::json doc = {{"info", info}, {"cases", nlohmann::json::array()}};
  for (const auto& c : cases) doc["cases"].push_back(c);
  return deflate_text(doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void restore_document(const std::string& bytes, results::Run& run) {
  const auto text = inflate_text(bytes);
  if (!text) throw HistoryError("its stored document is not a zlib stream (a damaged database?)");
  const auto doc = nlohmann::json::parse(*text, nullptr, false);
  if (!doc.is_object() || !doc.contains("cases") || !doc["cases"].is_array() || !doc.contains("info")) {
    throw HistoryError("its stored document is not the JSON this perfzero writes (a damaged database?)");
  }
  try {
    run.info = results::run_info_from_json(doc["info"]);
  } catch (const std::exception& e) {
    throw HistoryError(std::string("its stored info cannot be read: ") + e.what());
  }
  const auto& cases = doc["cases"];
  for (std::size_t i = 0; i < cases.size() && i < run.cases.size(); ++i) {
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
}

}  // namespace perfzero::history
