#pragma once
// What NCCL says about itself in its own debug output (NCCL_DEBUG=INFO, written to NCCL_DEBUG_FILE)
// and its topology dump (NCCL_TOPO_DUMP_FILE): its version, the network it chose, and the transport
// of every connection between two ranks. Plain text parsing, no CUDA: unit-tested on its own.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

namespace perfzero::nccl {

// One connection as NCCL logs it: "Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read".
struct Connection {
  int from_rank = 0;
  int to_rank = 0;
  std::string via;   // NCCL's own words, e.g. "P2P/CUMEM/read", "SHM/direct/direct", "NET/Socket/0"
  std::string kind;  // the transport class: NVLink, P2P, SHM, socket, IB, EFA plugin, NVLS, ...
  int channels = 0;  // channels seen with this transport
};

struct DebugLog {
  std::string version;                  // "2.28.9+cuda13.0" from "NCCL version ...", empty if not logged
  std::string network;                  // "Socket", "IB", "AWS Libfabric" from "Using network ...", empty if none
  std::vector<Connection> connections;  // one per (from, to, via), sorted
  std::size_t lines_read = 0;
  std::set<std::tuple<int, int, std::string, std::string>> channels_seen;  // (from, to, via, "channel/conn")
};

// GPUs joined by NVLink, from the topology dump: rank -> the bus ids and NVSwitches it links to.
struct NvlinkTopology {
  std::map<int, std::string> bus_id_of_rank;
  std::map<std::string, std::vector<std::string>> links_of_bus;  // bus id -> NVLink targets
  std::map<std::string, bool> has_nvswitch;                      // bus id -> linked to an NVSwitch
  int links = 0;                                                 // <nvlink> elements in the dump
  bool joined(int a, int b) const;                               // a direct NVLink, or both on an NVSwitch
};

// Adds the lines of one debug file to `log` (several ranks' files may be read into one).
void parse_debug_text(std::string_view text, DebugLog& log);
NvlinkTopology parse_topology(std::string_view xml);
// "P2P/CUMEM/read" -> "P2P" (or "NVLink" when the topology joins the two ranks' GPUs by NVLink),
// "SHM/..." -> "SHM", "NET/Socket/0" -> "socket", "NET/IB/0/GDRDMA" -> "IB", "NET/AWS Libfabric/0" or
// "NET/Libfabric/0" -> "EFA plugin", other NET plugins -> "NET plugin <name>", "NVLS" -> "NVLS".
std::string transport_kind(std::string_view via, bool nvlink_between);
void classify(DebugLog& log, const NvlinkTopology& topology);
// {"version", "network", "connections": [{"from", "to", "via", "kind", "channels"}], "kinds": [...]}
nlohmann::json to_json(const DebugLog& log);

}  // namespace perfzero::nccl
