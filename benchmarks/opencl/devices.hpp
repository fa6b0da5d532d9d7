#pragma once
// The OpenCL devices this process can see through the ICD loader, and the `platform` / `device`
// parameters that pick some of them (an index, a case-insensitive name substring, or `all`).
#include <CL/cl.h>

#include <cstdint>
#include <string>
#include <vector>

namespace perfzero::opencl {

struct DeviceInfo {
  cl_platform_id platform = nullptr;
  cl_device_id id = nullptr;
  int platform_index = 0;
  int device_index = 0;  // within its platform
  std::string platform_name;
  std::string platform_version;
  std::string name;
  std::string vendor;
  std::string driver_version;
  std::string opencl_version;    // CL_DEVICE_VERSION, e.g. "OpenCL 3.0 PoCL ..."
  std::string opencl_c_version;  // the kernel language the compiler accepts
  std::string type;              // cpu, gpu, accelerator
  std::int64_t compute_units = 0;
  std::int64_t clock_mhz = 0;
  std::int64_t global_memory_bytes = 0;
  std::int64_t local_memory_bytes = 0;
  std::int64_t max_allocation_bytes = 0;
  bool fp64 = false;  // cl_khr_fp64
  bool fp16 = false;  // cl_khr_fp16

  std::string label() const;  // "platform 0 device 0 (pthread-skylake-avx512-AMD EPYC)"
};

// Every device of every platform, in the loader's order. Empty when the loader finds no platform
// (no ICD installed, or OCL_ICD_VENDORS pointing at an empty directory).
std::vector<DeviceInfo> find_devices();

struct Selection {
  std::vector<DeviceInfo> devices;
  bool sweep = false;  // `device: all`: every matching device, each reported under its own names
  std::string error;   // why nothing matched (the parameters are wrong for this machine)
};

// `platform`: an index or a name substring ("" for any). `device`: an index within the chosen
// platforms, a name substring, or "all".
Selection select_devices(const std::vector<DeviceInfo>& devices, const std::string& platform,
                         const std::string& device);

}  // namespace perfzero::opencl
