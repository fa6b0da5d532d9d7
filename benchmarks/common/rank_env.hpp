#pragma once
// Where a method of a multi-rank launch stands (docs/multi-host.md): its rank, the world's size and
// its local rank, as perfzero-rank sets them, and the trial directory every host sees, where ranks
// leave each other what they need to meet (network: where rank 1 listens; nccl: NCCL's unique id).
#include <cstdlib>
#include <filesystem>

namespace perfzero::bench {

struct RankPlace {
  int rank = 0;
  int world = 1;
  int local_rank = 0;
};

inline long env_number(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::strtol(v, nullptr, 10) : fallback;
}

// Rank 0 of 1 when the method was not launched on several ranks.
inline RankPlace rank_place() {
  return {static_cast<int>(env_number("PERFZERO_RANK", 0)), static_cast<int>(env_number("PERFZERO_WORLD_SIZE", 1)),
          static_cast<int>(env_number("PERFZERO_LOCAL_RANK", 0))};
}

// $PERFZERO_TRIAL_DIR, else the working directory (a method run by hand).
inline std::filesystem::path trial_dir() {
  const char* dir = std::getenv("PERFZERO_TRIAL_DIR");
  return dir != nullptr && *dir != '\0' ? std::filesystem::path(dir) : std::filesystem::current_path();
}

}  // namespace perfzero::bench
