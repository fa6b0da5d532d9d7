#include "report/run_discovery.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "results/reader.hpp"

namespace perfzero::report {

namespace {

namespace fs = std::filesystem;

constexpr const char* kRunFiles[] = {"run.json", "journal.ndjson", "summary.json"};
constexpr int kMaxDepth = 32;

// A run's files must be regular files: a FIFO would block the reader for ever.
std::string unreadable_run_file(const fs::path& dir) {
  for (const char* name : kRunFiles) {
    std::error_code ec;
    const auto status = fs::status(dir / name, ec);
    if (!ec && fs::exists(status) && !fs::is_regular_file(status)) {
      return fmt::format("{} is not a regular file", name);
    }
  }
  return "";
}

bool is_run_dir(const fs::path& dir) {
  std::error_code ec;
  return fs::exists(dir / "run.json", ec) || fs::exists(dir / "summary.json", ec);
}

class Walker {
 public:
  explicit Walker(const std::function<void(const std::string&, results::Run&&)>& on_run) : on_run_(on_run) {}

  void visit(const fs::path& path, int depth) {
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      stats_.problems.push_back(fmt::format("{}: no such file or directory", path.string()));
    } else if (fs::is_regular_file(status)) {
      read(path);
    } else if (!fs::is_directory(status)) {
      stats_.problems.push_back(fmt::format("{}: neither a folder nor a report file", path.string()));
    } else if (is_run_dir(path)) {
      const std::string problem = unreadable_run_file(path);
      if (problem.empty()) {
        read(path);
      } else {
        stats_.problems.push_back(fmt::format("{}: {}", path.string(), problem));
      }
    } else if (fs::exists(path / "perfzero_summary.json", ec)) {
      read(path / "perfzero_summary.json");
    } else {
      descend(path, depth);
    }
  }

  DiscoveryStats take() { return std::move(stats_); }
  std::size_t runs() const { return stats_.runs; }
  std::size_t problems() const { return stats_.problems.size(); }
  void note(std::string problem) { stats_.problems.push_back(std::move(problem)); }

 private:
  void read(const fs::path& path) {
    try {
      auto loaded = results::read_run(path);
      ++stats_.runs;
      on_run_(path.string(), std::move(loaded.run));
    } catch (const std::exception& e) {
      stats_.problems.push_back(e.what());
    }
  }

  void descend(const fs::path& dir, int depth) {
    if (depth >= kMaxDepth) {
      stats_.problems.push_back(
          fmt::format("{}: deeper than {} folders; not searched further", dir.string(), kMaxDepth));
      return;
    }
    std::vector<fs::path> children;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      // Only real folders are searched: a symbolic link could lead back up and loop for ever.
      if (entry.is_directory(ec) && !entry.is_symlink(ec)) children.push_back(entry.path());
    }
    if (ec) stats_.problems.push_back(fmt::format("{}: cannot list: {}", dir.string(), ec.message()));
    std::sort(children.begin(), children.end());
    for (const auto& child : children) visit(child, depth + 1);
  }

  const std::function<void(const std::string&, results::Run&&)>& on_run_;
  DiscoveryStats stats_;
};

}  // namespace

DiscoveryStats for_each_run(const std::vector<std::string>& paths,
                            const std::function<void(const std::string&, results::Run&&)>& on_run) {
  Walker walker(on_run);
  for (const auto& path : paths) {
    const std::size_t runs_before = walker.runs();
    const std::size_t problems_before = walker.problems();
    walker.visit(path, 0);
    // An empty folder is not an error of any file in it, but the user must hear that it held nothing.
    if (walker.runs() == runs_before && walker.problems() == problems_before) {
      walker.note(fmt::format("{}: holds no perfzero run (no run.json, summary.json or perfzero_summary.json)", path));
    }
  }
  return walker.take();
}

}  // namespace perfzero::report
