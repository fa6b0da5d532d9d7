// --lock_gpu_clocks and the doctor's GPU checks on the real binary. No GPU can exist here, so
// perfzero is pointed at the tests' fake libnvidia-ml (tests/fakes/fake_nvml.c), whose locked
// clocks outlive a process as a driver's do (FAKE_NVML_STATE_DIR); the rest is real.
#include <gtest/gtest.h>

#include <csignal>
#include <optional>
#include <thread>

#include "../unit/scoped_env.hpp"
#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::gpu_clock_lock_test {
namespace {

// While its trial runs, the method copies what the driver holds locked.
const char* const kSeeLocksSuite = R"(
methods:
  - name: see_locks
    command: [/bin/sh, -c, 'sleep 0.5; cat "$FAKE_NVML_STATE_DIR"/gpu0.locked "$FAKE_NVML_STATE_DIR"/gpu1.locked > "$FAKE_NVML_STATE_DIR"/seen']
    output: none
)";

TEST(GpuClockLock, EveryGpuIsHeldForTheRunAndReleasedAfterIt) {
  TempDir dir;
  const auto state = dir.path() / "driver";
  std::filesystem::create_directories(state);
  const ScopedEnv env{{"PERFZERO_TEST_NVML_LIBRARY", PERFZERO_FAKE_NVML},
                      {"FAKE_NVML_GPUS", "2"},
                      {"FAKE_NVML_STATE_DIR", state.string()}};
  const auto f = run_perfzero(
      {"--config=" + dir.write("s.yaml", kSeeLocksSuite).string(), "--output_dir=run", "--lock_gpu_clocks=base"},
      dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  EXPECT_NE((f.out + f.err).find("GPU clocks locked at base for the run"), std::string::npos) << f.out << f.err;
  EXPECT_EQ(slurp(state / "seen"), "1590 1590\n1590 1590\n") << "both GPUs at the TDP clock during the trial";
  EXPECT_FALSE(std::filesystem::exists(state / "gpu0.locked")) << "released after the run";
  EXPECT_FALSE(std::filesystem::exists(state / "gpu1.locked"));
  const auto run = read_json(dir.path() / "run" / "run.json");
  const auto& lock = run["run"]["system"]["gpu_clock_lock"];
  ASSERT_TRUE(lock.is_object()) << run["run"]["system"].dump();
  EXPECT_EQ(lock["mode"], "base");
  ASSERT_EQ(lock["gpus"].size(), 2U);
  EXPECT_EQ(lock["gpus"][1]["sm_clock_mhz"], 1590);
  EXPECT_EQ(lock["gpus"][1]["model"], "Fake A100-SXM4-40GB");
}

// A run of a 30 s method with the clocks locked, started and left in its trial.
struct LockedLongRun {
  TempDir dir;
  std::filesystem::path state = dir.path() / "driver";
  ScopedEnv env{{"PERFZERO_TEST_NVML_LIBRARY", PERFZERO_FAKE_NVML},
                {"FAKE_NVML_STATE_DIR", state.string()},
                {"PERFZERO_TEST_GPU_LOCK_FILE", (dir.path() / "host.lock").string()}};
  std::optional<RunningPerfzero> perfzero;

  explicit LockedLongRun(const std::string& how) {
    std::filesystem::create_directories(state);
    const auto suite = dir.write("s.yaml", "methods:\n  - {name: long, command: [/bin/sleep, '30'], output: none}\n");
    perfzero.emplace(
        std::vector<std::string>{"--config=" + suite.string(), "--output_dir=run", "--lock_gpu_clocks=" + how},
        dir.path());
    for (int i = 0; i < 200 && !std::filesystem::exists(dir.path() / "run" / "long" / "trial_1"); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
};

TEST(GpuClockLock, AStopBySignalStillReleasesTheClocks) {
  LockedLongRun run("max");
  const auto& state = run.state;
  auto& p = *run.perfzero;
  EXPECT_EQ(slurp(state / "gpu0.locked"), "1980 1980\n") << "max: the highest SM clock as both bounds";
  p.signal(SIGTERM);
  const auto f = p.wait();
  EXPECT_EQ(f.exit_code, 128 + SIGTERM) << f.err;
  EXPECT_FALSE(std::filesystem::exists(state / "gpu0.locked")) << f.err;
}

TEST(GpuClockLock, AKillNineLeavesThemLockedAndTheDoctorAndTheNextRunSaySo) {
  LockedLongRun run("base");
  const auto& state = run.state;
  const auto& dir = run.dir;
  auto& p = *run.perfzero;
  p.signal(SIGKILL);
  (void)p.wait();
  ASSERT_TRUE(std::filesystem::exists(state / "gpu0.locked")) << "nothing runs after a kill -9";
  const auto doctor = run_perfzero({"doctor", "--quick", "--format=json"}, dir.path() / "d");
  const auto checks = nlohmann::json::parse(doctor.out);
  int seen = 0;
  for (const auto& c : checks["checks"]) {
    if (c["name"] != "gpu0_clocks") continue;
    ++seen;
    EXPECT_EQ(c["status"], "ok") << c.dump();
    EXPECT_NE(c["found"].get<std::string>().find("held by a user setting"), std::string::npos) << c.dump();
  }
  EXPECT_EQ(seen, 1) << doctor.out;
  // Held by a setting NVML cannot read back: the next run refuses it rather than reset it later.
  auto again = run_perfzero(
      {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=again", "--lock_gpu_clocks=base"}, dir.path());
  EXPECT_EQ(again.exit_code, 2) << again.err;
  EXPECT_NE(again.err.find("GPU 0's clocks are already held by a setting"), std::string::npos) << again.err;
  EXPECT_NE(again.err.find("nvidia-smi -rgc releases it"), std::string::npos) << again.err;
  EXPECT_TRUE(std::filesystem::exists(state / "gpu0.locked")) << "left as it was";
  std::filesystem::remove(state / "gpu0.locked");  // what nvidia-smi -rgc does to the fake
  again = run_perfzero(
      {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=again", "--lock_gpu_clocks=base"}, dir.path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_FALSE(std::filesystem::exists(state / "gpu0.locked"));
}

TEST(GpuClockLock, ASecondRunOnTheHostIsRefusedAndTheFirstKeepsItsLock) {
  LockedLongRun first("base");
  const auto second = run_perfzero(
      {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=second", "--lock_gpu_clocks=base"},
      first.dir.path());
  EXPECT_EQ(second.exit_code, 2) << second.err;
  EXPECT_NE(second.err.find("another perfzero run on this host holds the GPU clocks"), std::string::npos) << second.err;
  EXPECT_FALSE(std::filesystem::exists(first.dir.path() / "second")) << "nothing written";
  EXPECT_EQ(slurp(first.state / "gpu0.locked"), "1590 1590\n") << "the first run's lock untouched";
  first.perfzero->signal(SIGTERM);
  (void)first.perfzero->wait();
  EXPECT_FALSE(std::filesystem::exists(first.state / "gpu0.locked"));
}

TEST(GpuClockLock, AGpuThatRefusesReleasesThoseAlreadyLocked) {
  TempDir dir;
  const auto state = dir.path() / "driver";
  std::filesystem::create_directories(state);
  const ScopedEnv env{{"PERFZERO_TEST_NVML_LIBRARY", PERFZERO_FAKE_NVML},
                      {"FAKE_NVML_GPUS", "2"},
                      {"FAKE_NVML_LOCK_DENIED_GPU", "1"},
                      {"FAKE_NVML_STATE_DIR", state.string()},
                      {"PERFZERO_TEST_GPU_LOCK_FILE", (dir.path() / "host.lock").string()}};
  const auto f = run_perfzero(
      {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run", "--lock_gpu_clocks=max"}, dir.path());
  EXPECT_EQ(f.exit_code, 2) << f.err;
  EXPECT_NE(f.err.find("GPU 1: nvmlDeviceSetGpuLockedClocks: Insufficient Permissions"), std::string::npos) << f.err;
  EXPECT_FALSE(std::filesystem::exists(state / "gpu0.locked")) << "GPU 0, locked first, released again";
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "run"));
}

TEST(GpuClockLock, ARunThatCannotLockDoesNotStart) {
  TempDir dir;
  const auto state = dir.path() / "driver";
  std::filesystem::create_directories(state);
  {
    const ScopedEnv env{{"PERFZERO_TEST_NVML_LIBRARY", PERFZERO_FAKE_NVML},
                        {"FAKE_NVML_LOCK_DENIED", "1"},
                        {"PERFZERO_TEST_GPU_LOCK_FILE", (dir.path() / "host.lock").string()}};
    const auto f = run_perfzero(
        {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run", "--lock_gpu_clocks=base"}, dir.path());
    EXPECT_EQ(f.exit_code, 2) << f.err;
    EXPECT_NE(f.err.find("--lock_gpu_clocks=base: GPU 0: nvmlDeviceSetGpuLockedClocks: Insufficient Permissions (4): "
                         "locking clocks needs root"),
              std::string::npos)
        << f.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "run")) << "nothing ran, nothing was written";
  }
  {
    const ScopedEnv env{{"PERFZERO_TEST_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1"}};
    const auto f = run_perfzero(
        {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run", "--lock_gpu_clocks=max"}, dir.path());
    EXPECT_EQ(f.exit_code, 2) << f.err;
    EXPECT_NE(f.err.find("--lock_gpu_clocks=max: no NVIDIA driver to lock clocks with: cannot load"), std::string::npos)
        << f.err;
  }
  const auto bad =
      run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--lock_gpu_clocks=fast"}, dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--lock_gpu_clocks: 'fast' is not base or max"), std::string::npos) << bad.err;
}

TEST(GpuClockLock, DoctorWarnsOfPersistenceOffAndAnXidAndNotesUnlockedClocks) {
  TempDir dir;
  const ScopedEnv env{
      {"PERFZERO_TEST_NVML_LIBRARY", PERFZERO_FAKE_NVML}, {"FAKE_NVML_PERSISTENCE", "0"}, {"FAKE_NVML_XID", "43"}};
  const auto f = run_perfzero({"doctor", "--quick", "--format=json"}, dir.path());
  ASSERT_EQ(f.exit_code, 1) << f.out << f.err;
  const auto doc = nlohmann::json::parse(f.out);
  std::map<std::string, nlohmann::json> checks;
  for (const auto& c : doc["checks"]) checks[c["name"].get<std::string>()] = c;
  EXPECT_EQ(checks["gpu0_persistence"]["status"], "warn") << doc.dump(1);
  EXPECT_EQ(checks["gpu0_clocks"]["status"], "info") << "a guess, not yet checked on a real GPU";
  EXPECT_EQ(checks["gpu0_ecc"]["status"], "info");
  EXPECT_EQ(checks["gpu_xid"]["status"], "warn");
  EXPECT_NE(checks["gpu_xid"]["found"].get<std::string>().find("XID 43 on GPU 0 during this check"), std::string::npos)
      << checks["gpu_xid"].dump();
  const auto& warnings = doc["warnings"];
  EXPECT_NE(std::find(warnings.begin(), warnings.end(), "gpu_xid"), warnings.end());
}

}  // namespace
}  // namespace perfzero::testing::gpu_clock_lock_test
