// The nccl family's host side, which needs no GPU: sizes and bus factors as nccl-tests defines them,
// inputs and answers that agree with what each operation does (computed here from the operation's
// definition, rank by rank), and what is read from NCCL's debug output and topology dump.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "nccl/nccl_debug_log.hpp"
#include "nccl/nccl_operations.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::nccl::nccl_host_test {
namespace {

const Operation kAll[] = {Operation::all_reduce, Operation::all_gather, Operation::reduce_scatter,
                          Operation::alltoall,   Operation::broadcast,  Operation::sendrecv};

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(PERFZERO_FIXTURES_DIR) + "/nccl/" + name);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << name;
  return text.str();
}

// nccl-tests' doc/PERFORMANCE.md, for 8 ranks and a 256 MiB message.
TEST(NcclLayout, SizesAndBusFactorsAreNcclTests) {
  constexpr std::uint64_t kBytes = 256ULL << 20;
  const Layout all_reduce = layout_of(Operation::all_reduce, kBytes, 8);
  EXPECT_EQ(all_reduce.size_bytes, kBytes);
  EXPECT_DOUBLE_EQ(all_reduce.bus_factor, 2.0 * 7 / 8);
  EXPECT_EQ(all_reduce.send_count, kBytes / 4);
  const Layout all_gather = layout_of(Operation::all_gather, kBytes, 8);
  EXPECT_EQ(all_gather.send_count, kBytes / 4 / 8);  // each rank's share
  EXPECT_EQ(all_gather.recv_count, kBytes / 4);
  EXPECT_EQ(all_gather.size_bytes, kBytes);
  EXPECT_DOUBLE_EQ(all_gather.bus_factor, 7.0 / 8);
  const Layout reduce_scatter = layout_of(Operation::reduce_scatter, kBytes, 8);
  EXPECT_EQ(reduce_scatter.send_count, kBytes / 4);
  EXPECT_EQ(reduce_scatter.recv_count, kBytes / 4 / 8);
  EXPECT_DOUBLE_EQ(reduce_scatter.bus_factor, 7.0 / 8);
  const Layout alltoall = layout_of(Operation::alltoall, kBytes, 8);
  EXPECT_EQ(alltoall.size_bytes, kBytes);
  EXPECT_DOUBLE_EQ(alltoall.bus_factor, 7.0 / 8);
  EXPECT_FALSE(alltoall.in_place);
  EXPECT_DOUBLE_EQ(layout_of(Operation::broadcast, kBytes, 8).bus_factor, 1.0);
  EXPECT_DOUBLE_EQ(layout_of(Operation::sendrecv, kBytes, 8).bus_factor, 1.0);
  EXPECT_FALSE(layout_of(Operation::sendrecv, kBytes, 8).in_place);
  // One rank moves nothing over a bus: busbw is 0 for the reductions and gathers (as nccl-tests -g 1).
  EXPECT_DOUBLE_EQ(layout_of(Operation::all_reduce, kBytes, 1).bus_factor, 0.0);
  EXPECT_DOUBLE_EQ(layout_of(Operation::all_gather, kBytes, 1).bus_factor, 0.0);
}

TEST(NcclLayout, ASizeThatDoesNotSplitEvenlyIsRoundedDownToWholeShares) {
  const Layout l = layout_of(Operation::all_gather, 1000, 3);  // 250 floats among 3 ranks
  EXPECT_EQ(l.chunk, 83U);
  EXPECT_EQ(l.size_bytes, 83U * 3 * 4);
  EXPECT_EQ(layout_of(Operation::all_gather, 4, 8).chunk, 1U);  // never an empty share
}

