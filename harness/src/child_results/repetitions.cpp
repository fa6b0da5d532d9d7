#include "child_results/repetitions.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

namespace perfzero::child_results {

namespace {

constexpr std::array<std::string_view, 4> kStopReasons{"min_repetitions_and_time", "noise_target", "time_cap",
                                                       "max_repetitions"};

// Fills `record.values` from `values`, counting them against the file's cap; a message on error.
std::optional<std::string> read_values(const nlohmann::json& values, const std::string& where, std::size_t& total,
                                       RepetitionRecord& record) {
  if (!values.is_array() || values.empty()) return where + ": 'values' must be a non-empty list of numbers";
  if (values.size() > kMaxRepetitionValues - total) {
    return fmt::format("{}: more than {} repetition values in the result", where, kMaxRepetitionValues);
  }
  total += values.size();
  record.values.reserve(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!values[i].is_number() || !std::isfinite(values[i].get<double>())) {
      return fmt::format("{}: values[{}] must be a finite number, not {}", where, i,
                         values[i].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    record.values.push_back(values[i].get<double>());
  }
  return std::nullopt;
}

std::variant<RepetitionRecord, std::string> read_record(const nlohmann::json& item, const std::string& where,
                                                        std::size_t& total) {
  if (!item.is_object()) return where + " must be an object";
  RepetitionRecord record;
  const auto name = item.find("name");
  if (name == item.end() || !name->is_string() || name->get<std::string>().empty()) {
    return where + " needs a non-empty string 'name'";
  }
  record.name = name->get<std::string>();
  const std::string named = fmt::format("{} ('{}')", where, record.name);
  if (const auto unit = item.find("unit"); unit != item.end()) {
    if (!unit->is_string()) return named + ": 'unit' must be a string";
    record.unit = unit->get<std::string>();
  }
  const auto values = item.find("values");
  if (values == item.end()) return named + " needs 'values'";
  if (auto error = read_values(*values, named, total, record)) return *error;
  if (const auto warmups = item.find("warmups"); warmups != item.end()) {
    if (!warmups->is_number_integer() || warmups->get<std::int64_t>() < 0) {
      return named + ": 'warmups' must be an integer, 0 or more";
    }
    record.warmups = warmups->get<std::int64_t>();
  }
  if (const auto stop = item.find("stopped_by"); stop != item.end()) {
    const bool known = stop->is_string() && std::find(kStopReasons.begin(), kStopReasons.end(),
                                                      stop->get<std::string>()) != kStopReasons.end();
    if (!known) {
      return named + ": 'stopped_by' must be min_repetitions_and_time, noise_target, time_cap or max_repetitions";
    }
    record.stopped_by = stop->get<std::string>();
  }
  if (const auto noise = item.find("relative_noise"); noise != item.end() && !noise->is_null()) {
    if (!noise->is_number() || !std::isfinite(noise->get<double>()) || noise->get<double>() < 0) {
      return named + ": 'relative_noise' must be a finite number, 0 or more, or null";
    }
    record.relative_noise = noise->get<double>();
  }
  return record;
}

}  // namespace

std::variant<std::vector<RepetitionRecord>, std::string> parse_repetitions(const nlohmann::json& list) {
  if (!list.is_array()) return std::string("'repetitions' must be a list");
  std::vector<RepetitionRecord> records;
  std::size_t total = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    auto record = read_record(list[i], fmt::format("repetitions[{}]", i), total);
    if (auto* error = std::get_if<std::string>(&record)) return std::move(*error);
    auto& parsed = std::get<RepetitionRecord>(record);
    const bool taken =
        std::any_of(records.begin(), records.end(), [&](const RepetitionRecord& r) { return r.name == parsed.name; });
    if (taken) return fmt::format("repetitions[{}]: the name '{}' is used twice", i, parsed.name);
    records.push_back(std::move(parsed));
  }
  return records;
}

nlohmann::json repetitions_json(const std::vector<RepetitionRecord>& records) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : records) {
    out.push_back({{"name", r.name},
                   {"unit", r.unit},
                   {"values", r.values},
                   {"warmups", r.warmups},
                   {"stopped_by", r.stopped_by ? nlohmann::json(*r.stopped_by) : nlohmann::json(nullptr)},
                   {"relative_noise", r.relative_noise ? nlohmann::json(*r.relative_noise) : nlohmann::json(nullptr)}});
  }
  return out;
}

}  // namespace perfzero::child_results
