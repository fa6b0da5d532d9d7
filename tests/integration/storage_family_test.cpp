// The storage family through the real perfzero, on a real disk: an ext4 file system in a loop
// device this test makes (root), on tmpfs for the refusal, and with its worker killed mid-method.
#include <signal.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::storage_family_test {
namespace {

using namespace std::chrono_literals;

std::uint64_t free_bytes(const std::filesystem::path& dir) {
  struct statvfs v {};
  return ::statvfs(dir.c_str(), &v) == 0 ? static_cast<std::uint64_t>(v.f_bavail) * v.f_frsize : 0;
}

std::vector<std::string> entries(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The pids of processes whose command line holds `marker`.
std::vector<pid_t> pids_with(const std::string& marker) {
  std::vector<pid_t> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = slurp(entry.path() / "cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(marker) != std::string::npos) found.push_back(std::stoi(pid));
  }
  return found;
}

// The one case's trial report (case directories are named for the method and its parameters).
nlohmann::json only_report(const std::filesystem::path& out) {
  const auto run = read_json(out / "run.json");
  return read_json(out / run["plan"][0]["dir"].get<std::string>() / "trial_1" / "perfzero_summary.json");
}

bool worker_built() { return std::filesystem::exists(kBinDir / "harness" / "perfzero-worker-storage"); }

// A 96 MiB ext4 file system in a loop device, mounted for the test.
class StorageOnALoopDisk : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!worker_built()) GTEST_SKIP() << "the storage worker was not built (libaio-dev; PERFZERO_WITH_STORAGE)";
    if (::geteuid() != 0) GTEST_SKIP() << "needs root: a loop device and a mount";
    image_ = dir_.path() / "disk.img";
    mount_ = dir_.path() / "disk";
    std::filesystem::create_directories(mount_);
    const std::string make = fmt::format("truncate -s 96M {0} && mkfs.ext4 -q -F {0} && mount -o loop {0} {1}",
                                         image_.string(), mount_.string());
    ASSERT_EQ(std::system((make + " 2>&1").c_str()), 0) << make;
    mounted_ = true;
  }
  void TearDown() override {
    if (mounted_) std::system(fmt::format("umount {}", mount_.string()).c_str());
  }

  std::string suite(const std::string& method, const std::string& params) {
    return dir_
        .write("s.yaml", fmt::format("methods:\n  - method: {}\n    params: {{directory: {}, {}}}\n", method,
                                     mount_.string(), params))
        .string();
  }

  TempDir dir_;
  std::filesystem::path image_;
  std::filesystem::path mount_;
  bool mounted_ = false;
};

TEST_F(StorageOnALoopDisk, MeasuresTheDiskWithDirectIoAndLeavesNothingThere) {
  const auto before = entries(mount_);
  const auto free_before = free_bytes(mount_);
  for (const std::string method : {"storage.Disk.benchmark_random_read", "storage.Disk.benchmark_sequential_write"}) {
    const auto out = dir_.path() / ("run-" + method);
    const auto f = run_perfzero({"--config=" + suite(method,
                                                     "file_size: 16777216, runtime: 0.5, ramp_time: 0.1, "
                                                     "min_free_percent: 5, min_free_bytes: 0"),
                                 "--output_dir=" + out.string()},
                                dir_.path());
    ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
    const auto rep = only_report(out);
    ASSERT_EQ(rep["perfzero_cpp"]["outcome"], "succeeded") << rep["perfzero_cpp"]["outcome_detail"];
    const auto& extras = rep["benchmark_result"]["extras"];
    EXPECT_EQ(extras["file_system"], "ext4");
    EXPECT_EQ(extras["direct_io"], true);
    std::map<std::string, double> m;
    for (const auto& metric : rep["benchmark_result"]["metrics"]) m[metric["name"]] = metric["value"];
    EXPECT_GT(m["iops"], 0);
    EXPECT_GT(m["bandwidth"], 0);
    EXPECT_LE(m["latency_p50_us"], m["latency_p99_us"]);
    EXPECT_LE(m["latency_p99_us"], m["latency_p99_9_us"]);
    EXPECT_LE(m["latency_p99_9_us"], m["latency_max_us"] + 0.1);
    EXPECT_EQ(rep["perfzero_cpp"]["metric_units"]["iops"], "IO/s");
    EXPECT_EQ(rep["perfzero_cpp"]["metric_directions"]["latency_p99_us"], "lower");
  }
  EXPECT_EQ(entries(mount_), before) << "the file had no name";
  EXPECT_GE(free_bytes(mount_) + (1 << 20), free_before) << "and its blocks are free again";
}

