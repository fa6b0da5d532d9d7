// common/sync_behind: the background queue that makes a trial's files durable while the next one runs.
#include "common/sync_behind.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/errors.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::files::sync_behind_test {
namespace {

using namespace std::chrono_literals;
using testing::TempDir;

// flush() on its own thread, so that a hang is a failure and not a stuck test binary.
bool flushes_within(SyncBehind& queue, std::chrono::seconds limit) {
  auto done = std::async(std::launch::async, [&] { queue.flush(); });
  if (done.wait_for(limit) != std::future_status::ready) return false;
  done.get();
  return true;
}

TEST(SyncBehind, FilesDirectoriesAndDescriptorsAreSyncedByFlush) {
  TempDir dir;
  const auto report = dir.write("report.json", "{}\n");
  const auto journal = dir.write("journal.ndjson", "{}\n");
  const int fd = ::open(journal.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  SyncBehind queue;
  queue.file(report);
  queue.descriptor(fd, journal);
  EXPECT_TRUE(flushes_within(queue, 30s));
  EXPECT_FALSE(queue.failure());
  ::close(fd);
}

TEST(SyncBehind, AFailedSyncIsReportedOnceNamingTheFile) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);  // fdatasync of a pipe fails (EINVAL), as a dying disk's would
  SyncBehind queue;
  queue.descriptor(pipe_fds[1], "/runs/r/journal.ndjson");
  try {
    queue.flush();
    FAIL() << "a failed sync was not reported";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write /runs/r/journal.ndjson to disk"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(queue.flush()) << "reported once";
  // Without a flush, the run hears of it from failure() at its next trial.
  queue.descriptor(pipe_fds[1], "/runs/r/journal.ndjson");
  std::optional<std::string> failed;
  for (int i = 0; i < 3000 && !failed; ++i) {
    failed = queue.failure();
    if (!failed) std::this_thread::sleep_for(10ms);
  }
  ASSERT_TRUE(failed);
  EXPECT_NE(failed->find("journal.ndjson"), std::string::npos) << *failed;
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}

TEST(SyncBehind, AFifoAVanishedFileOrASymlinkWhereTheReportWasNeverHangsOrFails) {
  TempDir dir;
  const auto fifo = dir.path() / "fifo.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto target = dir.write("elsewhere", "x");
  const auto link = dir.path() / "link.json";
  std::filesystem::create_symlink(target, link);
  SyncBehind queue;
  queue.file(fifo);
  queue.file(dir.path() / "gone.json");
  queue.file(link);
  EXPECT_TRUE(flushes_within(queue, 30s)) << "flush hung on a FIFO";
  EXPECT_FALSE(queue.failure());
}

TEST(SyncBehind, ItsDestructorFinishesAFullQueueAndReturns) {
  TempDir dir;
  auto queue = std::make_unique<SyncBehind>();
  for (int i = 0; i < 200; ++i) queue->file(dir.write(fmt::format("r{}", i), "x"));
  auto done = std::async(std::launch::async, [&] { queue.reset(); });
  EXPECT_EQ(done.wait_for(60s), std::future_status::ready);
}

}  // namespace
}  // namespace perfzero::files::sync_behind_test
