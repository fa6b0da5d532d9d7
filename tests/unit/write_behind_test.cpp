// common/write_behind: a finished trial's files written while the next trial runs.
#include "common/write_behind.hpp"

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "common/files.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::files::write_behind_test {
namespace {

using testing::TempDir;

// "f7": built by append, since GCC 12 at -O3 warns (-Wrestrict) about "f" + std::to_string(i).
std::string file_name(int i) {
  std::string name = "f";
  name += std::to_string(i);
  return name;
}

TEST(WriteBehind, WaitReturnsOnceEveryQueuedFileIsWhole) {
  TempDir dir;
  WriteBehind behind;
  for (int i = 0; i < 50; ++i) {
    behind.write(dir.path() / file_name(i), [i] { return std::string(1000, static_cast<char>('a' + i % 26)); });
  }
  EXPECT_TRUE(behind.wait().empty());
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(read_text(dir.path() / file_name(i)), std::string(1000, static_cast<char>('a' + i % 26)));
  }
}

TEST(WriteBehind, TheTextIsMadeOnTheBackgroundThread) {
  TempDir dir;
  WriteBehind behind;
  std::thread::id made_on;
  behind.write(dir.path() / "f", [&] {
    made_on = std::this_thread::get_id();
    return std::string("x");
  });
  EXPECT_TRUE(behind.wait().empty());
  EXPECT_NE(made_on, std::this_thread::get_id());
}

TEST(WriteBehind, ARefusedWriteAndAFailedTextAreReportedOnceInOrderAndTheRestIsWritten) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "blocked" / "inside");  // no rename replaces it
  WriteBehind behind;
  behind.write(dir.path() / "blocked", [] { return std::string("x"); });
  behind.write(dir.path() / "bad", []() -> std::string { throw std::runtime_error("no value"); });
  behind.write(dir.path() / "good", [] { return std::string("kept"); });
  const auto failures = behind.wait();
  ASSERT_EQ(failures.size(), 2U);
  EXPECT_TRUE(failures[0].refused);
  EXPECT_NE(failures[0].what.find("blocked"), std::string::npos) << failures[0].what;
  EXPECT_FALSE(failures[1].refused);
  EXPECT_EQ(failures[1].what, "no value");
  EXPECT_EQ(read_text(dir.path() / "good"), "kept");
  EXPECT_TRUE(behind.wait().empty()) << "a failure is reported once";
}

// Held writes go to the thread only when sent (a trial's files together), or at the next wait();
// what is written meanwhile goes in order after them.
TEST(WriteBehind, HeldWritesAreQueuedTogetherWhenSentOrAtTheNextWait) {
  TempDir dir;
  WriteBehind behind;
  behind.hold();
  behind.write(dir.path() / "held", [] { return std::string("first"); });
  behind.write(dir.path() / "held", [] { return std::string("second"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "held")) << "written before it was sent";
  behind.send();
  behind.write(dir.path() / "after", [] { return std::string("after"); });
  EXPECT_TRUE(behind.wait().empty());
  EXPECT_EQ(read_text(dir.path() / "held"), "second");
  EXPECT_EQ(read_text(dir.path() / "after"), "after");
  behind.hold();
  behind.write(dir.path() / "never_sent", [] { return std::string("x"); });
  EXPECT_TRUE(behind.wait().empty());
  EXPECT_EQ(read_text(dir.path() / "never_sent"), "x") << "wait() sends what is held";
}

// Held and never sent (an observer's exception between hold() and send()): still written when the
// writer goes.
TEST(WriteBehind, WhatIsHeldWhenItIsDestroyedIsStillWritten) {
  TempDir dir;
  {
    WriteBehind behind;
    behind.hold();
    behind.write(dir.path() / "held", [] { return std::string("kept"); });
  }
  EXPECT_EQ(read_text(dir.path() / "held"), "kept");
}

TEST(WriteBehind, WhatIsQueuedWhenItIsDestroyedIsStillWritten) {
  TempDir dir;
  {
    WriteBehind behind;
    for (int i = 0; i < 20; ++i) behind.write(dir.path() / file_name(i), [] { return std::string("y"); });
  }
  for (int i = 0; i < 20; ++i) EXPECT_EQ(read_text(dir.path() / file_name(i)), "y");
}

}  // namespace
}  // namespace perfzero::files::write_behind_test
