// provenance/: the commit and branch a run was made of, from flags, CI's variables, or a git checkout
// read from its files. The checkouts are made by the real git (init, commit, worktree, pack-refs,
// detach), so the reader is checked against what git writes, not against our idea of it.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

#include "provenance/git_checkout.hpp"
#include "provenance/source_info.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::provenance::provenance_test {
namespace {

using testing::TempDir;

std::string git(const std::filesystem::path& dir, const std::string& args) {
  const std::string command = "git -C '" + dir.string() + "' -c user.name=t -c user.email=t@t " + args + " 2>/dev/null";
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buf[256];
  while (fgets(buf, sizeof buf, pipe) != nullptr) out += buf;
  if (pclose(pipe) != 0) throw std::runtime_error("git failed: " + command);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::filesystem::path repo_with_commit(const TempDir& dir) {
  const auto repo = dir.path() / "repo";
  std::filesystem::create_directories(repo / "sub" / "deeper");
  git(repo, "init -q -b main");
  dir.write("repo/file.txt", "x\n");
  git(repo, "add file.txt");
  git(repo, "commit -q -m one");
  return repo;
}

bool have_git() { return std::system("git --version > /dev/null 2>&1") == 0; }

Environment no_environment() {
  return [](const char*) { return std::optional<std::string>(); };
}

Environment environment(std::map<std::string, std::string> values) {
  return [values](const char* name) -> std::optional<std::string> {
    const auto it = values.find(name);
    return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

TEST(GitCheckout, ABranchAndItsCommitAsGitHasThemFromAnySubdirectory) {
  if (!have_git()) GTEST_SKIP() << "git is not installed";
  TempDir dir;
  const auto repo = repo_with_commit(dir);
  const auto found = find_git_checkout(repo / "sub" / "deeper");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->top, repo);
  EXPECT_EQ(found->commit, git(repo, "rev-parse HEAD"));
  EXPECT_EQ(found->branch, "main");
}

TEST(GitCheckout, PackedRefsADetachedHeadAndAWorktree) {
  if (!have_git()) GTEST_SKIP() << "git is not installed";
  TempDir dir;
  const auto repo = repo_with_commit(dir);
  const std::string head = git(repo, "rev-parse HEAD");
  git(repo, "pack-refs --all");
  ASSERT_FALSE(std::filesystem::exists(repo / ".git" / "refs" / "heads" / "main"));
  EXPECT_EQ(find_git_checkout(repo)->commit, head);
  // A worktree: .git is a file naming its git directory, whose refs are in the common directory.
  git(repo, "branch feature");
  git(repo, "worktree add -q " + (dir.path() / "wt").string() + " feature");
  const auto worktree = find_git_checkout(dir.path() / "wt");
  ASSERT_TRUE(worktree.has_value());
  EXPECT_EQ(worktree->commit, head);
  EXPECT_EQ(worktree->branch, "feature");
  git(repo, "checkout -q --detach");
  const auto detached = find_git_checkout(repo);
  EXPECT_EQ(detached->commit, head);
  EXPECT_EQ(detached->branch, "");
}

TEST(GitCheckout, ARepositoryWithoutACommitHasItsBranchOnly) {
  if (!have_git()) GTEST_SKIP() << "git is not installed";
  TempDir dir;
  git(dir.path(), "init -q -b trunk");
  const auto found = find_git_checkout(dir.path());
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->commit, "");
  EXPECT_EQ(found->branch, "trunk");
}

TEST(GitCheckout, HostileFilesInDotGitAreNoCheckoutAndNeverBlock) {
  TempDir dir;
  // HEAD as a FIFO: opening it would block for ever.
  std::filesystem::create_directories(dir.path() / "fifo" / ".git");
  ASSERT_EQ(::mkfifo((dir.path() / "fifo" / ".git" / "HEAD").c_str(), 0600), 0);
  EXPECT_FALSE(find_git_checkout(dir.path() / "fifo").has_value());
  // A ref that climbs out of the git directory.
  dir.write("climb/.git/HEAD", "ref: refs/../../../../etc/passwd\n");
  EXPECT_FALSE(find_git_checkout(dir.path() / "climb").has_value());
  // Garbage, bytes that are not UTF-8, a .git file naming nothing, a HEAD that is huge.
  dir.write("garbage/.git/HEAD", "\xff\xfe not a ref\n");
  EXPECT_FALSE(find_git_checkout(dir.path() / "garbage").has_value());
  dir.write("gitfile/.git", "gitdir: /nonexistent/x\n");
  EXPECT_FALSE(find_git_checkout(dir.path() / "gitfile").has_value());
  dir.write("huge/.git/HEAD", std::string(1 << 20, 'a'));
  EXPECT_FALSE(find_git_checkout(dir.path() / "huge").has_value());
  // A ref file that holds no object id gives no commit, and nothing else is made up.
  dir.write("badref/.git/HEAD", "ref: refs/heads/main\n");
  dir.write("badref/.git/refs/heads/main", "not a hash\n");
  const auto bad = find_git_checkout(dir.path() / "badref");
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->commit, "");
  EXPECT_EQ(bad->branch, "main");
}

TEST(SourceInfo, FlagsThenCiVariablesThenTheCheckoutEachSayingWhere) {
  if (!have_git()) GTEST_SKIP() << "git is not installed";
  TempDir dir;
  const auto repo = repo_with_commit(dir);
  const std::string head = git(repo, "rev-parse HEAD");
  // The checkout alone.
  auto s = detect_source({}, no_environment(), repo);
  EXPECT_EQ(s.commit, head);
  EXPECT_EQ(s.branch, "main");
  EXPECT_EQ(s.from.value("commit", ""), "git checkout " + repo.string());
  // CI's variables win over the checkout; a pull request's head branch over its ref name.
  s = detect_source(
      {}, environment({{"GITHUB_SHA", "abc123"}, {"GITHUB_REF_NAME", "7/merge"}, {"GITHUB_HEAD_REF", "feature-x"}}),
      repo);
  EXPECT_EQ(s.commit, "abc123");
  EXPECT_EQ(s.branch, "feature-x");
  EXPECT_EQ(s.from.value("commit", ""), "GITHUB_SHA");
  EXPECT_EQ(s.from.value("branch", ""), "GITHUB_HEAD_REF");
  s = detect_source({}, environment({{"CI_COMMIT_SHA", "def456"}, {"CI_COMMIT_REF_NAME", "mr-1"}}), repo);
  EXPECT_EQ(s.commit, "def456");
  EXPECT_EQ(s.branch, "mr-1");
  // Flags win over both; a commit from a flag does not take the checkout's branch (another build).
  s = detect_source({"f00d", "", "O3", true}, environment({{"GITHUB_SHA", "abc123"}, {"GITHUB_REF_NAME", "main"}}),
                    repo);
  EXPECT_EQ(s.commit, "f00d");
  EXPECT_EQ(s.branch, "");
  EXPECT_EQ(s.build_label, "O3");
  EXPECT_EQ(s.from.value("commit", ""), "flag");
  // --detect_source=false: the flags only.
  s = detect_source({"", "", "", false}, environment({{"GITHUB_SHA", "abc123"}}), repo);
  EXPECT_TRUE(s.empty());
  // Nowhere to take anything from.
  s = detect_source({}, no_environment(), dir.path());
  EXPECT_TRUE(s.empty());
}

TEST(SourceInfo, ValuesAreBoundedAndCarryNoCredentials) {
  TempDir dir;
  const auto s = detect_source({std::string(10000, 'c'), "https://user:secret@example.com/b", "", true},
                               no_environment(), dir.path());
  EXPECT_EQ(s.commit.size(), 256U);
  EXPECT_EQ(s.branch.find("secret"), std::string::npos) << s.branch;
}

}  // namespace
}  // namespace perfzero::provenance::provenance_test
