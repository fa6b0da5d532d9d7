#include "session/output_dir.hpp"

#include <unistd.h>

#include <regex>

#include <gtest/gtest.h>

#include "common/errors.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::session::output_dir_test {
namespace {

// Runs `claim` and returns its UsageError's message, or "" when it did not throw one.
template <typename Claim>
std::string usage_error_of(Claim claim) {
  try {
    const ClaimedOutput out = claim();
    ::close(out.lock_fd);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

void write_manifest(const testing::TempDir& dir, const std::string& name, const std::string& id) {
  dir.write(name + "/" + kRunManifest, R"({"execution_id": ")" + id + R"(", "status": "completed"})");
}

TEST(OutputDir, NewExecutionIdsAreTimestampedAndDistinct) {
  const std::string a = new_execution_id();
  EXPECT_TRUE(std::regex_match(a, std::regex(R"(\d{8}T\d{6}Z-[0-9a-f]{6})"))) << a;
  EXPECT_NE(a, new_execution_id());
}

TEST(OutputDir, ClaimsAFreshDirectoryAndCreatesIt) {
  testing::TempDir dir;
  const auto wanted = dir.path() / "runs" / "first";
  const ClaimedOutput out = claim_output_dir(wanted.string(), "my-id", false);
  EXPECT_EQ(out.dir, std::filesystem::canonical(wanted));
  EXPECT_EQ(out.execution_id, "my-id");
  EXPECT_FALSE(out.resuming);
  EXPECT_GE(out.lock_fd, 0);
  EXPECT_TRUE(std::filesystem::exists(out.dir / ".perfzero.lock"));
  ::close(out.lock_fd);
}

TEST(OutputDir, RefusesADirectoryThatHoldsAnotherRun) {
  testing::TempDir dir;
  write_manifest(dir, "old", "20261122T100000Z-abcdef");
  const auto message = usage_error_of([&] { return claim_output_dir((dir.path() / "old").string(), "", false); });
  EXPECT_NE(message.find("already holds run 20261122T100000Z-abcdef; pass --resume"), std::string::npos) << message;
}

TEST(OutputDir, RefusesADirectoryLockedByARunInProgress) {
  testing::TempDir dir;
  const auto wanted = (dir.path() / "busy").string();
  const ClaimedOutput holder = claim_output_dir(wanted, "", false);
  // flock() locks belong to the open file, so a second open in this process conflicts like another run.
  const auto message = usage_error_of([&] { return claim_output_dir(wanted, "", true); });
  EXPECT_NE(message.find("another perfzero run is writing to"), std::string::npos) << message;
  ::close(holder.lock_fd);
  EXPECT_EQ(usage_error_of([&] { return claim_output_dir(wanted, "", false); }), "");
}

TEST(OutputDir, ResumeTakesTheExecutionIdFromTheManifest) {
  testing::TempDir dir;
  write_manifest(dir, "old", "run-1");
  const ClaimedOutput out = claim_output_dir((dir.path() / "old").string(), "", true);
  EXPECT_TRUE(out.resuming);
  EXPECT_EQ(out.execution_id, "run-1");
  ::close(out.lock_fd);
  const ClaimedOutput same = claim_output_dir((dir.path() / "old").string(), "run-1", true);
  EXPECT_TRUE(same.resuming);
  ::close(same.lock_fd);
}

TEST(OutputDir, ResumeRefusesADifferentExecutionId) {
  testing::TempDir dir;
  write_manifest(dir, "old", "run-1");
  const auto message = usage_error_of([&] { return claim_output_dir((dir.path() / "old").string(), "run-2", true); });
  EXPECT_NE(message.find("holds run run-1, not run-2"), std::string::npos) << message;
}

TEST(OutputDir, AnUnreadableManifestStillCountsAsARun) {
  testing::TempDir dir;
  dir.write(std::string("broken/") + kRunManifest, "{not json");
  const auto message = usage_error_of([&] { return claim_output_dir((dir.path() / "broken").string(), "", false); });
  EXPECT_NE(message.find("already holds run unknown"), std::string::npos) << message;
}

TEST(OutputDir, ACreatableParentIsRequired) {
  testing::TempDir dir;
  dir.write("file", "not a directory");
  // The file system's refusal, not a usage error: exit 4 (ExitCode::output_unwritable).
  try {
    claim_output_dir((dir.path() / "file" / "run").string(), "", false);
    FAIL() << "expected an OutputError";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("--output_dir: cannot create"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace perfzero::session::output_dir_test