TEST_F(StorageOnALoopDisk, ANearlyFullDiskIsRefusedWithTheRule) {
  const auto out = dir_.path() / "run";
  const auto f = run_perfzero({"--config=" + suite("storage.Disk.benchmark_random_read", "file_size: 67108864"),
                               "--output_dir=" + out.string()},
                              dir_.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto rep = only_report(out);
  EXPECT_EQ(rep["perfzero_cpp"]["outcome"], "skipped");
  const std::string detail = rep["perfzero_cpp"]["outcome_detail"];
  EXPECT_NE(detail.find("would leave less than the 2.0 GiB the method keeps free"), std::string::npos) << detail;
  EXPECT_NE(detail.find("min_free_bytes"), std::string::npos) << detail;
}

TEST_F(StorageOnALoopDisk, ItsWorkerKilledMidMethodLeavesNoFileBehind) {
  const auto free_before = free_bytes(mount_);
  const auto out = dir_.path() / "run";
  RunningPerfzero p({"--config=" + suite("storage.Disk.benchmark_random_write",
                                         "file_size: 33554432, runtime: 60, min_free_percent: 5, min_free_bytes: 0"),
                     "--output_dir=" + out.string()},
                    dir_.path());
  // The file takes its room once made: then the method is measuring.
  const auto give_up = std::chrono::steady_clock::now() + 30s;
  while (free_bytes(mount_) + (16 << 20) > free_before && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(50ms);
  }
  ASSERT_LT(free_bytes(mount_) + (16 << 20), free_before) << "the file never appeared";
  std::this_thread::sleep_for(300ms);
  const auto workers = pids_with("storage.Disk.benchmark_random_write");
  ASSERT_FALSE(workers.empty());
  for (const pid_t pid : workers) {
    if (slurp(fmt::format("/proc/{}/comm", pid)).starts_with("perfzero-worker")) ::kill(pid, SIGKILL);
  }
  const auto f = p.wait();
  EXPECT_EQ(f.exit_code, 1) << f.err << f.out;
  const auto rep = only_report(out);
  EXPECT_EQ(rep["perfzero_cpp"]["outcome"], "crashed") << rep["perfzero_cpp"]["outcome_detail"];
  EXPECT_EQ(entries(mount_), std::vector<std::string>{"lost+found"});
  EXPECT_GE(free_bytes(mount_) + (1 << 20), free_before) << "the killed method's file is gone with it";
}

TEST(Storage, TmpfsIsRefusedAsMemoryNotADisk) {
  if (!worker_built()) GTEST_SKIP() << "the storage worker was not built (libaio-dev; PERFZERO_WITH_STORAGE)";
  TempDir dir;
  const auto suite = dir.write("s.yaml",
                               "methods:\n  - method: storage.Disk.benchmark_random_read\n"
                               "    params: {directory: /dev/shm, file_size: 1048576, min_free_bytes: 0}\n");
  const auto out = dir.path() / "run";
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  const auto rep = only_report(out);
  EXPECT_EQ(rep["perfzero_cpp"]["outcome"], "skipped");
  EXPECT_NE(rep["perfzero_cpp"]["outcome_detail"].get<std::string>().find("tmpfs (memory, not a disk)"),
            std::string::npos);
}

}  // namespace
}  // namespace perfzero::testing::storage_family_test
