// `perfzero history site`'s index as a dashboard, on the real binary (docs/history.md, "The history
// site"): a section per method with its main metric plotted per configuration and label, change
// points marked with their commits, the other metrics and counters a click away, a filter box whose
// script is inline, and nothing loaded from the network. Chromium renders it in
// history_site_chromium.sh.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "../unit/scoped_env.hpp"
#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"
#include "planted_history.hpp"

namespace perfzero::testing::history_dashboard_test {
namespace {

bool has(const std::string& text, const std::string& part) { return occurrences(text, part) > 0; }

// Two methods of another label: a rate, and a latency with a metric beside it.
constexpr const char* kShellSuite = R"(
methods:
  - name: shell.rate
    command: [/bin/sh, -c, 'printf "{\"metrics\":[{\"name\":\"ops\",\"value\":1000,\"unit\":\"ops/s\",\"direction\":\"higher\"}]}" > "$PERFZERO_RESULT_FILE"']
  - name: shell.latency
    command: [/bin/sh, -c, 'printf "{\"metrics\":[{\"name\":\"aux\",\"value\":3},{\"name\":\"latency_ms\",\"value\":5,\"unit\":\"ms\",\"direction\":\"lower\"}]}" > "$PERFZERO_RESULT_FILE"']
)";

// The section of `method` on the index.
std::string section_of(const std::string& index, const std::string& method) {
  const auto at = index.find("<h2>" + method + "</h2>");
  if (at == std::string::npos) return "";
  const auto start = index.rfind("<section", at);
  return index.substr(start, index.find("</section>", at) - start);
}

TEST(HistoryDashboard, TheIndexGroupsByMethodPlotsEachMainMetricAndLoadsNothing) {
  const ScopedEnv no_ci{{"GITHUB_SHA", ""}, {"CI_COMMIT_SHA", ""}, {"GIT_COMMIT", ""}};
  TempDir dir;
  const std::string db = (dir.path() / "h.sqlite").string();
  auto dirs = planted_history(dir, 8, 4);
  const auto suite = dir.write("shell.yaml", kShellSuite);
  for (int i = 0; i < 3; ++i) {
    std::string out = "shell";  // appended: GCC 12 sees a false -Werror=restrict in "lit" + to_string
    out += std::to_string(i);
    const auto run =
        run_perfzero({"--config=" + suite.string(), "--output_dir=" + out, "--benchmark_num_trials=3",
                      "--execution_label=shell", "--commit=" + std::string(40, static_cast<char>('d' + i))},
                     dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    dirs.push_back(out);
  }
  // What a busy test machine flagged is cleared, and the last shell run's trials are all marked
  // disturbed: its points are left out, and the index says so.
  for (int i = 0; i < 3; ++i) {
    const auto file = dir.path() / dirs[dirs.size() - 3 + static_cast<std::size_t>(i)] / "journal.ndjson";
    const std::string journal = std::regex_replace(slurp(file), std::regex("\"flags\":\\[[^\\]]*\\]"),
                                                   i == 2 ? "\"flags\":[\"host_busy\"]" : "\"flags\":[]");
    std::ofstream(file, std::ios::trunc) << journal;
  }
  ASSERT_EQ(ingest(dirs, db, dir.path()).exit_code, 0);
  const auto site = run_perfzero({"history", "site", "--db=" + db, "--out=site", "--no_catalog"}, dir.path());
  ASSERT_EQ(site.exit_code, 0) << site.err;
  const std::string index = slurp(dir.path() / "site/index.html");
  EXPECT_EQ(occurrences(index, "<section class=method"), 3U) << index;
  EXPECT_EQ(occurrences(index, "<svg class='overview'"), 3U);
  const std::string rate = section_of(index, "shell.rate");
  EXPECT_TRUE(has(rate, "Main metric <b>ops</b> (ops/s, higher is better): its first rate")) << rate;
  const std::string latency = section_of(index, "shell.latency");
  EXPECT_TRUE(has(latency, "Main metric <b>latency_ms</b> (ms, lower is better): its first metric with a direction"))
      << latency;
  EXPECT_TRUE(has(latency, ">aux</a>")) << "the other metric, behind a click";
  EXPECT_TRUE(has(latency, "<details><summary>")) << latency;
  // The planted step is marked on sleep's plot with its commit.
  const std::string sleep = section_of(index, "sleep");
  EXPECT_TRUE(has(sleep, "<g class='cpm'><title>" + kCommitB.substr(0, 7) + " +")) << sleep;
  EXPECT_TRUE(has(index, "point(s) of 1 run(s) left out")) << index;
  // The filter: a box hidden until its inline script shows it, the policy lets no other script run.
  EXPECT_TRUE(has(index, "<input type=search id=filter hidden")) << index;
  EXPECT_EQ(occurrences(index, "<script>"), 1U);
  EXPECT_TRUE(has(index, "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"));
  EXPECT_FALSE(has(index, "<section class=method hidden")) << "without JavaScript every method is listed";
  // Counters, when this machine counts: a click away, each linked to its series page.
  if (has(slurp(dir.path() / "shell0/journal.ndjson"), "\"task_clock\"")) {
    EXPECT_TRUE(has(rate, "<h3>Counters</h3>")) << rate;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(rate, m, std::regex("href='series/([0-9a-f]+)\\.html'>task_clock</a>"))) << rate;
    EXPECT_TRUE(fs::is_regular_file(dir.path() / "site/series" / (m[1].str() + ".html")));
  }
  // No page refers to anything outside the site (the cost pages' SVG names its namespace, which
  // is never fetched).
  std::size_t pages = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir.path() / "site")) {
    if (!entry.is_regular_file()) continue;
    ++pages;
    const std::string text =
        std::regex_replace(slurp(entry.path()), std::regex("xmlns=\"http://www\\.w3\\.org/2000/svg\""), "");
    EXPECT_FALSE(std::regex_search(text, std::regex("(https?:)?//[a-z0-9-]+\\.[a-z0-9.-]+", std::regex::icase)))
        << entry.path();
  }
  EXPECT_GT(pages, 20U);
}

}  // namespace
}  // namespace perfzero::testing::history_dashboard_test
