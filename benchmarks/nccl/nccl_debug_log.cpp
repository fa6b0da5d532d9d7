#include "nccl/nccl_debug_log.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <regex>
#include <set>
#include <tuple>

namespace perfzero::nccl {

namespace {

// NCCL's format (src/transport/*.cc): "Channel %02d/%d : %d[%d] -> %d[%d] [send] via NET/%s/%d..."
// and, for P2P and SHM, the same without "[send]"/"[receive]". Ranks, then devices in brackets.
// The transport is the rest of the line: a network plugin's name may hold spaces ("AWS Libfabric").
const std::regex kConnection(
    R"(Channel (\d+/\d+) : (\d+)\[\d+\] -> (\d+)\[\d+\] (?:\[(?:send|receive)\] )?via (.+?)\s*$)");
const std::regex kVersion(R"(NCCL INFO NCCL version (\S+))");
const std::regex kNetwork(R"(NCCL INFO Using network (.+?)\s*$)");
const std::regex kAttribute(R"re(\b([a-z_]+)="([^"]*)")re");

// NCCL's class for a bridge: an NVSwitch in the topology dump (src/graph/xml.h).
constexpr std::string_view kNvswitchClass = "0x068000";

// A rank as written, or nothing for what is not a small whole number (a hostile or garbled file).
std::optional<int> to_rank(const std::string& text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

std::map<std::string, std::string> attributes(const std::string& tag) {
  std::map<std::string, std::string> found;
  for (std::sregex_iterator it(tag.begin(), tag.end(), kAttribute), end; it != end; ++it) {
    found[(*it)[1].str()] = (*it)[2].str();
  }
  return found;
}

}  // namespace

bool NvlinkTopology::joined(int a, int b) const {
  const auto bus_a = bus_id_of_rank.find(a);
  const auto bus_b = bus_id_of_rank.find(b);
  if (bus_a == bus_id_of_rank.end() || bus_b == bus_id_of_rank.end()) return false;
  const auto switched = [this](const std::string& bus) {
    const auto it = has_nvswitch.find(bus);
    return it != has_nvswitch.end() && it->second;
  };
  if (switched(bus_a->second) && switched(bus_b->second)) return true;
  const auto targets = links_of_bus.find(bus_a->second);
  if (targets == links_of_bus.end()) return false;
  return std::find(targets->second.begin(), targets->second.end(), bus_b->second) != targets->second.end();
}

void parse_debug_text(std::string_view text, DebugLog& log) {
  std::set<std::tuple<int, int, std::string>> seen;
  for (const auto& c : log.connections) seen.emplace(c.from_rank, c.to_rank, c.via);
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string line(text.substr(start, end - start));
    start = end + 1;
    ++log.lines_read;
    if (line.find("NCCL INFO") == std::string::npos) continue;
    std::smatch m;
    if (std::regex_search(line, m, kConnection)) {
      const auto from_rank = to_rank(m[2].str());
      const auto to_rank_ = to_rank(m[3].str());
      if (!from_rank || !to_rank_) continue;
      const int from = *from_rank;
      const int to = *to_rank_;
      const std::string via = m[4].str();
      auto same = [&](const Connection& c) { return c.from_rank == from && c.to_rank == to && c.via == via; };
      if (seen.emplace(from, to, via).second) log.connections.push_back({from, to, via, "", 0});
      // A network connection is logged by both ends ([send] and [receive]): a channel counts once.
      if (log.channels_seen.emplace(from, to, via, m[1].str()).second) {
        ++std::find_if(log.connections.begin(), log.connections.end(), same)->channels;
      }
    } else if (log.version.empty() && std::regex_search(line, m, kVersion)) {
      log.version = m[1].str();
    } else if (log.network.empty() && std::regex_search(line, m, kNetwork)) {
      log.network = m[1].str();
    }
  }
  std::sort(log.connections.begin(), log.connections.end(), [](const Connection& a, const Connection& b) {
    return std::tie(a.from_rank, a.to_rank, a.via) < std::tie(b.from_rank, b.to_rank, b.via);
  });
}

NvlinkTopology parse_topology(std::string_view xml) {
  NvlinkTopology topology;
  std::vector<std::string> pci_stack;
  std::string gpu_bus;
  std::size_t pos = 0;
  while ((pos = xml.find('<', pos)) != std::string_view::npos) {
    const std::size_t close = xml.find('>', pos);
    if (close == std::string_view::npos) break;
    const std::string tag(xml.substr(pos, close - pos + 1));
    pos = close + 1;
    const bool self_closing = tag.size() >= 2 && tag[tag.size() - 2] == '/';
    if (starts_with(tag, "</pci")) {
      if (!pci_stack.empty()) pci_stack.pop_back();
    } else if (starts_with(tag, "</gpu")) {
      gpu_bus.clear();
    } else if (starts_with(tag, "<pci ")) {
      if (!self_closing) pci_stack.push_back(attributes(tag)["busid"]);
    } else if (starts_with(tag, "<gpu ")) {
      const auto a = attributes(tag);
      gpu_bus = pci_stack.empty() ? "" : pci_stack.back();
      if (const auto rank = a.find("rank"); rank != a.end() && !gpu_bus.empty()) {
        if (const auto r = to_rank(rank->second)) topology.bus_id_of_rank[*r] = gpu_bus;
      }
      if (self_closing) gpu_bus.clear();
    } else if (starts_with(tag, "<nvlink ")) {
      ++topology.links;
      if (gpu_bus.empty()) continue;
      auto a = attributes(tag);
      topology.links_of_bus[gpu_bus].push_back(a["target"]);
      if (a["tclass"] == kNvswitchClass) topology.has_nvswitch[gpu_bus] = true;
    }
  }
  return topology;
}

std::string transport_kind(std::string_view via, bool nvlink_between) {
  if (starts_with(via, "P2P")) return nvlink_between ? "NVLink" : "P2P";
  if (starts_with(via, "SHM")) return "SHM";
  if (starts_with(via, "NVLS")) return "NVLS";
  if (starts_with(via, "COLLNET")) return "CollNet";
  if (starts_with(via, "NET/")) {
    std::string_view name = via.substr(4);
    name = name.substr(0, name.find('/'));
    if (name == "Socket") return "socket";
    if (name == "IB") return "IB";
    if (name.find("Libfabric") != std::string_view::npos || name.find("OFI") != std::string_view::npos) {
      return "EFA plugin";
    }
    return "NET plugin " + std::string(name);
  }
  return std::string(via.substr(0, via.find('/')));
}

void classify(DebugLog& log, const NvlinkTopology& topology) {
  for (auto& c : log.connections) c.kind = transport_kind(c.via, topology.joined(c.from_rank, c.to_rank));
}

nlohmann::json to_json(const DebugLog& log) {
  nlohmann::json connections = nlohmann::json::array();
  std::set<std::string> kinds;
  for (const auto& c : log.connections) {
    connections.push_back(
        {{"from", c.from_rank}, {"to", c.to_rank}, {"via", c.via}, {"kind", c.kind}, {"channels", c.channels}});
    kinds.insert(c.kind);
  }
  return {{"version", log.version},
          {"network", log.network},
          {"connections", connections},
          {"kinds", std::vector<std::string>(kinds.begin(), kinds.end())}};
}

}  // namespace perfzero::nccl
