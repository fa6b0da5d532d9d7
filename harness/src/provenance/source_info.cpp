#include "provenance/source_info.hpp"

#include <array>
#include <cstdlib>
#include <utility>

#include "provenance/git_checkout.hpp"
#include "redact/redact.hpp"

namespace perfzero::provenance {

namespace {

// The commit and branch each CI system names, first match wins. A pull request's GITHUB_SHA is the
// merge commit GitHub made, and GITHUB_HEAD_REF its source branch (set only for pull requests).
constexpr std::array kCommitVariables = {"GITHUB_SHA", "CI_COMMIT_SHA", "BUILDKITE_COMMIT", "CIRCLE_SHA1",
                                         "GIT_COMMIT"};
constexpr std::array kBranchVariables = {"GITHUB_HEAD_REF",  "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME",
                                         "BUILDKITE_BRANCH", "CIRCLE_BRANCH",   "GIT_BRANCH"};

// Whatever a flag or a variable says is kept, but bounded: these values are labels, not documents.
constexpr std::size_t kMaxValue = 256;

std::string bounded(std::string value) {
  value = redact::redact_urls(value);
  if (value.size() > kMaxValue) value.resize(kMaxValue);
  return value;
}

template <std::size_t N>
std::optional<std::pair<std::string, std::string>> first_set(const Environment& env,
                                                             const std::array<const char*, N>& names) {
  for (const char* name : names) {
    if (auto value = env(name); value && !value->empty()) return std::make_pair(bounded(*value), std::string(name));
  }
  return std::nullopt;
}

}  // namespace

Environment process_environment() {
  return [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    return value != nullptr ? std::optional<std::string>(value) : std::nullopt;
  };
}

results::SourceInfo detect_source(const SourceFlags& flags, const Environment& env,
                                  const std::filesystem::path& working_dir) {
  results::SourceInfo s;
  const auto take = [&](std::string& field, const char* key, const std::string& value, const std::string& from) {
    if (!field.empty() || value.empty()) return;
    field = bounded(value);
    s.from[key] = from;
  };
  take(s.commit, "commit", flags.commit, "flag");
  take(s.branch, "branch", flags.branch, "flag");
  take(s.build_label, "build_label", flags.build_label, "flag");
  if (!flags.detect) return s;
  if (s.commit.empty()) {
    if (auto found = first_set(env, kCommitVariables)) take(s.commit, "commit", found->first, found->second);
  }
  // CI's branch only with CI's own commit (or none given): a flag's commit with CI's branch would, as
  // with the checkout's below, describe a build that never was.
  const bool commit_from_ci = s.commit.empty() || s.from.value("commit", "") != "flag";
  if (s.branch.empty() && commit_from_ci) {
    if (auto found = first_set(env, kBranchVariables)) take(s.branch, "branch", found->first, found->second);
  }
  if (s.commit.empty() || s.branch.empty()) {
    // The checkout is read only for what CI did not say: a CI checkout is often detached.
    if (const auto checkout = find_git_checkout(working_dir)) {
      const std::string from = "git checkout " + checkout->top.string();
      // Its branch only where it holds the commit named: a flag's commit with the checkout's branch
      // would describe a build that never was.
      const bool same_commit = s.commit.empty() || s.commit == checkout->commit;
      take(s.commit, "commit", checkout->commit, from);
      if (same_commit) take(s.branch, "branch", checkout->branch, from);
    }
  }
  return s;
}

}  // namespace perfzero::provenance
