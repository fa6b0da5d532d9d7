#include "method_catalog/catalog.hpp"

#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/install_layout.hpp"
#include "common/text.hpp"
#include "method_catalog/list_cache.hpp"
#include "method_catalog/worker_discovery.hpp"

namespace perfzero::method_catalog {

const Worker* Catalog::worker_of(std::string_view method) const {
  const auto it = worker_index_.find(method);
  return it == worker_index_.end() ? nullptr : &workers_[it->second];
}

void Catalog::add(const std::filesystem::path& executable, WorkerMethods listed) {
  for (const auto& m : listed.methods) {
    if (const Worker* other = worker_of(m.full_name())) {
      throw ConfigError(
          fmt::format("benchmark method {} is listed by two workers: {} and {}; remove one of them "
                      "(or its directory from $PERFZERO_WORKER_PATH)",
                      m.full_name(), other->executable.string(), executable.string()));
    }
  }
  // Checked first so that a rejected worker leaves the catalog as it was.
  workers_.push_back({std::move(listed.worker), executable});
  for (auto& m : listed.methods) {
    worker_index_.emplace(m.full_name(), workers_.size() - 1);
    registry_.add(std::move(m));
  }
}

namespace {

// Every worker's listing, in find_workers' order: from the cache where it holds the file as it is
// now, else asked (all at once). `to_store`: the identity of each asked worker, to key its answer.
std::vector<Listing> listings(const DiscoveryOptions& options, const ListCache& cache,
                              std::vector<std::optional<WorkerIdentity>>& to_store) {
  const auto workers = find_workers(options.bin_dir, options.worker_path);
  std::vector<Listing> out(workers.size());
  std::vector<std::filesystem::path> to_ask;
  std::vector<std::size_t> asked_index;
  to_store.assign(workers.size(), std::nullopt);
  for (std::size_t i = 0; i < workers.size(); ++i) {
    out[i].worker = workers[i];
    const auto id = identify(workers[i]);
    if (id) {
      if (auto cached = cache.find(workers[i], *id)) {
        out[i].out = std::move(*cached);
        continue;
      }
    }
    to_store[i] = id;
    to_ask.push_back(workers[i]);
    asked_index.push_back(i);
  }
  auto asked = list_workers(to_ask, options.limit);
  for (std::size_t k = 0; k < asked.size(); ++k) out[asked_index[k]] = std::move(asked[k]);
  return out;
}

}  // namespace

Catalog discover(const DiscoveryOptions& options, std::FILE* warnings) {
  Catalog catalog;
  const ListCache cache(options.cache_dir);
  std::vector<std::optional<WorkerIdentity>> to_store;
  auto all = listings(options, cache, to_store);
  for (std::size_t i = 0; i < all.size(); ++i) {
    Listing& listing = all[i];
    if (listing.failure.empty()) {
      try {
        catalog.add(listing.worker, parse_method_list(listing.out));
        // Kept only once it parsed and joined the catalog: a broken answer is asked again next time.
        if (to_store[i]) cache.store(listing.worker, *to_store[i], listing.out);
        continue;
      } catch (const ConfigError&) {
        throw;
      } catch (const std::exception& e) {
        listing.failure = fmt::format("--list-json printed bad JSON: {}", e.what());
      }
    }
    const auto err = text::split(text::trim(listing.err), '\n');
    fmt::print(warnings, "perfzero: warning: worker {} is unusable ({}{}); its methods are unavailable\n",
               listing.worker.string(), listing.failure, err.empty() || err.front().empty() ? "" : ": " + err.front());
  }
  return catalog;
}

Catalog discover_installed(std::FILE* warnings) {
  DiscoveryOptions options;
  options.bin_dir = files::helper_dir();
  if (const char* path = std::getenv("PERFZERO_WORKER_PATH")) options.worker_path = path;
  options.cache_dir = default_cache_dir();
  return discover(options, warnings);
}

const Catalog& LazyCatalog::get() {
  if (!catalog_) catalog_ = discover_installed(warnings_);
  return *catalog_;
}

}  // namespace perfzero::method_catalog