// What each rank receives, from the operation's definition and every rank's input.
std::vector<float> simulate(Operation op, const Layout& l, int rank, int n) {
  std::vector<std::vector<float>> in;
  in.reserve(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) in.push_back(input_of(op, l, r));
  std::vector<float> out(l.recv_count, 0);
  for (std::size_t i = 0; i < out.size(); ++i) {
    switch (op) {
      case Operation::all_reduce:
        for (int r = 0; r < n; ++r) out[i] += in[r][i];
        break;
      case Operation::all_gather:
        out[i] = in[i / l.chunk][i % l.chunk];
        break;
      case Operation::reduce_scatter:
        for (int r = 0; r < n; ++r) out[i] += in[r][rank * l.chunk + i];
        break;
      case Operation::alltoall:
        out[i] = in[i / l.chunk][rank * l.chunk + i % l.chunk];
        break;
      case Operation::broadcast:
        out[i] = in[0][i];
        break;
      case Operation::sendrecv:
        out[i] = in[(rank - 1 + n) % n][i];
        break;
    }
  }
  return out;
}

TEST(NcclOperations, TheAnswerEveryRankIsCheckedAgainstIsWhatTheOperationComputes) {
  for (const Operation op : kAll) {
    for (const int n : {1, 2, 3, 8}) {
      const Layout l = layout_of(op, 4 * 7 * 24 + 4 * 5, n);
      for (int rank = 0; rank < n; ++rank) {
        const std::vector<float> got = simulate(op, l, rank, n);
        ASSERT_EQ(got.size(), result_count(op, l));
        const CheckResult c = check_result(op, l, rank, n, got);
        EXPECT_EQ(c.wrong, 0) << name_of(op) << " n=" << n << " " << c.first;
      }
    }
  }
}

TEST(NcclOperations, AWrongElementIsCountedAndNamed) {
  const Layout l = layout_of(Operation::all_reduce, 64, 4);
  std::vector<float> got = simulate(Operation::all_reduce, l, 2, 4);
  got[5] += 1;
  got[9] = -1;
  const CheckResult c = check_result(Operation::all_reduce, l, 2, 4, got);
  EXPECT_EQ(c.wrong, 2);
  EXPECT_EQ(c.first, "rank 2: element 5 is 31, expected 30");
}

TEST(NcclOperations, InPlaceInputsAndResultsSitWhereNcclPutsThem) {
  const Layout gather = layout_of(Operation::all_gather, 4096, 4);
  EXPECT_EQ(in_place_input_offset(Operation::all_gather, gather, 3), 3 * gather.chunk);
  EXPECT_EQ(in_place_result_offset(Operation::all_gather, gather, 3), 0U);
  const Layout scatter = layout_of(Operation::reduce_scatter, 4096, 4);
  EXPECT_EQ(in_place_input_offset(Operation::reduce_scatter, scatter, 3), 0U);
  EXPECT_EQ(in_place_result_offset(Operation::reduce_scatter, scatter, 3), 3 * scatter.chunk);
}

TEST(NcclDebugLog, ReadsVersionNetworkAndEveryConnectionOfEveryRanksFile) {
  DebugLog log;
  parse_debug_text(fixture("debug-two-hosts-rank0.log"), log);
  parse_debug_text(fixture("debug-two-hosts-rank2.log"), log);
  parse_debug_text(fixture("debug-two-hosts-rank3.log"), log);
  classify(log, parse_topology(fixture("topology-pcie.xml")));
  EXPECT_EQ(log.version, "2.28.9+cuda13.0");
  EXPECT_EQ(log.network, "Socket");
  ASSERT_EQ(log.connections.size(), 4U);  // the WARN line is not a connection
  const auto& c = log.connections;
  EXPECT_EQ(c[0].from_rank, 0);
  EXPECT_EQ(c[0].to_rank, 1);
  EXPECT_EQ(c[0].via, "P2P/CUMEM/read");
  EXPECT_EQ(c[0].kind, "P2P");
  EXPECT_EQ(c[0].channels, 2);
  EXPECT_EQ(c[1].from_rank, 1);
  EXPECT_EQ(c[1].to_rank, 2);
  EXPECT_EQ(c[1].kind, "socket");
  EXPECT_EQ(c[2].from_rank, 2);
  EXPECT_EQ(c[2].to_rank, 3);
  EXPECT_EQ(c[3].from_rank, 3);
  EXPECT_EQ(c[3].to_rank, 0);
  EXPECT_EQ(c[3].via, "NET/Socket/0");
  // Each channel once, though both ends log a network connection and both ranks of host 2 the P2P one.
  for (const auto& connection : c) EXPECT_EQ(connection.channels, 2) << connection.via;
  const auto doc = to_json(log);
  EXPECT_EQ(doc["kinds"], nlohmann::json::array({"P2P", "socket"}));
  EXPECT_EQ(doc["connections"].size(), 4U);
}

