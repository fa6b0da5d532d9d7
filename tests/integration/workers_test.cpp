// perfzero links no benchmark library; the methods come from worker executables, and a method whose
// worker is not installed says which worker it needs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "../unit/scoped_env.hpp"
#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::workers_test {
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

// Start-up asks a worker for its methods once; later start-ups read its answer from the cache until
// the worker's file changes (method_catalog/list_cache.hpp).
TEST_F(WithoutOnednnWorker, AWorkersListIsAskedOnceAndThenReadFromTheCache) {
  const auto worker = install_.write("perfzero-worker-logged",
                                     "#!/bin/sh\necho asked >> \"$(dirname \"$0\")/asked.log\"\n"
                                     "echo '{\"list_protocol_version\": 1, \"worker\": \"logged\", \"methods\": "
                                     "[{\"name\": \"logged.L.benchmark_x\", \"family\": \"logged\", \"class\": \"L\", "
                                     "\"method\": \"benchmark_x\", \"description\": \"x\", \"params\": []}]}'\n");
  std::filesystem::permissions(worker, std::filesystem::perms::owner_all);
  const auto suite = scratch_.write("logged.yaml", "methods:\n  - logged.L.benchmark_x\n");
  const ScopedEnv env{{"XDG_CACHE_HOME", (scratch_.path() / "cache").string()}, {"PERFZERO_WORKER_CACHE", ""}};
  auto asked = [&] {
    const std::string log = slurp(install_.path() / "asked.log");
    return std::count(log.begin(), log.end(), '\n');
  };
  for (int i = 0; i < 3; ++i) EXPECT_EQ(run({"validate", suite.string()}).exit_code, 0);
  EXPECT_EQ(asked(), 1) << "asked by the first start-up only";
  EXPECT_EQ(run({"list"}).out.find("logged.L.benchmark_x") != std::string::npos, true);
  EXPECT_EQ(asked(), 1);
  // Replaced (a new build): asked again.
  const std::string text = slurp(worker);
  std::filesystem::remove(worker);
  std::filesystem::copy_file(scratch_.write("new", text), worker);
  std::filesystem::permissions(worker, std::filesystem::perms::owner_all);
  EXPECT_EQ(run({"validate", suite.string()}).exit_code, 0);
  EXPECT_EQ(asked(), 2);
  const ScopedEnv off{{"PERFZERO_WORKER_CACHE", "off"}};
  EXPECT_EQ(run({"validate", suite.string()}).exit_code, 0);
  EXPECT_EQ(asked(), 3) << "PERFZERO_WORKER_CACHE=off asks every time";
  // A suite of external commands needs no worker's list, cached or not: none is asked.
  const auto commands =
      scratch_.write("commands.yaml", "methods:\n  - {name: t, command: [/bin/true], output: none}\n");
  EXPECT_EQ(run({"validate", commands.string()}).exit_code, 0);
  const auto f = run({"--config=" + commands.string(), "--output_dir=run"});
  EXPECT_EQ(f.exit_code, 0) << f.err;
  EXPECT_EQ(asked(), 3) << "no worker started for a suite of external commands";
  // One built-in method among them, or --benchmark_methods, asks them.
  EXPECT_EQ(run({"--config=" + commands.string(), "--benchmark_methods=logged.L.benchmark_x", "--dry_run"}).exit_code,
            0);
  EXPECT_EQ(asked(), 4);
}

}  // namespace
}  // namespace perfzero::testing::workers_test
