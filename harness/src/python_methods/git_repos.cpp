#include "python_methods/git_repos.hpp"

#include <chrono>
#include <system_error>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/program_output.hpp"
#include "common/text.hpp"
#include "redact/redact.hpp"

namespace perfzero::python_methods {

namespace {

constexpr auto kGitLimit = std::chrono::minutes(30);  // a clone of a large repository over a slow link

// git's own words when it fails, without a credential the URL carried.
std::string git(const std::vector<std::string>& args, const std::string& what) {
  std::vector<std::string> argv{"git"};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto out = files::run_program(argv, kGitLimit);
  if (out.ok()) return text::trim(out.out);
  const std::string why = !out.started    ? out.error
                          : out.timed_out ? fmt::format("no end within {} minutes", kGitLimit.count())
                                          : text::trim(out.err);
  throw ConfigError(fmt::format("--git_repos: {}: {}", redact::redact_urls(what), redact::redact_text(why)));
}

// PerfZero's rule, the URL's last part without .git, after its query and fragment (which may hold a
// token) are cut off.
std::string dir_name_of(const std::string& url) {
  std::string last = url.substr(0, url.find_first_of("?#"));
  while (!last.empty() && last.back() == '/') last.pop_back();
  last = last.substr(last.find_last_of("/:") + 1);
  if (last.ends_with(".git")) last.resize(last.size() - 4);
  return last;
}

// The names the reports' site_package_info gives to the libraries perfzero was built with.
bool names_a_library(const std::string& dir_name) {
  return dir_name == "boost" || dir_name == "fmt" || dir_name == "nlohmann_json";
}

}  // namespace

std::vector<GitRepo> parse_git_repos(const std::string& text) {
  std::vector<GitRepo> repos;
  for (const auto& item : text::split(text, ',')) {
    if (text::trim(item).empty()) continue;
    const auto parts = text::split(text::trim(item), ';');
    if (parts.size() > 3 || text::trim(parts[0]).empty()) {
      throw UsageError(fmt::format("--git_repos: expected URL;BRANCH;HASH (branch and hash optional), got '{}'",
                                   redact::redact_urls(item)));
    }
    GitRepo r;
    r.url = text::trim(parts[0]);
    if (parts.size() > 1) r.branch = text::trim(parts[1]);
    if (parts.size() > 2) r.hash = text::trim(parts[2]);
    for (const std::string* part : {&r.url, &r.branch, &r.hash}) {
      if (part->starts_with("-")) {
        throw UsageError(fmt::format("--git_repos: '{}' starts with '-' (git would read it as an option)",
                                     redact::redact_urls(*part)));
      }
    }
    r.dir_name = dir_name_of(r.url);
    const bool plain = !r.dir_name.empty() && r.dir_name != "." && r.dir_name != ".." &&
                       r.dir_name.find_first_not_of(
                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == std::string::npos;
    if (!plain) {
      throw UsageError(fmt::format(
          "--git_repos: '{}' gives no usable directory name (its last part, without .git, must be letters, digits, "
          "'.', '_' or '-')",
          redact::redact_urls(r.url)));
    }
    if (names_a_library(r.dir_name)) {
      throw UsageError(
          fmt::format("--git_repos: '{}' would be recorded in site_package_info as '{}', the name of a "
                      "library perfzero records there",
                      redact::redact_urls(r.url), r.dir_name));
    }
    for (const auto& other : repos) {
      if (other.dir_name == r.dir_name) {
        throw UsageError(fmt::format("--git_repos: two repositories would both be checked out as '{}'", r.dir_name));
      }
    }
    repos.push_back(std::move(r));
  }
  return repos;
}

void check_out(std::vector<GitRepo>& repos, const std::filesystem::path& site_packages,
               const std::function<void(const std::string&)>& say) {
  std::error_code ec;
  std::filesystem::create_directories(site_packages, ec);
  if (ec) throw ConfigError(fmt::format("--workspace: cannot make {}: {}", site_packages.string(), ec.message()));
  for (auto& r : repos) {
    r.local_path = site_packages / r.dir_name;
    const std::string dir = r.local_path.string();
    const bool fetched = std::filesystem::exists(r.local_path / ".git", ec);
    if (fetched) {
      const std::string origin = git({"-C", dir, "config", "--get", "remote.origin.url"}, dir + ": its origin");
      if (origin != r.url) {
        throw ConfigError(
            fmt::format("--git_repos: {} is a clone of {}, not of {}; remove it or choose another --workspace", dir,
                        redact::redact_urls(origin), redact::redact_urls(r.url)));
      }
      say(fmt::format("git: fetching {} into {}", redact::redact_urls(r.url), dir));
      git({"-C", dir, "fetch", "--quiet", "--tags", "origin"}, "fetch " + r.url);
    } else {
      say(fmt::format("git: cloning {} into {}", redact::redact_urls(r.url), dir));
      git({"clone", "--quiet", "--", r.url, dir}, "clone " + r.url);
    }
    if (!r.branch.empty()) {
      // The remote's branch, so that a clone kept from an earlier run moves to its new head.
      const std::string remote_branch = "origin/" + r.branch;
      const bool remote = files::run_program({"git", "-C", dir, "rev-parse", "--verify", "--quiet", remote_branch},
                                             std::chrono::seconds(30))
                              .ok();
      git({"-C", dir, "checkout", "--quiet", "-B", r.branch, remote ? remote_branch : r.branch},
          fmt::format("checkout of branch '{}' in {}", r.branch, dir));
    }
    if (!r.hash.empty()) {
      git({"-C", dir, "checkout", "--quiet", "--detach", r.hash}, fmt::format("checkout of '{}' in {}", r.hash, dir));
    } else if (r.branch.empty() && fetched) {
      // Neither named: the remote's default branch as it is now, not what an earlier run left.
      git({"-C", dir, "remote", "set-head", "origin", "--auto"}, dir + ": the remote's default branch");
      git({"-C", dir, "checkout", "--quiet", "--detach", "origin/HEAD"}, "checkout of origin/HEAD in " + dir);
    }
    r.revision = git({"-C", dir, "rev-parse", "HEAD"}, dir + ": its revision");
  }
}

nlohmann::json site_package_info(const std::vector<GitRepo>& repos) {
  nlohmann::json info = nlohmann::json::object();
  for (const auto& r : repos) {
    info[r.dir_name] = {{"url", redact::redact_urls(r.url)}, {"branch", r.branch}, {"hash", r.revision}};
  }
  return info;
}

}  // namespace perfzero::python_methods
