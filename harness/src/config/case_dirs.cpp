#include "config/case_dirs.hpp"

#include <algorithm>
#include <cstdint>
#include <map>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/text.hpp"

namespace perfzero::config {

namespace {

// Files the run directory itself holds (the dashboard exports' names are export_formats/'s); a case
// directory must not take their names.
const std::vector<std::string> kRunFiles{"run.json",
                                         "journal.ndjson",
                                         "summary.json",
                                         "summary.csv",
                                         "summary.md",
                                         ".perfzero.lock",
                                         ".perfzero.reserve",
                                         "run_facts",
                                         "elasticsearch_bulk.ndjson",
                                         "elasticsearch_template.json",
                                         "perfzero.prom",
                                         "influx.lp"};

bool is_run_file(const std::string& dir) {
  return std::find(kRunFiles.begin(), kRunFiles.end(), dir) != kRunFiles.end();
}

}  // namespace

std::string short_hash(std::string_view name) {
  std::uint64_t h = 14695981039346656037ULL;
  for (const char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return fmt::format("{:08x}", static_cast<std::uint32_t>(h ^ (h >> 32)));
}

void assign_case_dirs(std::vector<PlannedCase>& plan) {
  // A name that needs no replacing keeps its exact form: names are unique, so such directories are.
  std::map<std::string, int> plain_count;
  for (auto& c : plan) {
    c.dir = text::path_component(c.name);
    ++plain_count[c.dir];
  }
  for (auto& c : plan) {
    const bool changed = c.dir != c.name;
    const bool taken = plain_count[c.dir] > 1 || is_run_file(c.dir);
    if ((changed && taken) || c.dir.size() > kMaxCaseDirBytes || is_run_file(c.dir)) {
      const std::string suffix = fmt::format("-{}", short_hash(c.name));
      if (c.dir.size() + suffix.size() > kMaxCaseDirBytes) c.dir.resize(kMaxCaseDirBytes - suffix.size());
      c.dir += suffix;
    }
  }
  std::map<std::string, const PlannedCase*> owner;
  for (const auto& c : plan) {
    const auto [at, inserted] = owner.emplace(c.dir, &c);
    if (!inserted) {
      throw ConfigError(fmt::format("{}: name: '{}' would share the report directory '{}' with '{}' ({}); rename one",
                                    c.origin, c.name, c.dir, at->second->name, at->second->origin));
    }
  }
}

}  // namespace perfzero::config
