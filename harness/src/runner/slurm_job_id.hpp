#pragma once
// A Slurm job id as perfzero writes it into a run (and reads it back from a file the method could
// have written): digits only, so nothing else ever reaches squeue or scancel.
#include <string_view>

namespace perfzero::runner {

inline bool is_slurm_job_id(std::string_view id) {
  return !id.empty() && id.size() <= 20 && id.find_first_not_of("0123456789") == std::string_view::npos;
}

}  // namespace perfzero::runner
