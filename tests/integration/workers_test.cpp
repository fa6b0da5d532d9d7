// perfzero links no benchmark library; the methods come from worker executables, and a method whose
// worker is not installed says which worker it needs.
#include <gtest/gtest.h>

#include <cstdio>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

namespace perfzero::testing {
namespace {

const std::string kOnednnMessage =
    "onednn.Matmul.benchmark_matmul_fp32 needs the oneDNN worker (perfzero-worker-onednn), which this build/image "
    "does not include";

std::string command_output(const std::string& command) {
  std::string out;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  ::pclose(pipe);
  return out;
}

TEST(Workers, PerfzeroLinksNoBenchmarkLibrary) {
  const auto libraries = command_output("ldd " + (kBinDir / "harness" / "perfzero").string() + " 2>&1");
  ASSERT_NE(libraries.find("libc.so"), std::string::npos) << libraries;
  for (const char* library : {"dnnl", "gomp", "libomp", "libiomp", "cuda", "OpenCL"}) {
    EXPECT_EQ(libraries.find(library), std::string::npos) << library << " in\n" << libraries;
  }
}

TEST(Workers, EveryWorkerListsItsMethods) {
  const auto core =
      nlohmann::json::parse(command_output((kBinDir / "harness" / "perfzero-worker-core").string() + " --list-json"));
  EXPECT_EQ(core.at("worker"), "core");
  EXPECT_EQ(core.at("list_protocol_version"), 1);
  for (const auto& m : core.at("methods")) EXPECT_NE(m.at("family"), "onednn") << m.dump();
}

class WithoutOnednnWorker : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* binary : {"perfzero", "perfzero-launch", "perfzero-worker-core"}) {
      std::filesystem::copy_file(kBinDir / "harness" / binary, install_.path() / binary);
    }
  }
  Finished run(const std::vector<std::string>& args) {
    return run_perfzero(args, scratch_.path(), install_.path() / "perfzero");
  }
  TempDir install_;
  TempDir scratch_;
};

TEST_F(WithoutOnednnWorker, AMethodNamesTheMissingWorker) {
  const auto f = run({"--benchmark_methods=onednn.Matmul.benchmark_matmul_fp32"});
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_EQ(f.err, "perfzero: error: --benchmark_methods: " + kOnednnMessage + "\n");
  const auto core = run({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run"});
  EXPECT_EQ(core.exit_code, 0) << core.err;
}

TEST_F(WithoutOnednnWorker, ASuiteNamesTheMissingWorker) {
  const auto suite =
      scratch_.write("onednn.yaml", "suite: needs_onednn\nmethods:\n  - onednn.Matmul.benchmark_matmul_fp32\n");
  const auto f = run({"validate", suite.string()});
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_NE(f.err.find(suite.string() + ":3:5: " + kOnednnMessage), std::string::npos) << f.err;
}

}  // namespace
}  // namespace perfzero::testing
