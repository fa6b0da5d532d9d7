#include "child_results/extras_bound.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace perfzero::child_results {

namespace {

// Levels of objects and lists, the value itself included (a number is 0). Results are parsed with a
// nesting limit (child_results/bounded_json.hpp), so the recursion is bounded.
int depth_of(const nlohmann::json& v) {
  if (!v.is_structured()) return 0;
  int deepest = 0;
  for (const auto& item : v) deepest = std::max(deepest, depth_of(item));
  return deepest + 1;
}

std::size_t compact_size(const nlohmann::json& v) {
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).size();
}

std::string size_text(std::size_t bytes) {
  if (bytes >= (1U << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1U << 20));
  if (bytes >= 1024) return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024);
  return fmt::format("{} bytes", bytes);
}

}  // namespace

std::vector<std::string> bound_extras(nlohmann::json& extras, std::size_t max_bytes, int max_depth) {
  std::vector<std::string> cut;
  if (!extras.is_object()) return cut;
  // Quick when it all fits, which is the usual case.
  if (depth_of(extras) <= max_depth + 1 && compact_size(extras) <= max_bytes) return cut;
  std::size_t kept = 2;  // the braces
  for (auto& [key, value] : extras.items()) {
    const std::size_t size = compact_size(value) + key.size() + 4;
    const int depth = depth_of(value);
    if (depth <= max_depth && kept + size <= max_bytes) {
      kept += size;
      continue;
    }
    cut.push_back(key);
    value = fmt::format(
        "cut by perfzero: {} of JSON{} (reports keep {} of extras, {} levels deep); the trial's result file "
        "holds it whole",
        size_text(size), depth > max_depth ? fmt::format(", {} levels deep", depth) : std::string(),
        size_text(max_bytes), max_depth);
    kept += compact_size(value) + key.size() + 4;
  }
  return cut;
}

}  // namespace perfzero::child_results
