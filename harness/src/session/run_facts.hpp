#pragma once
// Run facts: what a method measures once per run about the machine (the CPU's FLOP peak is one) and
// leaves as $PERFZERO_RUN_DIR/run_facts/NAME.json for the rest of the run and for the report. The
// harness picks each one up once, after the trial that wrote it, into the run's system info under
// NAME (run.json's run.system; docs/system_info.md). Methods write there, so a fact is read as any
// file a child controls: a regular file, not through a link, 1 MiB at most, a JSON object, named
// [a-z][a-z0-9_]* (63 characters at most), and never in place of a key the system info already has.
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace perfzero::session {

inline constexpr const char* kRunFactsDir = "run_facts";

struct RunFact {
  std::string name;
  nlohmann::json value;
};

class RunFacts {
 public:
  // The facts in run_dir/run_facts not taken before; `taken` holds the system info's keys, so a fact
  // cannot replace one. What is refused is said in `refused`, once per file.
  // `taken` says whether the system info already has a name; it is asked only about a file found
  // (most trials find none, and the system info has dozens of keys).
  std::vector<RunFact> pick_up(const std::filesystem::path& run_dir,
                               const std::function<bool(const std::string&)>& taken);
  const std::vector<std::string>& refused() const { return refused_; }

 private:
  std::set<std::string> seen_;
  std::size_t kept_ = 0;
  bool said_full_ = false;
  std::vector<std::string> refused_;
};

}  // namespace perfzero::session
