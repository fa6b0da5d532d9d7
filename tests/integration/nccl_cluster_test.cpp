// The nccl family across hosts of the three-host cluster (slurm_cluster.hpp), one rank per GPU. No
// GPU exists here, so what is tested is how the ranks end without one: every rank skips (none waits
// out join_timeout for a communicator), rank 0 publishes its reason where the others would look for
// the unique id, and the trial is skipped with the reason, nothing left on any host. A rank that
// reads rank 0's reason instead of an id is tested in tests/unit/nccl_unique_id_test.cpp. With GPUs
// the same launch forms the communicator through the id rank 0 publishes; that path is unverified
// until a multi-GPU machine is lent.
#include <chrono>
#include <filesystem>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "slurm_cluster.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::nccl_cluster_test {
namespace {

TEST_F(SlurmCluster, NcclRanksWithoutAGpuAllEndSkippedAtOnce) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - method: nccl.Collectives.benchmark_all_reduce
    params: {bytes: 1048576, join_timeout: 600}
    launch: {engine: slurm, nodes: 2, hosts: [pz-node1, pz-node2]}
    timeout: 15m
)yaml");
  const auto out = dir.path() / "run";
  const auto start = std::chrono::steady_clock::now();
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto run = read_json(out / "run.json");
  const auto case_dir = run["plan"][0]["dir"].get<std::string>();
  const auto rep = report(out, case_dir);
  EXPECT_EQ(rep["perfzero_cpp"]["outcome"], "skipped") << detail_of(rep);
  EXPECT_NE(detail_of(rep).find("no CUDA device"), std::string::npos) << detail_of(rep);
  EXPECT_EQ(rep["perfzero_cpp"]["ranks"]["world_size"], 2);
  EXPECT_EQ(rep["perfzero_cpp"]["ranks"]["missing"], nlohmann::json::array()) << rep["perfzero_cpp"]["ranks"].dump();
  // Rank 0's reason, in the file rank 1 waited on.
  const auto published = read_json(out / case_dir / "trial_1" / "nccl_unique_id.json");
  EXPECT_NE(published["skipped"].get<std::string>().find("no CUDA device"), std::string::npos) << published.dump();
  // Not join_timeout (600 s): no rank waits for a communicator that cannot form.
  EXPECT_LT(took, std::chrono::seconds(300));
  EXPECT_EQ(leftovers_after(std::chrono::seconds(10)), "");
}

}  // namespace
}  // namespace perfzero::testing::nccl_cluster_test