TEST(NcclDebugLog, ANetworkPluginsNameWithSpacesIsReadWhole) {
  DebugLog log;
  parse_debug_text(fixture("debug-efa.log"), log);
  classify(log, NvlinkTopology{});
  EXPECT_EQ(log.network, "AWS Libfabric");
  ASSERT_EQ(log.connections.size(), 2U);
  EXPECT_EQ(log.connections[0].via, "NET/AWS Libfabric/0/GDRDMA");
  EXPECT_EQ(log.connections[0].kind, "EFA plugin");
  EXPECT_EQ(log.connections[1].kind, "EFA plugin");
}

TEST(NcclDebugLog, PeerToPeerBetweenGpusOnOneNvswitchIsNvlink) {
  const NvlinkTopology nvswitch = parse_topology(fixture("topology-nvswitch.xml"));
  EXPECT_EQ(nvswitch.links, 4);
  EXPECT_EQ(nvswitch.bus_id_of_rank.at(0), "0000:19:00.0");
  EXPECT_EQ(nvswitch.bus_id_of_rank.at(1), "0000:3b:00.0");
  EXPECT_TRUE(nvswitch.joined(0, 1));
  EXPECT_FALSE(nvswitch.joined(0, 2));  // rank 2 is not in this host's dump
  const NvlinkTopology pcie = parse_topology(fixture("topology-pcie.xml"));
  EXPECT_EQ(pcie.links, 0);
  EXPECT_FALSE(pcie.joined(0, 1));
  // A direct link names the other GPU's bus id.
  const NvlinkTopology direct = parse_topology(
      R"(<system><cpu><pci busid="0000:01:00.0"><gpu dev="0" rank="0"><nvlink target="0000:02:00.0" count="12" tclass="0x030200"/></gpu></pci>)"
      R"(<pci busid="0000:02:00.0"><gpu dev="1" rank="1"><nvlink target="0000:01:00.0" count="12" tclass="0x030200"/></gpu></pci></cpu></system>)");
  EXPECT_TRUE(direct.joined(0, 1));
  EXPECT_TRUE(direct.joined(1, 0));
}

TEST(NcclDebugLog, TransportsAreNamedByClass) {
  EXPECT_EQ(transport_kind("P2P/CUMEM/read", true), "NVLink");
  EXPECT_EQ(transport_kind("P2P/IPC", false), "P2P");
  EXPECT_EQ(transport_kind("SHM/direct/direct", false), "SHM");
  EXPECT_EQ(transport_kind("NET/IB/0/GDRDMA", false), "IB");
  EXPECT_EQ(transport_kind("NET/Socket/1", false), "socket");
  EXPECT_EQ(transport_kind("NET/AWS Libfabric/0/GDRDMA", false), "EFA plugin");
  EXPECT_EQ(transport_kind("NET/Libfabric/3", false), "EFA plugin");
  EXPECT_EQ(transport_kind("NET/GCP-TCPX/0", false), "NET plugin GCP-TCPX");
  EXPECT_EQ(transport_kind("NVLS", false), "NVLS");
}

TEST(NcclDebugLog, HostileTextIsReadWithoutHarm) {
  DebugLog log;
  std::string junk = "\xff\xfe NCCL INFO Channel 00/0 : 99999999999999999999[0] -> 1[1] via P2P\n";
  junk += std::string(1 << 20, 'x') + "\nNCCL INFO NCCL version \n";
  EXPECT_NO_THROW(parse_debug_text(junk, log));
  EXPECT_TRUE(log.connections.empty());
  NvlinkTopology t;
  EXPECT_NO_THROW(t = parse_topology("<gpu rank=\"x\"><pci busid=\"a\"><gpu rank=\"99999999999999\"></system"));
}

}  // namespace
}  // namespace perfzero::nccl::nccl_host_test
