// The storage family's parts: latency percentiles, and where its file may go.
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "common/latency_histogram.hpp"
#include "storage/test_file.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::storage::storage_test {
namespace {

using perfzero::testing::TempDir;

TEST(LatencyHistogram, PercentilesAreExactToABucket) {
  bench::LatencyHistogram h;
  EXPECT_EQ(h.percentile_ns(0.5), 0.0);
  for (std::uint64_t us = 1; us <= 1000; ++us) h.add(us * 1000);  // 1 us .. 1 ms, one each
  EXPECT_EQ(h.count(), 1000U);
  EXPECT_NEAR(h.percentile_ns(0.50), 500'000, 100);
  EXPECT_NEAR(h.percentile_ns(0.99), 990'000, 100);
  EXPECT_NEAR(h.percentile_ns(0.999), 999'000, 100);
  EXPECT_DOUBLE_EQ(h.mean_ns(), 500'500.0);
  h.add(20'000'000);      // 20 ms: the coarse buckets
  h.add(90'000'000'000);  // 90 s: beyond them
  EXPECT_EQ(h.max_ns(), 90'000'000'000U);
  EXPECT_EQ(h.percentile_ns(1.0), 90e9);
  h.clear();
  EXPECT_EQ(h.count(), 0U);
}

Placement small(const std::string& dir) {
  Placement p;
  p.directory = dir;
  p.file_size = 1 << 20;
  p.min_free_percent = 0;
  p.min_free_bytes = 0;
  return p;
}

TEST(StorageTestFile, IsUnnamedFilledAndDirect) {
  TempDir dir;
  TestFile file;
  const auto refused = TestFile::open(small(dir.path().string()), file);
  if (refused && refused->skip) GTEST_SKIP() << refused->message;  // a file system without O_DIRECT
  ASSERT_FALSE(refused) << refused->message;
  EXPECT_GE(file.fd(), 0);
  EXPECT_TRUE(file.direct());
  EXPECT_EQ(file.size(), 1U << 20);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "nothing named is left to clean up";
  struct stat st {};
  ASSERT_EQ(::fstat(file.fd(), &st), 0);
  EXPECT_EQ(st.st_size, 1 << 20);
  EXPECT_GE(st.st_blocks * 512, 1 << 20) << "written through, not a sparse file";
}

TEST(StorageTestFile, RefusesMemoryFullDisksAndWhatIsNotADirectory) {
  TestFile file;
  auto refused = TestFile::open(small("/dev/shm"), file);
  ASSERT_TRUE(refused);
  EXPECT_TRUE(refused->skip);
  EXPECT_NE(refused->message.find("tmpfs (memory, not a disk)"), std::string::npos) << refused->message;
  Placement allowed = small("/dev/shm");
  allowed.allow_tmpfs = true;
  EXPECT_FALSE(TestFile::open(allowed, file)) << "allowed, without direct I/O";
  EXPECT_FALSE(file.direct());

  TempDir dir;
  Placement keep_all = small(dir.path().string());
  keep_all.min_free_percent = 100;
  refused = TestFile::open(keep_all, file);
  ASSERT_TRUE(refused);
  EXPECT_TRUE(refused->skip);
  EXPECT_NE(refused->message.find("would leave less than"), std::string::npos) << refused->message;

  const auto plain = dir.write("plain", "x");
  refused = TestFile::open(small(plain.string()), file);
  ASSERT_TRUE(refused);
  EXPECT_FALSE(refused->skip);
  EXPECT_NE(refused->message.find("is not a directory"), std::string::npos) << refused->message;
  refused = TestFile::open(small((dir.path() / "missing").string()), file);
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->message.find("No such file"), std::string::npos) << refused->message;
}

}  // namespace
}  // namespace perfzero::storage::storage_test
