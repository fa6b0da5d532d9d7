#include "opencl/devices.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "opencl/cl_call.hpp"

namespace perfzero::opencl {

namespace {

constexpr cl_int kPlatformNotFound = -1001;  // CL_PLATFORM_NOT_FOUND_KHR: the loader found no ICD

std::string platform_string(cl_platform_id platform, cl_platform_info what) {
  std::size_t size = 0;
  PERFZERO_CL_CALL(clGetPlatformInfo(platform, what, 0, nullptr, &size));
  std::string text(size, '\0');
  PERFZERO_CL_CALL(clGetPlatformInfo(platform, what, size, text.data(), nullptr));
  return text.c_str();  // drops the terminating NUL the size counts
}

std::string device_string(cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  PERFZERO_CL_CALL(clGetDeviceInfo(device, what, 0, nullptr, &size));
  std::string text(size, '\0');
  PERFZERO_CL_CALL(clGetDeviceInfo(device, what, size, text.data(), nullptr));
  return text.c_str();
}

template <typename T>
T device_value(cl_device_id device, cl_device_info what) {
  T value{};
  PERFZERO_CL_CALL(clGetDeviceInfo(device, what, sizeof value, &value, nullptr));
  return value;
}

std::string type_name(cl_device_type type) {
  if ((type & CL_DEVICE_TYPE_GPU) != 0) return "gpu";
  if ((type & CL_DEVICE_TYPE_CPU) != 0) return "cpu";
  if ((type & CL_DEVICE_TYPE_ACCELERATOR) != 0) return "accelerator";
  return "other";
}

bool has_extension(const std::string& extensions, const std::string& name) {
  return (" " + extensions + " ").find(" " + name + " ") != std::string::npos;
}

DeviceInfo describe(cl_platform_id platform, int platform_index, cl_device_id id, int device_index) {
  DeviceInfo d;
  d.platform = platform;
  d.id = id;
  d.platform_index = platform_index;
  d.device_index = device_index;
  d.platform_name = platform_string(platform, CL_PLATFORM_NAME);
  d.platform_version = platform_string(platform, CL_PLATFORM_VERSION);
  d.name = device_string(id, CL_DEVICE_NAME);
  d.vendor = device_string(id, CL_DEVICE_VENDOR);
  d.driver_version = device_string(id, CL_DRIVER_VERSION);
  d.opencl_version = device_string(id, CL_DEVICE_VERSION);
  d.opencl_c_version = device_string(id, CL_DEVICE_OPENCL_C_VERSION);
  d.type = type_name(device_value<cl_device_type>(id, CL_DEVICE_TYPE));
  d.compute_units = device_value<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS);
  d.clock_mhz = device_value<cl_uint>(id, CL_DEVICE_MAX_CLOCK_FREQUENCY);
  d.global_memory_bytes = static_cast<std::int64_t>(device_value<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE));
  d.local_memory_bytes = static_cast<std::int64_t>(device_value<cl_ulong>(id, CL_DEVICE_LOCAL_MEM_SIZE));
  d.max_allocation_bytes = static_cast<std::int64_t>(device_value<cl_ulong>(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE));
  const std::string extensions = device_string(id, CL_DEVICE_EXTENSIONS);
  d.fp64 = has_extension(extensions, "cl_khr_fp64");
  d.fp16 = has_extension(extensions, "cl_khr_fp16");
  return d;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::optional<int> as_index(const std::string& s) {
  int value = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (error != std::errc{} || end != s.data() + s.size() || value < 0) return std::nullopt;
  return value;
}

bool contains(const std::string& text, const std::string& part) {
  return lower(text).find(lower(part)) != std::string::npos;
}

std::string names(const std::vector<DeviceInfo>& devices) {
  std::string out;
  for (const auto& d : devices) out += (out.empty() ? "" : "; ") + d.label();
  return out;
}

}  // namespace

std::string DeviceInfo::label() const {
  return fmt::format("platform {} device {} ({}, {})", platform_index, device_index, platform_name, name);
}

std::vector<DeviceInfo> find_devices() {
  cl_uint count = 0;
  const cl_int status = clGetPlatformIDs(0, nullptr, &count);
  if (status == kPlatformNotFound || (status == CL_SUCCESS && count == 0)) return {};
  PERFZERO_CL_CALL(status);
  std::vector<cl_platform_id> platforms(count);
  PERFZERO_CL_CALL(clGetPlatformIDs(count, platforms.data(), nullptr));
  std::vector<DeviceInfo> devices;
  for (cl_uint p = 0; p < count; ++p) {
    cl_uint n = 0;
    const cl_int found = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &n);
    if (found == CL_DEVICE_NOT_FOUND || n == 0) continue;  // a platform with no device is not an error
    PERFZERO_CL_CALL(found);
    std::vector<cl_device_id> ids(n);
    PERFZERO_CL_CALL(clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, n, ids.data(), nullptr));
    for (cl_uint d = 0; d < n; ++d) {
      devices.push_back(describe(platforms[p], static_cast<int>(p), ids[d], static_cast<int>(d)));
    }
  }
  return devices;
}

Selection select_devices(const std::vector<DeviceInfo>& devices, const std::string& platform,
                         const std::string& device) {
  Selection s;
  std::vector<DeviceInfo> on_platform;
  for (const auto& d : devices) {
    const auto index = as_index(platform);
    if (platform.empty() || (index && *index == d.platform_index) || (!index && contains(d.platform_name, platform))) {
      on_platform.push_back(d);
    }
  }
  if (on_platform.empty()) {
    s.error = fmt::format("no OpenCL platform matches platform '{}'; found: {}", platform, names(devices));
    return s;
  }
  if (lower(device) == "all") {
    s.devices = on_platform;
    s.sweep = true;
    return s;
  }
  if (const auto index = as_index(device)) {
    // An index counts the devices of the matching platforms in order, so `device: 1` is the second
    // device found when no platform is named.
    if (static_cast<std::size_t>(*index) < on_platform.size()) s.devices.push_back(on_platform[*index]);
  } else {
    for (const auto& d : on_platform) {
      if (contains(d.name, device)) s.devices.push_back(d);
    }
    if (s.devices.size() > 1) s.devices.resize(1);  // the first match, as an index would pick one
  }
  if (s.devices.empty()) {
    s.error = fmt::format("no OpenCL device matches device '{}' on platform '{}'; found: {}", device, platform,
                          names(on_platform));
  }
  return s;
}

}  // namespace perfzero::opencl
