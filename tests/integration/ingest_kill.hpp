#pragma once
// kill -9 of `perfzero history ingest` while it stores runs (docs/history.md, "Transactional"), for the
// SQLite and the PostgreSQL tests alike. A kill that lands before the first run is stored, or after
// the ingest has finished, proves nothing about half-stored runs, and how long an ingest takes depends
// on the machine's load: so each moment is tried again, sooner or later, until a kill lands while some
// but not all runs are stored, and the moments where none did are handed back for the test to skip.
#include <signal.h>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "perfzero_runner.hpp"

namespace perfzero::testing {

// Gives each run a new execution id, PREFIX-INDEX: new runs, as far as the history goes, without
// copying their directories again.
inline void relabel(const std::vector<std::filesystem::path>& runs, const std::string& prefix) {
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto file = runs[i] / "run.json";
    std::string text = slurp(file);
    const std::string old_id = read_json(file).at("execution_id");
    const std::string id = fmt::format("{}-{}", prefix, i);
    for (auto at = text.find(old_id); at != std::string::npos; at = text.find(old_id, at + id.size())) {
      text.replace(at, old_id.size(), id);
    }
    std::ofstream(file, std::ios::trunc) << text;
  }
}

// Every run stored in `db` (a SQLite path or a postgresql:// URL), as `history list --format=json`.
inline nlohmann::json history_list(const std::string& db, const std::filesystem::path& scratch) {
  const auto f = run_perfzero({"history", "list", "--db=" + db, "--format=json", "--limit=100000"}, scratch);
  EXPECT_EQ(f.exit_code, 0) << f.err;
  return nlohmann::json::parse(f.exit_code == 0 ? f.out : "[]");
}

struct IngestKills {
  std::vector<std::string> missed;  // the moments where no kill landed mid-ingest, and why
  std::string last_prefix;          // the runs' execution ids are LAST_PREFIX-INDEX now
};

// Ingests `runs` (copies of one run of `trials` trials) into `db` and kills it at 20, 40, 60 and 80 %
// of an uninterrupted ingest's time; checks after every kill that each stored run has all its trials.
inline IngestKills kill_ingest_at_several_moments(const std::string& db, const std::vector<std::filesystem::path>& runs,
                                                  int trials, const std::filesystem::path& scratch) {
  // Unique per call, so that repeated tests on one PostgreSQL server never find their runs stored.
  const std::string family = fmt::format("kill{}", std::random_device{}());
  std::vector<std::string> args{"history", "ingest", "--db=" + db};
  for (const auto& run : runs) args.push_back(run.string());
  auto stored_with = [&](const std::string& prefix, const std::string& when) {
    std::size_t stored = 0;
    for (const auto& r : history_list(db, scratch)) {
      const std::string id = r.at("execution_id");
      if (id.rfind(family + "-", 0) != 0) continue;  // another test's runs
      EXPECT_EQ(r.at("trials"), trials) << "half a run after kill -9 " << when << ": " << r.dump();
      if (id.rfind(prefix + "-", 0) == 0) ++stored;
    }
    return stored;
  };

  IngestKills out;
  int attempt = 0;
  out.last_prefix = fmt::format("{}-{}", family, attempt);
  relabel(runs, out.last_prefix);
  const auto started = std::chrono::steady_clock::now();
  const auto whole = run_perfzero(args, scratch);
  const auto uninterrupted = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_EQ(stored_with(out.last_prefix, "(none was sent)"), runs.size());

  for (const int percent : {20, 40, 60, 80}) {
    auto delay = std::chrono::duration_cast<std::chrono::microseconds>(uninterrupted * percent / 100);
    std::string tried;
    bool landed = false;
    for (int tries = 0; tries < 8 && !landed; ++tries) {
      out.last_prefix = fmt::format("{}-{}", family, ++attempt);
      relabel(runs, out.last_prefix);
      RunningPerfzero ingest(args, scratch);
      std::this_thread::sleep_for(delay);
      ingest.signal(SIGKILL);
      const bool killed = ingest.wait().exit_code == 128 + SIGKILL;
      const auto when = fmt::format("at {} ms ({} % of {} ms)", delay.count() / 1000, percent,
                                    std::chrono::duration_cast<std::chrono::milliseconds>(uninterrupted).count());
      const std::size_t stored = stored_with(out.last_prefix, when);
      landed = killed && stored > 0 && stored < runs.size();
      tried += fmt::format(" {}: {} of {} stored{};", when, stored, runs.size(), killed ? "" : ", had exited");
      // Too late: it had finished (or stored all); too soon: it was still reading the runs.
      delay = !killed || stored == runs.size() ? delay / 2 : delay * 3 / 2;
    }
    if (!landed) out.missed.push_back(fmt::format("{} %:{}", percent, tried));
  }
  return out;
}

// After the kills: ingesting again completes the set of the last, interrupted ingest, each run
// once and whole.
inline void expect_ingesting_again_completes(const std::string& db, const std::vector<std::filesystem::path>& runs,
                                             int trials, const IngestKills& kills,
                                             const std::filesystem::path& scratch) {
  std::vector<std::string> args{"history", "ingest", "--db=" + db};
  for (const auto& run : runs) args.push_back(run.string());
  const auto done = run_perfzero(args, scratch);
  ASSERT_EQ(done.exit_code, 0) << done.err;
  std::size_t completed = 0;
  for (const auto& r : history_list(db, scratch)) {
    if (r["execution_id"].get<std::string>().rfind(kills.last_prefix + "-", 0) != 0) continue;
    ++completed;
    EXPECT_EQ(r["trials"], trials) << r.dump();
  }
  EXPECT_EQ(completed, runs.size());
}

}  // namespace perfzero::testing
