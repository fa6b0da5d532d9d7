#pragma once
// PerfZero's --git_repos: repositories checked out once per run into <workspace>/site-packages,
// where --python_path's relative entries find them, each recorded (URL, branch, revision) in the
// reports' benchmark_info.site_package_info as PerfZero records them.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace perfzero::python_methods {

struct GitRepo {
  std::string url;
  std::string branch;                // "" : the remote's default
  std::string hash;                  // "" : the branch's head
  std::string dir_name;              // the URL's last part without .git (PerfZero's rule)
  std::filesystem::path local_path;  // <site-packages>/<dir_name>
  std::string revision;              // what was checked out (git rev-parse HEAD)
};

// "url;branch;hash,url2;branch2": throws UsageError naming the part that is wrong.
std::vector<GitRepo> parse_git_repos(const std::string& text);

// Clones each repository into site_packages (or fetches into the clone already there, when its
// origin is the same URL), then checks out the branch and the hash. `say` gets a line per step.
// Throws ConfigError with git's own message when a step fails.
void check_out(std::vector<GitRepo>& repos, const std::filesystem::path& site_packages,
               const std::function<void(const std::string&)>& say);

// {dir_name: {url, branch, hash}} with credentials in URLs redacted.
nlohmann::json site_package_info(const std::vector<GitRepo>& repos);

}  // namespace perfzero::python_methods
