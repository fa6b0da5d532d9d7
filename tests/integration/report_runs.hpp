#pragma once
// What the `perfzero report` tests on the real binary share: runs of a synthetic rate under a shape's
// label, and the report of them, each in a scratch folder of the test file's own.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "perfzero_runner.hpp"

namespace perfzero::testing::report_runs {

inline const std::string kCatalog = (kSourceDir / "infra/pricing/catalog.yaml").string();

// An external command reporting RATE, spread by the trial number (SPREAD: +-SPREAD/2 of it), so
// the trials of every label follow one pattern: what one machine gives, whatever it is called.
inline std::filesystem::path rate_suite(const std::filesystem::path& scratch, const std::string& name) {
  const std::filesystem::path file = scratch / (name + ".yaml");
  std::ofstream(file) << R"(methods:
  - name: work.rate
    command: [/bin/sh, -c, 'awk -v r="$RATE" -v s="$SPREAD" -v t="$PERFZERO_TRIAL" "BEGIN{printf \"{\\\"metrics\\\":[{\\\"name\\\":\\\"items_per_second\\\",\\\"value\\\":%.3f,\\\"unit\\\":\\\"items/s\\\"}]}\", r*(1+s*((t*3)%5-2)/4)}" > "$PERFZERO_RESULT_FILE"']
)";
  return file;
}

// Five trials of the rate under --instance_type=SHAPE, in SCRATCH/DIR/SHAPE.
inline std::filesystem::path run_as(const std::filesystem::path& scratch, const std::string& shape, double rate,
                                    double spread, const std::string& dir) {
  const std::filesystem::path out = scratch / dir / shape;
  ::setenv("RATE", std::to_string(rate).c_str(), 1);
  ::setenv("SPREAD", std::to_string(spread).c_str(), 1);
  const auto f = run_perfzero({"--config", rate_suite(scratch, "rate").string(), "--benchmark_num_trials=5",
                               "--instance_type=" + shape, "--output_dir", out.string()},
                              scratch / ("run-" + dir + "-" + shape));
  EXPECT_EQ(f.exit_code, 0) << f.err;
  clear_trial_flags(out);  // the rates are synthetic; a busy test machine's flags are beside the point
  return out;
}

// perfzero report with the shipped catalog and a fixed date, into SCRATCH/NAME.
inline Finished report(const std::filesystem::path& scratch, const std::vector<std::string>& extra,
                       const std::string& name) {
  std::vector<std::string> args{"report",  "--catalog", kCatalog, "--out", (scratch / name).string(),
                                "--today", "2026-11-22"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_perfzero(args, scratch / (name + "-cmd"));
}

// A test file's suite of report tests: the helpers above bound to its scratch folder SCRATCH, made
// before the suite's first test and removed after its last.
template <const std::filesystem::path& Scratch>
class ReportRunsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::filesystem::remove_all(Scratch);
    std::filesystem::create_directories(Scratch);
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(Scratch); }
  static std::filesystem::path run_as(const std::string& shape, double rate, double spread, const std::string& dir) {
    return report_runs::run_as(Scratch, shape, rate, spread, dir);
  }
  static Finished report(const std::vector<std::string>& extra, const std::string& name) {
    return report_runs::report(Scratch, extra, name);
  }
};

}  // namespace perfzero::testing::report_runs
