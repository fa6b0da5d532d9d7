// Every input that once broke a reader (found by tests/fuzz/run_fuzzers.sh or by hand) is kept in
// tests/fixtures/fuzz_regressions/<reader>/ and replayed here: a result or a message, never a throw.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <fstream>
#include <string>

#include "child_results/child_result.hpp"
#include "child_results/google_benchmark_result.hpp"
#include "common/errors.hpp"
#include "config/suite.hpp"
#include "history/compressed_text.hpp"
#include "history/run_document.hpp"
#include "history/sql_connection.hpp"
#include "pricing/price_catalog.hpp"
#include "results/journal.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::child_results::fuzz_regressions_test {
namespace {

const std::filesystem::path kRegressions = std::filesystem::path(PERFZERO_FIXTURES_DIR) / "fuzz_regressions";

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

template <typename Parse>
int replay(const std::string& reader, Parse parse) {
  int replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kRegressions / reader)) {
    if (entry.path().filename().string().starts_with(".")) continue;
    const std::string text = slurp(entry.path());
    EXPECT_NO_THROW({
      const auto parsed = parse(text);
      if (const auto* result = std::get_if<ChildResult>(&parsed)) (void)result->extras.dump(1);
    }) << entry.path();
    ++replayed;
  }
  return replayed;
}

TEST(FuzzRegressions, ChildResultReaderSurvivesEveryKeptInput) {
  EXPECT_GT(replay("child_result", [](const std::string& t) { return parse_child_result(t); }), 0);
}

TEST(FuzzRegressions, GoogleBenchmarkReaderSurvivesEveryKeptInput) {
  EXPECT_GT(replay("google_benchmark", [](const std::string& t) { return parse_google_benchmark(t); }), 0);
}

// YAML the suite and price catalog fuzzers broke: loading it gives a suite (a catalog) or a ConfigError,
// nothing else. Some once made yaml-cpp loop, taking memory as fast as it could, so each is loaded
// in a child under an alarm: a regression fails here instead of taking the machine. A folder exists
// once its fuzzer has found something; until then there is nothing to replay.
// `Expected` is the one exception the reader may answer with; anything else, or a hang, fails.
template <typename Expected, typename Load>
int replay_in_child(const std::filesystem::path& dir, Load load) {
  int replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().starts_with(".")) continue;
    EXPECT_EXIT(
        {
          ::alarm(5);
          try {
            (void)load(entry.path());
          } catch (const Expected&) {
            // the expected answer to a broken file
          } catch (const std::exception& e) {
            std::fputs(e.what(), stderr);
            std::_Exit(1);
          }
          std::_Exit(0);
        },
        ::testing::ExitedWithCode(0), "")
        << entry.path();
    ++replayed;
  }
  return replayed;
}

bool nothing_kept(const std::filesystem::path& dir) {
  return !std::filesystem::is_directory(dir) || std::filesystem::is_empty(dir);
}

TEST(FuzzRegressionsDeathTest, SuiteLoaderSurvivesEveryKeptInput) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto dir = kRegressions / "suite";
  if (nothing_kept(dir)) GTEST_SKIP() << "no suite input has broken the loader yet";
  EXPECT_GT(replay_in_child<ConfigError>(dir, [](const std::filesystem::path& p) { return config::load_suite(p); }), 0);
}

TEST(FuzzRegressionsDeathTest, PriceCatalogLoaderSurvivesEveryKeptInput) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto dir = kRegressions / "price_catalog";
  if (nothing_kept(dir)) GTEST_SKIP() << "no price catalog input has broken the loader yet";
  EXPECT_GT(replay_in_child<ConfigError>(dir, [](const std::filesystem::path& p) { return pricing::load_catalog(p); }),
            0);
}

// Journals the journal fuzzer broke: reading one gives the run or the std::runtime_error the reader
// documents (results/journal.hpp), nothing else, in a child under an alarm as above.
TEST(FuzzRegressionsDeathTest, JournalReaderSurvivesEveryKeptInput) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto dir = kRegressions / "journal";
  if (nothing_kept(dir)) GTEST_SKIP() << "no journal has broken the reader yet";
  EXPECT_GT(
      replay_in_child<std::runtime_error>(dir, [](const std::filesystem::path& p) { return results::read_journal(p); }),
      0);
}

// Stored run documents the history fuzzer broke (tests/fuzz/fuzz_history_document.cpp: the first
// byte says whether the rest is as stored or JSON to compress first): the run or a HistoryError.
TEST(FuzzRegressionsDeathTest, HistoryDocumentReaderSurvivesEveryKeptInput) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto dir = kRegressions / "history_document";
  if (nothing_kept(dir)) GTEST_SKIP() << "no stored document has broken the reader yet";
  EXPECT_GT(replay_in_child<history::HistoryError>(dir,
                                                   [](const std::filesystem::path& p) {
                                                     const std::string input = slurp(p);
                                                     if (input.empty()) return 0;
                                                     const std::string rest = input.substr(1);
                                                     (void)history::restore_document(
                                                         input[0] == 0 ? rest : history::deflate_text(rest));
                                                     return 0;
                                                   }),
            0);
}

}  // namespace
}  // namespace perfzero::child_results::fuzz_regressions_test
