// `perfzero history site` on the real binary (docs/history.md, "The history site"): the pages a
// planted history makes, what a hostile label or a damaged run does to them, and bad flags.
// Chromium renders the site in history_site_chromium.sh.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <regex>

#include "../unit/scoped_env.hpp"
#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"
#include "planted_history.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::history_site_test {
namespace {

bool has(const std::string& text, const std::string& part) { return occurrences(text, part) > 0; }

// The series page of sleep's slept_ms, found from the index.
std::string slept_page(const fs::path& site) {
  const std::string index = slurp(site / "index.html");
  std::smatch m;
  EXPECT_TRUE(std::regex_search(index, m, std::regex("href='series/([0-9a-f]+)\\.html'>slept_ms</a>"))) << index;
  return m.empty() ? "" : slurp(site / "series" / (m[1].str() + ".html"));
}

// Text as the pages show it (escaped).
std::string html(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// The name of the page of the run `id` (its stem), found among the written pages; empty when none.
std::string run_page(const fs::path& site, const std::string& id) {
  for (const auto& entry : fs::directory_iterator(site / "runs")) {
    if (has(slurp(entry.path()), "<h1>Run " + html(id) + "</h1>")) return entry.path().stem().string();
  }
  return "";
}

TEST(HistorySite, APlantedStepIsDrawnWithItsCommitAndEveryRunIsComparedWithTheOneBefore) {
  const ScopedEnv no_ci{{"GITHUB_SHA", ""}, {"CI_COMMIT_SHA", ""}, {"GIT_COMMIT", ""}};
  TempDir dir;
  const std::string db = (dir.path() / "h.sqlite").string();
  const auto dirs = planted_history(dir, 12, 6);
  ASSERT_EQ(ingest(dirs, db, dir.path()).exit_code, 0);
  const auto site = run_perfzero({"history", "site", "--db=" + db, "--out=site", "--no_catalog"}, dir.path());
  ASSERT_EQ(site.exit_code, 0) << site.err;
  EXPECT_TRUE(has(site.out, "open site/index.html")) << site.out;
  const std::string index = slurp(dir.path() / "site/index.html");
  EXPECT_TRUE(has(index, "12 run(s)")) << index;
  EXPECT_TRUE(has(index, "<svg class='overview'"));
  EXPECT_TRUE(has(index, "<svg class='spark'")) << "the other metrics' sparklines";
  EXPECT_TRUE(std::regex_search(index, std::regex(">slower</span> \\+(1[5-9]|2[0-5])\\.[0-9] %"))) << index;
  EXPECT_TRUE(has(index, kCommitB.substr(0, 10)));
  EXPECT_EQ(occurrences(index, "<script"), 1U) << "the filter's, inline";
  EXPECT_FALSE(has(index, "<script src"));
  const std::string series = slept_page(dir.path() / "site");
  EXPECT_EQ(occurrences(series, "<circle class='t'"), 12U * 6U) << "every trial of every run a dot";
  EXPECT_EQ(occurrences(series, "<line class='cp'"), 1U);
  EXPECT_TRUE(has(series, kCommitB.substr(0, 10) + " +")) << series;
  EXPECT_TRUE(has(series, "<td class=n>6 / 6</td>"));
  // Every run has a page, named by a hash of its id (the same in the next build of the site); each
  // after the first is compared with the run before it.
  for (const auto& id : dirs) EXPECT_FALSE(run_page(dir.path() / "site", id).empty()) << id;
  const std::string before = run_page(dir.path() / "site", "run05-f");
  ASSERT_EQ(before.size(), 16U) << before;
  const std::string stepped = slurp(dir.path() / "site/runs" / (run_page(dir.path() / "site", "run06-g") + ".html"));
  EXPECT_TRUE(has(stepped, "Compared with the previous run"));
  EXPECT_TRUE(has(stepped, "<a href='" + before + ".html'>run05-f</a>")) << stepped;
  EXPECT_TRUE(has(stepped, "<span class='slower'>slower</span>")) << stepped;
  EXPECT_TRUE(has(series, "href='../runs/" + before + ".html'>run05-f</a>")) << series;
  EXPECT_TRUE(has(slurp(dir.path() / "site/runs" / (run_page(dir.path() / "site", "run00-a") + ".html")),
                  "nothing to compare"));
  // --no_catalog: the cost view is still made, every shape unpriced.
  EXPECT_TRUE(has(index, "Cost per date"));
  EXPECT_FALSE(fs::is_empty(dir.path() / "site/cost"));
  // --last 4: the last four runs drawn and given pages; the change point is outside them.
  ASSERT_EQ(
      run_perfzero({"history", "site", "--db=" + db, "--out=short", "--last=4", "--cost_days=0"}, dir.path()).exit_code,
      0);
  EXPECT_EQ(occurrences(slept_page(dir.path() / "short"), "<circle class='t'"), 4U * 6U);
  EXPECT_EQ(run_page(dir.path() / "short", "run08-i"), run_page(dir.path() / "site", "run08-i")) << "stable names";
  EXPECT_TRUE(run_page(dir.path() / "short", "run07-h").empty()) << "read to compare with, not drawn";
  EXPECT_TRUE(fs::is_empty(dir.path() / "short/cost"));
  EXPECT_TRUE(has(slurp(dir.path() / "short/index.html"), "Not made"));
}

TEST(HistorySite, HostileTextIsEscapedAndADamagedRunIsNamedWhileTheRestIsWritten) {
  TempDir dir;
  const std::string db = (dir.path() / "h.sqlite").string();
  const auto dirs = planted_history(dir, 4, 2, "x<img src=x onerror=alert(1)>");
  ASSERT_EQ(ingest(dirs, db, dir.path()).exit_code, 0);
  {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw,
                           "UPDATE run_documents SET document = X'00ff00' WHERE run_id = "
                           "(SELECT id FROM runs ORDER BY execution_timestamp DESC LIMIT 1 OFFSET 1)",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(raw);
  }
  const auto site = run_perfzero({"history", "site", "--db=" + db, "--out=site"}, dir.path());
  ASSERT_EQ(site.exit_code, 0) << site.err;
  for (const auto& entry : fs::recursive_directory_iterator(dir.path() / "site")) {
    if (entry.is_regular_file()) {
      EXPECT_FALSE(has(slurp(entry.path()), "<img src=x")) << entry.path();
    }
  }
  const std::string index = slurp(dir.path() / "site/index.html");
  EXPECT_TRUE(has(index, "x&lt;img src=x onerror=alert(1)&gt;")) << index;
  EXPECT_TRUE(has(index, "Runs that could not be read")) << index;
  EXPECT_TRUE(has(index, "not a zlib stream")) << index;
  // The damaged run keeps its place in the series (its point is stored) but has no page to link to.
  const std::string series = slept_page(dir.path() / "site");
  EXPECT_EQ(occurrences(series, "<circle class='t'"), 3U * 6U);
  EXPECT_TRUE(run_page(dir.path() / "site", dirs[2]).empty());
  ASSERT_FALSE(run_page(dir.path() / "site", dirs[1]).empty()) << "the pages of the runs around it are written";
  const std::string after = slurp(dir.path() / "site/runs" / (run_page(dir.path() / "site", dirs[3]) + ".html"));
  EXPECT_TRUE(has(after,
                  "The previous run of its configuration, x&lt;img src=x onerror=alert(1)&gt;-run02-c, could "
                  "not be read"))
      << after;
}

TEST(HistorySite, BadFlagsAndAnUnwritableFolderAreOneLineErrors) {
  TempDir dir;
  const std::string db = (dir.path() / "h.sqlite").string();
  ASSERT_EQ(ingest(planted_history(dir, 2, 1), db, dir.path()).exit_code, 0);
  const auto no_out = run_perfzero({"history", "site", "--db=" + db}, dir.path());
  EXPECT_EQ(no_out.exit_code, 2);
  EXPECT_TRUE(has(no_out.err, "--out")) << no_out.err;
  const auto bad_since = run_perfzero({"history", "site", "--db=" + db, "--out=s", "--since=yesterday"}, dir.path());
  EXPECT_EQ(bad_since.exit_code, 2);
  EXPECT_TRUE(has(bad_since.err, "not a date of the form YYYY-MM-DD")) << bad_since.err;
  const auto bad_last = run_perfzero({"history", "site", "--db=" + db, "--out=s", "--last=0"}, dir.path());
  EXPECT_EQ(bad_last.exit_code, 2);
  const auto no_db = run_perfzero({"history", "site", "--db=missing.sqlite", "--out=s"}, dir.path());
  EXPECT_EQ(no_db.exit_code, 2) << no_db.err;
  dir.write("a_file", "x");
  const auto onto_file = run_perfzero({"history", "site", "--db=" + db, "--out=a_file"}, dir.path());
  EXPECT_EQ(onto_file.exit_code, 4) << onto_file.err;
  EXPECT_TRUE(has(onto_file.err, "history site --out: cannot create")) << onto_file.err;
  EXPECT_EQ(std::count(onto_file.err.begin(), onto_file.err.end(), '\n'), 1) << onto_file.err;
}

}  // namespace
}  // namespace perfzero::testing::history_site_test
