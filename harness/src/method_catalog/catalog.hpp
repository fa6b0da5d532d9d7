#pragma once
// The methods this installation can run, learned at start-up from the worker executables
// (perfzero-worker-* in the helper directory, common/install_layout.hpp, then in
// $PERFZERO_WORKER_PATH), and which worker runs each.
// Its registry is what method selection, suites, `list` and `validate` use.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "method_catalog/list_json_parser.hpp"
#include "perfzero/registry.hpp"

namespace perfzero::method_catalog {

struct Worker {
  std::string name;  // as it names itself in its list, e.g. "core"
  std::filesystem::path executable;
};

class Catalog {
 public:
  const Registry& registry() const { return registry_; }
  const std::vector<Worker>& workers() const { return workers_; }
  // The worker that runs `method` (family.Class.method); nullptr when no worker has it.
  const Worker* worker_of(std::string_view method) const;

  // Throws ConfigError naming both workers when one of `listed`'s methods is already known.
  void add(const std::filesystem::path& executable, WorkerMethods listed);

 private:
  Registry registry_;
  std::vector<Worker> workers_;
  std::map<std::string, std::size_t, std::less<>> worker_index_;  // method -> index in workers_
};

struct DiscoveryOptions {
  std::filesystem::path bin_dir;  // where perfzero is
  std::string worker_path;        // $PERFZERO_WORKER_PATH
  std::chrono::milliseconds limit{std::chrono::seconds(5)};
  std::filesystem::path cache_dir;  // each worker's listing kept between runs (list_cache.hpp); empty: none
};

// Runs every worker's --list-json, but for those whose answer the cache holds for the file as it is
// now. A worker that fails or prints bad JSON gets a one-line warning
// on `warnings` and its methods are unavailable; a method listed by two workers is a ConfigError.
Catalog discover(const DiscoveryOptions& options, std::FILE* warnings);

// The catalog of the running perfzero: its own directory and $PERFZERO_WORKER_PATH.
Catalog discover_installed(std::FILE* warnings);

// The installed catalog, learned from the workers on first use only: a run or validate whose
// suites hold only external commands starts no worker.
class LazyCatalog {
 public:
  explicit LazyCatalog(std::FILE* warnings) : warnings_(warnings) {}
  const Catalog& get();
  // What get() learned, or an empty catalog when nothing asked for it.
  const Catalog& learned_or_empty() const { return catalog_ ? *catalog_ : empty_; }

 private:
  std::FILE* warnings_;
  std::optional<Catalog> catalog_;
  Catalog empty_;
};

}  // namespace perfzero::method_catalog
