#include "procfs/proc_reader.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::procfs::proc_reader_test {
namespace {

TEST(ParseProcStat, HandlesSpacesAndParenthesesInTheCommandName) {
  const std::string line =
      "4242 (my (odd) prog) S 1 4242 4242 0 -1 4194560 100 0 0 0 25 7 3 4 20 0 3 0 12345 104857600 2560 "
      "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
  const auto stat = parse_proc_stat(line);
  ASSERT_TRUE(stat.has_value());
  EXPECT_EQ(stat->pid, 4242);
  EXPECT_EQ(stat->ppid, 1);
  EXPECT_EQ(stat->state, 'S');
  EXPECT_EQ(stat->utime_ticks, 25U);
  EXPECT_EQ(stat->stime_ticks, 7U);
  EXPECT_EQ(stat->cutime_ticks, 3U);
  EXPECT_EQ(stat->cstime_ticks, 4U);
  EXPECT_EQ(stat->num_threads, 3);
  EXPECT_EQ(stat->vsize_bytes, 104857600U);
  EXPECT_EQ(stat->rss_bytes, 2560U * page_size_bytes());
}

TEST(ParseProcStat, RejectsTruncatedLines) {
  EXPECT_FALSE(parse_proc_stat("12 (x) S 1 2 3").has_value());
  EXPECT_FALSE(parse_proc_stat("garbage").has_value());
}

TEST(ParseStatus, ReadsKibFields) {
  const std::string status = "Name:\tx\nVmPeak:\t  2000 kB\nVmHWM:\t    1234 kB\nVmRSS:\t 1000 kB\n";
  EXPECT_EQ(parse_status_kib(status, "VmHWM"), 1234U);
  EXPECT_EQ(parse_status_kib(status, "VmRSS"), 1000U);
  EXPECT_FALSE(parse_status_kib(status, "VmSwap").has_value());
}

TEST(ProcessTree, FindsChildrenAndGrandchildrenOfThisProcess) {
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const pid_t grandchild = ::fork();
    if (grandchild == 0) {
      ::pause();
      ::_exit(0);
    }
    char c = 'x';
    (void)!::write(ready[1], &c, 1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  const auto all = descendants_of(::getpid());
  EXPECT_NE(std::find(all.begin(), all.end(), child), all.end());
  const auto children_of_child = children_of(child);
  ASSERT_EQ(children_of_child.size(), 1U);
  EXPECT_NE(std::find(all.begin(), all.end(), children_of_child[0]), all.end());
  const auto stat = read_proc_stat(child);
  ASSERT_TRUE(stat.has_value());
  EXPECT_EQ(stat->ppid, ::getpid());
  EXPECT_GT(read_vm_hwm_bytes(child).value_or(0), 0U);
  ::kill(children_of_child[0], SIGKILL);
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  ::close(ready[0]);
  ::close(ready[1]);
}

}  // namespace
}  // namespace perfzero::procfs::proc_reader_test
