// `perfzero compare` of two runs made one after the other (issue 37; docs/compare.md, "Runs made at
// different times"): when it judges disturbed trials or the runs' host load differed, it says that the
// load is confounded with the change, in every output, points to `perfzero ab`, and a direction read
// there, either way, is `confounded` (undecided, exit 5), never `slower` or `faster`. The figures are chosen
// and the load is planted in the journals (flags and host-load readings), so every machine sees the
// same: the candidate's run "under a hog" reads 10 % slower, as it did on a shared VM.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <memory>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::compare_confounded_test {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// BASE: trial N reports BASE + 0.1 * (N % 7) as chosen_ms.
const char* const kScript = R"(v=$(awk -v b="$1" -v n="$PERFZERO_TRIAL" 'BEGIN { print b + 0.1 * (n % 7) }')
printf '{"metrics": [{"name": "chosen_ms", "value": %s, "unit": "ms", "direction": "lower"}]}\n' "$v" \
  > "$PERFZERO_RESULT_FILE"
)";

// Every trial of `run` as a busy host (or a quiet one) would leave it: host_busy, and the host-load
// sampler's reading of the other CPUs busy.
void plant_load(const std::filesystem::path& run, bool busy) {
  std::ifstream in(run / "journal.ndjson");
  std::string out;
  for (std::string line; std::getline(in, line);) {
    auto event = nlohmann::json::parse(line, nullptr, false);
    if (event.is_object() && event.value("event", "") == "trial") {
      auto& t = event["trial"];
      t["flags"] = busy ? nlohmann::json::array({"host_busy"}) : nlohmann::json::array();
      if (!t["samplers"].is_object()) t["samplers"] = nlohmann::json::object();
      t["samplers"]["host_load"]["other_busy_cpus"] = busy ? 1.0 : 0.0;
    }
    out += (event.is_discarded() ? line : event.dump()) + "\n";
  }
  in.close();
  std::ofstream(run / "journal.ndjson", std::ios::trunc) << out;
}

class CompareConfounded : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>();
    const auto script = dir_->write("chosen.sh", kScript);
    const auto suite = [&](const char* name, int base) {
      return dir_->write(name, fmt::format("defaults: {{trials: 10, warmup_trials: 0}}\nmethods:\n"
                                           "  - {{name: chosen, command: [/bin/sh, \"{}\", \"{}\"]}}\n",
                                           script.string(), base));
    };
    // One after the other, as two CI jobs are: the quiet run, then the busy one reading 10 % slower.
    for (const auto& [name, base] : {std::pair{"quiet", 100}, std::pair{"busy", 110}}) {
      const auto yaml = suite((std::string(name) + ".yaml").c_str(), base);
      const auto f = run_perfzero({"--config=" + yaml.string(), "--output_dir=run"}, dir_->path() / name);
      ASSERT_EQ(f.exit_code, 0) << f.out << f.err;
      plant_load(dir_->path() / name / "run", std::string(name) == "busy");
    }
  }
  static void TearDownTestSuite() { dir_.reset(); }

  static std::string run(const char* name) { return (dir_->path() / name / "run").string(); }
  static Finished compare(std::vector<std::string> args) {
    args.insert(args.begin(), {"compare", "--metrics=^chosen_ms$"});
    return run_perfzero(args, dir_->path() / "compare");
  }
  static const nlohmann::json& row(const nlohmann::json& doc) {
    for (const auto& r : doc.at("results")) {
      if (r.at("metric") == "chosen_ms") return r;
    }
    throw std::runtime_error("no row chosen_ms in " + doc.dump());
  }

  static inline std::unique_ptr<TempDir> dir_;
};

