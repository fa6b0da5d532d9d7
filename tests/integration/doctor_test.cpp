// perfzero doctor on this machine, through the real binary, and run --doctor's record in run.json.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::doctor_test {
namespace {

TEST(Doctor, QuickChecksEverythingInAboutFiveSecondsAndExitsByItsVerdict) {
  TempDir dir;
  const auto f = run_perfzero({"doctor", "--quick", "--format=json"}, dir.path());
  ASSERT_TRUE(f.exit_code == 0 || f.exit_code == 1) << f.out << f.err;
  const auto doc = nlohmann::json::parse(f.out);
  std::set<std::string> names;
  for (const auto& c : doc["checks"]) {
    names.insert(c["name"].get<std::string>());
    EXPECT_TRUE(c["status"] == "ok" || c["status"] == "warn" || c["status"] == "info") << c.dump();
    if (c["status"] == "warn") {
      EXPECT_TRUE(c.contains("fix")) << c.dump();
    }
  }
  for (const char* name : {"cpu_governor", "cpu_boost", "smt", "aslr", "transparent_huge_pages", "swap",
                           "perf_event_paranoid", "container_limits", "steal_time", "host_load", "noise"}) {
    EXPECT_TRUE(names.count(name)) << name;
  }
  EXPECT_EQ(f.exit_code == 0, doc["verdict"] == "ok");
  EXPECT_LT(doc["seconds"].get<double>(), 10);
  EXPECT_EQ(doc["noise"].size(), 3U);
  const auto text = run_perfzero({"doctor", "--quick"}, dir.path());
  EXPECT_NE(text.out.find("doctor: "), std::string::npos) << text.out;
  EXPECT_EQ(run_perfzero({"doctor", "--format=yaml"}, dir.path()).exit_code, 2);
}

TEST(Doctor, RunWithDoctorRecordsTheVerdictInRunJsonAndTheSummary) {
  TempDir dir;
  const auto f =
      run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run", "--doctor"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  EXPECT_NE((f.out + f.err).find("perfzero: doctor: "), std::string::npos) << f.out << f.err;
  const auto run = read_json(dir.path() / "run" / "run.json");
  const auto& doctor = run["run"]["system"]["doctor"];
  ASSERT_TRUE(doctor.is_object()) << run["run"]["system"].dump();
  EXPECT_TRUE(doctor["verdict"] == "ok" || doctor["verdict"] == "warnings");
  EXPECT_NE(slurp(dir.path() / "run" / "summary.md").find("- doctor: "), std::string::npos);
}

}  // namespace
}  // namespace perfzero::testing::doctor_test
