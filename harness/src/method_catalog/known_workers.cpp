#include "method_catalog/known_workers.hpp"

#include <array>

#include <fmt/format.h>

namespace perfzero::method_catalog {

namespace {

struct KnownWorker {
  std::string_view family_prefix;
  bool exact;  // onednn is one family; every cuda* or opencl* family goes to its worker
  std::string_view worker;
  std::string_view label;
};

constexpr std::array kKnownWorkers{
    KnownWorker{"onednn", true, "onednn", "oneDNN"},       KnownWorker{"cuda", false, "cuda", "CUDA"},
    KnownWorker{"opencl", false, "opencl", "OpenCL"},      KnownWorker{"mpi", true, "mpi", "MPI"},
    KnownWorker{"nccl", true, "cuda", "CUDA (with NCCL)"}, KnownWorker{"storage", true, "storage", "storage (libaio)"},
};

}  // namespace

std::string missing_worker_message(std::string_view family, std::string_view what) {
  for (const auto& known : kKnownWorkers) {
    const bool match = known.exact ? family == known.family_prefix : family.starts_with(known.family_prefix);
    if (match) {
      return fmt::format("{} needs the {} worker (perfzero-worker-{}), which this build/image does not include", what,
                         known.label, known.worker);
    }
  }
  return "";
}

}  // namespace perfzero::method_catalog