// Before: "slower +10.0 %", exit 1, and nothing said the busy run might be why.
TEST_F(CompareConfounded, ADirectionTheLoadExplainsIsConfoundedAndUndecidedInEveryOutput) {
  const auto f =
      compare({run("quiet"), run("busy"), "--use_flagged", "--format=json", "--markdown=c.md", "--junit=c.xml"});
  EXPECT_EQ(f.exit_code, 5) << f.out << f.err;
  const auto doc = nlohmann::json::parse(f.out);
  const auto& r = row(doc);
  EXPECT_EQ(r.at("verdict"), "confounded") << r.dump();
  EXPECT_EQ(r.at("gate"), "undecided") << r.dump();
  EXPECT_TRUE(contains(r.at("reason"), "while the candidate run was the busier")) << r.dump();
  EXPECT_EQ(doc.at("compare_version"), 4);
  EXPECT_GE(doc.at("counts").at("confounded").get<int>(), 1);
  EXPECT_EQ(doc.at("counts").at("slower"), 0);
  ASSERT_TRUE(doc.at("confounding").is_string()) << doc.dump();
  EXPECT_TRUE(contains(doc.at("confounding"), "made at different times")) << doc.at("confounding");
  EXPECT_TRUE(contains(doc.at("confounding"), "perfzero ab")) << doc.at("confounding");
  EXPECT_TRUE(contains(f.err, "perfzero ab")) << "the warning goes to stderr beside JSON: " << f.err;
  const std::string md = slurp(dir_->path() / "compare" / "c.md");
  EXPECT_TRUE(contains(md, "made at different times") && contains(md, "perfzero ab")) << md;
  const std::string xml = slurp(dir_->path() / "compare" / "c.xml");
  EXPECT_TRUE(contains(xml, "<failure message=\"undecided: chosen: chosen_ms confounded")) << xml;
  const auto text = compare({run("quiet"), run("busy"), "--use_flagged", "--color=never"});
  EXPECT_EQ(text.exit_code, 5) << text.out << text.err;
  EXPECT_TRUE(contains(text.out, "confounded (reads +10.0%; runs made at different times)")) << text.out;
  EXPECT_TRUE(contains(text.out, "perfzero ab")) << text.out;
  EXPECT_TRUE(contains(text.out, "gate: undecided (exit 5)")) << text.out;
}

// Swapped, the busy run is the baseline and the candidate reads "faster" -9 %: the load explains
// that too (the issue's "faster -8.7 %" for 5 % more work).
TEST_F(CompareConfounded, AFasterCandidateAfterABusyBaselineIsConfoundedToo) {
  const auto f = compare({run("busy"), run("quiet"), "--use_flagged", "--format=json"});
  EXPECT_EQ(f.exit_code, 5) << f.out << f.err;
  const auto doc = nlohmann::json::parse(f.out);
  const auto& r = row(doc);
  EXPECT_EQ(r.at("verdict"), "confounded") << r.dump();
  EXPECT_TRUE(contains(r.at("reason"), "read faster -9.1%")) << r.dump();
}

// A slowdown against the load (the baseline's run was the busy one, and yet the candidate reads slower)
// is not decided either: a load can push a reading both ways (same-vs-same with a hog during one run
// read such a direction in 6 of 100 pairs). Here the same runs with the load planted the other way.
TEST_F(CompareConfounded, ADirectionAgainstTheLoadIsConfoundedToo) {
  TempDir other;
  for (const char* name : {"quiet", "busy"}) {
    std::filesystem::copy(run(name), other.path() / name, std::filesystem::copy_options::recursive);
    plant_load(other.path() / name, std::string(name) == "quiet");
  }
  const auto f =
      compare({(other.path() / "quiet").string(), (other.path() / "busy").string(), "--use_flagged", "--format=json"});
  EXPECT_EQ(f.exit_code, 5) << f.out << f.err;
  const auto doc = nlohmann::json::parse(f.out);
  const auto& r = row(doc);
  EXPECT_EQ(r.at("verdict"), "confounded") << r.dump();
  EXPECT_TRUE(contains(r.at("reason"), "while the baseline run was the busier")) << r.dump();
  EXPECT_TRUE(doc.at("confounding").is_string()) << doc.dump();
}

// Alike loads and no disturbed trial judged: nothing to warn about, the verdict stands.
TEST_F(CompareConfounded, RunsUnderAlikeLoadsAreNotWarnedAbout) {
  TempDir other;
  for (const char* name : {"quiet", "busy"}) {
    std::filesystem::copy(run(name), other.path() / name, std::filesystem::copy_options::recursive);
    plant_load(other.path() / name, false);
  }
  const auto f = compare({(other.path() / "quiet").string(), (other.path() / "busy").string(), "--format=json"});
  EXPECT_EQ(f.exit_code, 1) << f.out << f.err;
  const auto doc = nlohmann::json::parse(f.out);
  EXPECT_EQ(row(doc).at("verdict"), "slower");
  EXPECT_TRUE(doc.at("confounding").is_null()) << doc.dump();
}

}  // namespace
}  // namespace perfzero::testing::compare_confounded_test
