#include "fleet_report/run_discovery.hpp"

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "results/reader.hpp"

namespace perfzero::fleet_report {

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

// Finds what to read; reading happens afterwards, in parallel (read_all).
class Walker {
 public:
  void visit(const fs::path& path, int depth) {
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      problems_.push_back(fmt::format("{}: no such file or directory", path.string()));
    } else if (fs::is_regular_file(status)) {
      read(path);
    } else if (!fs::is_directory(status)) {
      problems_.push_back(fmt::format("{}: neither a folder nor a report file", path.string()));
    } else if (is_run_dir(path)) {
      const std::string problem = unreadable_run_file(path);
      if (problem.empty()) {
        read(path);
      } else {
        problems_.push_back(fmt::format("{}: {}", path.string(), problem));
      }
    } else if (fs::exists(path / "perfzero_summary.json", ec)) {
      read(path / "perfzero_summary.json");
    } else {
      descend(path, depth);
    }
  }

  std::vector<fs::path>& found() { return found_; }
  std::vector<std::string>& problems() { return problems_; }

 private:
  void read(const fs::path& path) { found_.push_back(path); }

  void descend(const fs::path& dir, int depth) {
    if (depth >= kMaxDepth) {
      problems_.push_back(fmt::format("{}: deeper than {} folders; not searched further", dir.string(), kMaxDepth));
      return;
    }
    std::vector<fs::path> children;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      // Only real folders are searched: a symbolic link could lead back up and loop for ever.
      if (entry.is_directory(ec) && !entry.is_symlink(ec)) children.push_back(entry.path());
    }
    if (ec) problems_.push_back(fmt::format("{}: cannot list: {}", dir.string(), ec.message()));
    std::sort(children.begin(), children.end());
    for (const auto& child : children) visit(child, depth + 1);
  }

  std::vector<fs::path> found_;
  std::vector<std::string> problems_;
};

// Parsing JSON is nearly all of a report's time: the files are read by every core, a batch at a
// time (so memory holds one batch of runs, not all of them), and handed on in the order found.
void read_all(const std::vector<fs::path>& paths, DiscoveryStats& stats,
              const std::function<void(const std::string&, results::Run&&)>& on_run) {
  const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16);
  constexpr std::size_t kBatch = 512;
  for (std::size_t start = 0; start < paths.size(); start += kBatch) {
    const std::size_t n = std::min(kBatch, paths.size() - start);
    std::vector<std::optional<results::Run>> runs(n);
    std::vector<std::string> errors(n);
    std::vector<std::vector<std::string>> said(n);  // what the reader met in a run it did read
    std::atomic<std::size_t> next{0};
    auto work = [&] {
      for (std::size_t i = next++; i < n; i = next++) {
        try {
          results::LoadedRun loaded = results::read_run(paths[start + i]);
          const std::string path = paths[start + i].string();
          if (const auto partial = results::partial_warning(loaded, path)) said[i].push_back(*partial);
          if (loaded.foreign_lines > 0) {
            said[i].push_back(fmt::format("{}: {} journal line(s) its harness did not write were left out", path,
                                          loaded.foreign_lines));
          }
          runs[i] = std::move(loaded.run);
        } catch (const std::exception& e) {
          errors[i] = e.what();
        }
      }
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < std::min(threads, n); ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    for (std::size_t i = 0; i < n; ++i) {
      for (auto& s : said[i]) stats.notes.push_back(std::move(s));
      if (runs[i]) {
        ++stats.runs;
        on_run(paths[start + i].string(), std::move(*runs[i]));
      } else {
        stats.problems.push_back(std::move(errors[i]));
      }
    }
  }
}

}  // namespace

DiscoveryStats for_each_run(const std::vector<std::string>& paths,
                            const std::function<void(const std::string&, results::Run&&)>& on_run) {
  DiscoveryStats stats;
  for (const auto& path : paths) {
    Walker walker;
    walker.visit(path, 0);
    // An empty folder is not an error of any file in it, but the user must hear that it held nothing.
    if (walker.found().empty() && walker.problems().empty()) {
      walker.problems().push_back(
          fmt::format("{}: holds no perfzero run (no run.json, summary.json or perfzero_summary.json)", path));
    }
    for (auto& p : walker.problems()) stats.problems.push_back(std::move(p));
    read_all(walker.found(), stats, on_run);
  }
  return stats;
}

}  // namespace perfzero::fleet_report
