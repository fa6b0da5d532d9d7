#include "session/run_facts.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "child_results/untrusted_file.hpp"
#include "redact/redact.hpp"

namespace perfzero::session {

namespace {

constexpr std::uint64_t kMaxFactBytes = 1ULL << 20;
constexpr std::size_t kMaxFacts = 64;

bool valid_name(const std::string& name) {
  return !name.empty() && name.size() <= 63 && name[0] >= 'a' && name[0] <= 'z' &&
         std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

}  // namespace

std::vector<RunFact> RunFacts::pick_up(const std::filesystem::path& run_dir,
                                       const std::function<bool(const std::string&)>& taken) {
  std::vector<RunFact> found;
  const auto dir = run_dir / kRunFactsDir;
  std::error_code ec;
  // A link in the directory's place is not followed, as no path a method controls is.
  if (!std::filesystem::is_directory(std::filesystem::symlink_status(dir, ec))) return found;
  for (auto it = std::filesystem::directory_iterator(dir, ec); !ec && it != std::filesystem::directory_iterator();
       it.increment(ec)) {
    const auto path = it->path();
    if (path.extension() != ".json") continue;
    const std::string name = path.stem().string();
    if (seen_.count(name) != 0) continue;
    const auto refuse = [&](const std::string& why) {
      seen_.insert(name);
      refused_.push_back(fmt::format("run fact {} left out: {}", path.string(), why));
    };
    if (kept_ >= kMaxFacts) {
      // Said once, not once a file: a method can write any number of them.
      if (!said_full_) {
        refused_.push_back(fmt::format("run fact {} and every later one left out: the run keeps at most {} run facts",
                                       path.string(), kMaxFacts));
        said_full_ = true;
      }
      continue;
    }
    if (!valid_name(name)) {
      refuse("its name is not [a-z][a-z0-9_]* of at most 63 characters");
      continue;
    }
    if (taken(name)) {
      refuse(fmt::format("the system info already has '{}'", name));
      continue;
    }
    const auto file = child_results::read_untrusted_file(path, kMaxFactBytes);
    // Written by rename, so a file is whole when it is there; one not yet readable is tried again later.
    if (file.missing) continue;
    if (!file.text) {
      refuse(file.problem);
      continue;
    }
    auto value = nlohmann::json::parse(*file.text, nullptr, false);
    if (!value.is_object()) {
      refuse("it is not a JSON object");
      continue;
    }
    seen_.insert(name);
    ++kept_;
    // A method wrote it: it enters the record redacted, as everything from outside does.
    found.push_back({name, redact::redacted_json(value)});
  }
  std::sort(found.begin(), found.end(), [](const RunFact& a, const RunFact& b) { return a.name < b.name; });
  return found;
}

}  // namespace perfzero::session
