// How ranks of a multi-host nccl method agree on NCCL's unique id through the trial directory
// (nccl/nccl_unique_id.hpp), without NCCL running: the id's text form, a skip published instead of
// an id, a file that is not what rank 0 writes, and a rank 0 that never publishes.
#include "nccl/nccl_unique_id.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "scoped_env.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::nccl::nccl_unique_id_test {
namespace {

using namespace std::chrono_literals;

ncclUniqueId sample_id() {
  ncclUniqueId id{};
  for (int i = 0; i < NCCL_UNIQUE_ID_BYTES; ++i) id.internal[i] = static_cast<char>(i * 37 + 1);
  return id;
}

TEST(NcclUniqueId, HexRoundTripsEveryByteAndRefusesAnythingElse) {
  const ncclUniqueId id = sample_id();
  const std::string hex = to_hex(id);
  ASSERT_EQ(hex.size(), 2U * NCCL_UNIQUE_ID_BYTES);
  ncclUniqueId back{};
  ASSERT_TRUE(from_hex(hex, back));
  EXPECT_EQ(std::string(back.internal, NCCL_UNIQUE_ID_BYTES), std::string(id.internal, NCCL_UNIQUE_ID_BYTES));
  EXPECT_FALSE(from_hex(hex.substr(1), back));
  EXPECT_FALSE(from_hex("zz" + hex.substr(2), back));
  EXPECT_FALSE(from_hex(hex + "00", back));
}

TEST(NcclUniqueId, TheOtherRanksGetTheIdRankZeroPublishes) {
  testing::TempDir dir;
  std::thread rank0([&] {
    std::this_thread::sleep_for(200ms);
    publish_unique_id(dir.path(), sample_id());
  });
  const auto got = wait_for_unique_id(dir.path(), 30s);
  rank0.join();
  ASSERT_TRUE(std::holds_alternative<ncclUniqueId>(got));
  EXPECT_EQ(to_hex(std::get<ncclUniqueId>(got)), to_hex(sample_id()));
}

TEST(NcclUniqueId, ARankZeroThatSkipsEndsTheOthersAtOnceWithItsReason) {
  testing::TempDir dir;
  publish_skip(dir.path(), "no CUDA device: cudaGetDeviceCount found none");
  const auto start = std::chrono::steady_clock::now();
  const auto got = wait_for_unique_id(dir.path(), 600s);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 60s);
  ASSERT_TRUE(std::holds_alternative<Skipped>(got));
  EXPECT_EQ(std::get<Skipped>(got).reason, "no CUDA device: cudaGetDeviceCount found none");
}

TEST(NcclUniqueId, AFileThatIsNotAnIdIsNamedWhenTheWaitEnds) {
  testing::TempDir dir;
  std::ofstream(dir.path() / kUniqueIdFile) << "{\"id\": \"not hex\"}\xff";
  const auto got = wait_for_unique_id(dir.path(), 300ms);
  ASSERT_TRUE(std::holds_alternative<TimedOut>(got));
  EXPECT_NE(std::get<TimedOut>(got).message.find("is not {\"id\": <256 hex digits>}"), std::string::npos)
      << std::get<TimedOut>(got).message;
}

TEST(NcclUniqueId, ARankZeroThatFailsFailsTheOthersWithItsReason) {
  testing::TempDir dir;
  publish_failure(dir.path(), "rank 0 is local rank 3 on a host with 2 GPUs");
  const auto got = wait_for_unique_id(dir.path(), 30s);
  ASSERT_TRUE(std::holds_alternative<Failed>(got));
  EXPECT_EQ(std::get<Failed>(got).reason, "rank 0 is local rank 3 on a host with 2 GPUs");
}

// A resumed run starts the trial again in the same directory: the earlier start's id is not this one's.
TEST(NcclUniqueId, AnEarlierAttemptsIdIsWaitedPast) {
  testing::TempDir dir;
  {
    const testing::ScopedEnv earlier{{"PERFZERO_ATTEMPT", "00000000000000aa"}};
    publish_unique_id(dir.path(), sample_id());
  }
  const testing::ScopedEnv now{{"PERFZERO_ATTEMPT", "00000000000000bb"}};
  const auto stale = wait_for_unique_id(dir.path(), 300ms);
  ASSERT_TRUE(std::holds_alternative<TimedOut>(stale));
  EXPECT_NE(std::get<TimedOut>(stale).message.find("an earlier attempt's"), std::string::npos)
      << std::get<TimedOut>(stale).message;
  publish_unique_id(dir.path(), sample_id());
  EXPECT_TRUE(std::holds_alternative<ncclUniqueId>(wait_for_unique_id(dir.path(), 30s)));
}

TEST(NcclUniqueId, NothingPublishedIsATimeOutSayingSo) {
  testing::TempDir dir;
  const auto got = wait_for_unique_id(dir.path(), 200ms);
  ASSERT_TRUE(std::holds_alternative<TimedOut>(got));
  EXPECT_NE(std::get<TimedOut>(got).message.find("rank 0 has not published it"), std::string::npos);
}

}  // namespace
}  // namespace perfzero::nccl::nccl_unique_id_test
