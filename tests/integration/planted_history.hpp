#pragma once
// A planted results history for the history tests: one real run of the sleep method, copied under new
// ids with planted starts, commits and sleeps (history_changes_test.cpp, history_postgresql_test.cpp).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <random>
#include <sstream>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

namespace perfzero::testing {

namespace fs = std::filesystem;

inline const std::string kCommitA(40, 'a');
inline const std::string kCommitB(40, 'b');

inline const char* kPlantedSuite = R"(
defaults: {trials: 6, warmup_trials: 0}
methods:
  - name: sleep
    command: ["{bindir}/perfzero-worker-core", sanity.Sanity.benchmark_sleep, '{"ms": 5}']
)";

// A copy of a real run under another id, with its start, commit and what each trial slept planted,
// and no flags: the figures are made up here, so a busy test machine's host_busy is beside the point.
inline void plant(const fs::path& base, const fs::path& to, const std::string& id, double timestamp,
                  const std::string& commit, double slept_ms, const std::string& label) {
  fs::copy(base, to, fs::copy_options::recursive);
  const std::string old_id = read_json(base / "run.json").at("execution_id");
  const auto replace_id = [&](std::string text) {
    for (auto at = text.find(old_id); at != std::string::npos; at = text.find(old_id, at + id.size())) {
      text.replace(at, old_id.size(), id);
    }
    return text;
  };
  auto run = nlohmann::json::parse(replace_id(slurp(to / "run.json")));
  run["execution_timestamp"] = timestamp;
  run["run"]["execution_timestamp"] = timestamp;
  run["run"]["execution_label"] = label;
  run["run"]["source"] = {{"commit", commit}, {"branch", "main"}, {"build_label", ""}, {"from", {{"commit", "flag"}}}};
  std::ofstream(to / "run.json", std::ios::trunc) << run.dump();
  std::istringstream lines(replace_id(slurp(to / "journal.ndjson")));
  std::string journal;
  int n = 0;
  for (std::string line; std::getline(lines, line);) {
    auto event = nlohmann::json::parse(line);
    if (event.value("event", "") == "trial") {
      auto& t = event["trial"];
      t["flags"] = nlohmann::json::array();
      const double value = slept_ms + 0.05 * (n++ % 3);
      t["wall_time"] = value / 1000;
      for (auto& m : t["metrics"]) {
        if (m["name"] == "slept_ms") m["value"] = value;
      }
    }
    journal += event.dump() + "\n";
  }
  std::ofstream(to / "journal.ndjson", std::ios::trunc) << journal;
}

// One real run, then `count` planted copies run00-a, run01-b, ...: commit A and 10 ms (with noise)
// before `step`, commit B and 12 ms from it on.
// (At most 26 runs: the ids end in a letter.)
inline std::vector<std::string> planted_history(const TempDir& dir, int count, int step, const std::string& label = "",
                                                double after = 12.0, double sigma = 0.1) {
  const auto suite = dir.write("s.yaml", kPlantedSuite);
  const auto base = run_perfzero({"--config=" + suite.string(), "--output_dir=base"}, dir.path());
  EXPECT_EQ(base.exit_code, 0) << base.err;
  std::mt19937_64 random(17);
  std::normal_distribution<double> noise(0.0, sigma);
  std::vector<std::string> dirs;
  for (int i = 0; i < count; ++i) {
    const std::string id =
        fmt::format("{}run{:02d}-{}", label.empty() ? "" : label + "-", i, static_cast<char>('a' + i));
    plant(dir.path() / "base", dir.path() / id, id, 1.764e9 + 86400.0 * i, i < step ? kCommitA : kCommitB,
          (i < step ? 10.0 : after) + noise(random), label);
    dirs.push_back(id);
  }
  return dirs;
}

inline Finished ingest(const std::vector<std::string>& dirs, const std::string& db, const fs::path& cwd) {
  std::vector<std::string> args = {"history", "ingest", "--db=" + db};
  args.insert(args.end(), dirs.begin(), dirs.end());
  return run_perfzero(args, cwd);
}

}  // namespace perfzero::testing
