#include "fleet_report/clusters.hpp"

#include <algorithm>
#include <set>

namespace perfzero::fleet_report {

namespace {

const nlohmann::json& hosts_in(const results::Trial& t) {
  static const nlohmann::json kNone = nlohmann::json::array();
  if (!t.ranks.is_object()) return kNone;
  const auto it = t.ranks.find("hosts");
  return it != t.ranks.end() && it->is_array() ? *it : kNone;
}

int launch_nodes(const nlohmann::json& launch) {
  if (!launch.is_object()) return 0;
  const auto it = launch.find("nodes");
  return it != launch.end() && it->is_number_integer() ? it->get<int>() : 0;
}

}  // namespace

int nodes_of(const results::Case& c) {
  std::size_t most = 0;
  for (const auto& t : c.trials) {
    std::set<std::string> names;
    for (const auto& h : hosts_in(t)) {
      if (h.is_object() && h.contains("hostname") && h["hostname"].is_string()) {
        names.insert(h["hostname"].get<std::string>());
      }
    }
    most = std::max(most, names.size());
  }
  if (most > 0) return static_cast<int>(most);
  if (const int n = launch_nodes(c.launch); n > 0) return n;
  for (const auto& t : c.trials) {
    if (const int n = launch_nodes(t.ranks); n > 0) return n;
  }
  return 1;
}

nlohmann::json hosts_of(const results::Case& c) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& t : c.trials) {
    for (const auto& h : hosts_in(t)) {
      if (!h.is_object()) continue;
      nlohmann::json kept = nlohmann::json::object();
      for (const char* key : {"hostname", "system_info", "same_machine_as"}) {
        if (h.contains(key)) kept[key] = h[key];
      }
      out.push_back(std::move(kept));
    }
    if (!out.empty()) break;
  }
  return out;
}

std::string method_name_of(const std::string& case_name) {
  static constexpr std::string_view kKey = "launch.nodes=";
  const auto open = case_name.find('[');
  if (open == std::string::npos || !case_name.ends_with("]")) return case_name;
  // The parameters are "a=1,launch.nodes=2,..." between the brackets; values of other parameters
  // may hold anything, so only a whole "launch.nodes=DIGITS" entry is taken out.
  const std::string inside = case_name.substr(open + 1, case_name.size() - open - 2);
  std::vector<std::string> kept;
  bool found = false;
  std::size_t start = 0;
  while (start <= inside.size()) {
    std::size_t comma = inside.find(',', start);
    if (comma == std::string::npos) comma = inside.size();
    const std::string part = inside.substr(start, comma - start);
    const bool digits =
        part.size() > kKey.size() && std::all_of(part.begin() + static_cast<std::ptrdiff_t>(kKey.size()), part.end(),
                                                 [](char ch) { return ch >= '0' && ch <= '9'; });
    if (!found && part.starts_with(kKey) && digits) {
      found = true;
    } else {
      kept.push_back(part);
    }
    start = comma + 1;
  }
  if (!found) return case_name;
  std::string out = case_name.substr(0, open);
  if (kept.empty()) return out;
  out += '[';
  for (std::size_t i = 0; i < kept.size(); ++i) out += (i == 0 ? "" : ",") + kept[i];
  return out + "]";
}

}  // namespace perfzero::fleet_report
