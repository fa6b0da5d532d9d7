#pragma once
// Each worker's --list-json answer kept between runs, so start-up asks no worker whose file has not
// changed (a CUDA worker takes 100 ms and more to load its libraries and answer). An entry is keyed
// by the worker file's identity (device, inode, size, modification and change times) and
// $LD_LIBRARY_PATH, and holds the worker's own text, which is parsed again each time as if the
// worker had printed it. It only ever lists methods: which executable runs a method comes from
// find_workers, never from here. What the worker file does not show (a wrapper script's target, a
// library replaced in place) keeps its list until the file changes or the cache is off.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace perfzero::method_catalog {

struct WorkerIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  bool operator==(const WorkerIdentity&) const = default;
};

// The identity of the file `worker` names (links followed, as exec follows them).
std::optional<WorkerIdentity> identify(const std::filesystem::path& worker);

// $PERFZERO_WORKER_CACHE when set ("0" or "off": no cache), else $XDG_CACHE_HOME/perfzero/workers,
// else $HOME/.cache/perfzero/workers; empty for no cache.
std::filesystem::path default_cache_dir();

class ListCache {
 public:
  explicit ListCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // The text `worker` printed when it had identity `id`; nullopt when there is no such entry, or
  // it is unreadable, another user's, not a plain file, too large, or for another identity.
  std::optional<std::string> find(const std::filesystem::path& worker, const WorkerIdentity& id) const;
  // Best effort: a cache that cannot be written (read-only, full, another user's) is no cache.
  void store(const std::filesystem::path& worker, const WorkerIdentity& id, const std::string& list_json) const;

 private:
  // The directory is there (made, 0700, when `create`), is no link, and is this user's.
  bool usable(bool create) const;
  std::filesystem::path entry(const std::filesystem::path& worker) const;
  std::filesystem::path dir_;
};

}  // namespace perfzero::method_catalog
