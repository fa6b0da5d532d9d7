// samplers/leftover_files_sampler: what a trial left in the shared-memory directory and its TMPDIR.
#include "samplers/leftover_files_sampler.hpp"

#include <chrono>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::samplers::leftover_files_sampler_test {
namespace {

using testing::TempDir;

// A directory whose last change is old enough for its stamp to be trusted (the sampler then lists
// it again at the end only when the stamp moved).
std::filesystem::path settled_dir(const TempDir& dir) {
  const auto shm = dir.path() / "shm";
  std::filesystem::create_directories(shm);
  std::ofstream(shm / "before") << "there before the trial";
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  return shm;
}

TEST(LeftoverFilesSampler, AFileMadeInASettledDirectoryIsCountedWithItsSize) {
  TempDir dir;
  const auto shm = settled_dir(dir);
  LeftoverFilesSampler sampler(shm);
  std::ofstream(shm / "left") << "12345";
  const auto out = sampler.finish(TrialFacts{});
  EXPECT_EQ(out.summary["shm_files"], 1);
  EXPECT_EQ(out.summary["shm_bytes"], 5);
  EXPECT_EQ(out.flags, std::vector<std::string>{"left_files"});
}

TEST(LeftoverFilesSampler, NothingNewIsNothingLeftAndAFileThereBeforeIsNotTheTrials) {
  TempDir dir;
  const auto shm = settled_dir(dir);
  LeftoverFilesSampler sampler(shm);
  std::ofstream(shm / "before", std::ios::app) << " and grown";  // a change of size, not of names
  const auto out = sampler.finish(TrialFacts{});
  EXPECT_EQ(out.summary["shm_files"], 0);
  EXPECT_TRUE(out.flags.empty());
}

TEST(LeftoverFilesSampler, ANameRemovedAndAnotherMadeIsCounted) {
  TempDir dir;
  const auto shm = settled_dir(dir);
  LeftoverFilesSampler sampler(shm);
  std::filesystem::remove(shm / "before");
  std::ofstream(shm / "after") << "x";
  EXPECT_EQ(sampler.finish(TrialFacts{}).summary["shm_files"], 1);
}

TEST(LeftoverFilesSampler, ADirectoryChangedJustBeforeTheTrialIsListedAgain) {
  TempDir dir;
  const auto shm = dir.path() / "shm";
  std::filesystem::create_directories(shm);  // changed now: its stamp cannot be trusted
  LeftoverFilesSampler sampler(shm);
  std::ofstream(shm / "left") << "x";
  EXPECT_EQ(sampler.finish(TrialFacts{}).summary["shm_files"], 1);
}

TEST(LeftoverFilesSampler, TheRunsLastListingServesTheNextTrialUntilTheDirectoryChanges) {
  TempDir dir;
  const auto shm = settled_dir(dir);
  auto last = std::make_shared<DirListing>();
  {
    LeftoverFilesSampler first(shm, last);
    EXPECT_EQ(first.finish(TrialFacts{}).summary["shm_files"], 0);
  }
  ASSERT_EQ(last->files.size(), 1U) << "the first trial's listing is kept for the next";
  // The next trial takes the kept listing: a name only the listing holds counts as there before.
  last->files["only_in_the_listing"] = 0;
  {
    LeftoverFilesSampler second(shm, last);
    std::ofstream(shm / "left") << "x";
    EXPECT_EQ(second.finish(TrialFacts{}).summary["shm_files"], 1);
  }
  EXPECT_EQ(last->files.count("only_in_the_listing"), 1U) << "listed again while the stamp held";
  // The directory changed (the file left): the next trial lists it again, and counts what is new.
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  LeftoverFilesSampler third(shm, last);
  EXPECT_EQ(last->files.count("only_in_the_listing"), 0U);
  EXPECT_EQ(last->files.count("left"), 1U);
  std::ofstream(shm / "only_in_the_listing") << "new";
  EXPECT_EQ(third.finish(TrialFacts{}).summary["shm_files"], 1);
}

}  // namespace
}  // namespace perfzero::samplers::leftover_files_sampler_test
