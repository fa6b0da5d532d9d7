#pragma once
// Which GPUs this process sees, what they are, and the versions of the CUDA libraries in use.
// Without a usable GPU every CUDA method ends skipped with the reason ("no CUDA device: ..."), never
// failed: a run on a CPU machine or in CI stays green.
#include <cstdint>
#include <string>
#include <vector>

#include "perfzero/benchmark.hpp"

namespace perfzero::cuda {

struct DeviceFacts {
  int index = 0;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  std::uint64_t memory_bytes = 0;
  int l2_bytes = 0;
  double max_sm_clock_mhz = 0;  // the peak clock the device reports
};

// Empty when at least one CUDA device is usable; else "no CUDA device: <why>".
std::string no_device_reason();
// Skips the method (and returns true) when no device is usable or `device` is out of range.
bool skip_without_device(Context& ctx, int device);
int device_count();
DeviceFacts describe_device(int device);
// framework: CUDA runtime and driver versions; extras: the device, cuBLAS and cuDNN versions.
void record_environment(Context& ctx, const DeviceFacts& device);

// The parameters every CUDA method has: `device` and `flush_l2`.
std::vector<ParamSpec> common_params();
// The method's registration, with needs = {"gpu"}.
MethodInfo gpu_method(std::string class_name, std::string name, std::string description, std::vector<ParamSpec> params,
                      MethodFunction fn);

}  // namespace perfzero::cuda
