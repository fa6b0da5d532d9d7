// GPUs through NVML, loaded at run time so the harness runs where no NVIDIA driver exists; then
// nvidia-smi; else none.
#include <dlfcn.h>

#include <array>
#include <cstdio>
#include <memory>
#include <sstream>

#include "common/text.hpp"
#include "sysinfo/system_info.hpp"

namespace perfzero::sysinfo {

namespace {

// The subset of nvml.h we call; NVML's ABI for these _v2 entry points is stable.
using nvmlReturn = int;
using nvmlDevice = void*;
struct NvmlMemory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

std::optional<AcceleratorInfo> from_nvml() {
  void* lib = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) return std::nullopt;
  const std::unique_ptr<void, int (*)(void*)> closer(lib, ::dlclose);
  auto sym = [&](const char* name) { return ::dlsym(lib, name); };
  auto init = reinterpret_cast<nvmlReturn (*)()>(sym("nvmlInit_v2"));
  auto shutdown = reinterpret_cast<nvmlReturn (*)()>(sym("nvmlShutdown"));
  auto count = reinterpret_cast<nvmlReturn (*)(unsigned*)>(sym("nvmlDeviceGetCount_v2"));
  auto handle = reinterpret_cast<nvmlReturn (*)(unsigned, nvmlDevice*)>(sym("nvmlDeviceGetHandleByIndex_v2"));
  auto name = reinterpret_cast<nvmlReturn (*)(nvmlDevice, char*, unsigned)>(sym("nvmlDeviceGetName"));
  auto memory = reinterpret_cast<nvmlReturn (*)(nvmlDevice, NvmlMemory*)>(sym("nvmlDeviceGetMemoryInfo"));
  auto driver = reinterpret_cast<nvmlReturn (*)(char*, unsigned)>(sym("nvmlSystemGetDriverVersion"));
  if (init == nullptr || shutdown == nullptr || count == nullptr || handle == nullptr || name == nullptr ||
      memory == nullptr || driver == nullptr) {
    return std::nullopt;
  }
  if (init() != 0) return std::nullopt;
  AcceleratorInfo info;
  info.source = "nvml";
  std::array<char, 96> buffer{};
  if (driver(buffer.data(), buffer.size()) == 0) info.driver_version = buffer.data();
  unsigned n = 0;
  if (count(&n) == 0) {
    for (unsigned i = 0; i < n; ++i) {
      nvmlDevice device = nullptr;
      if (handle(i, &device) != 0) continue;
      Accelerator gpu;
      if (name(device, buffer.data(), buffer.size()) == 0) gpu.model = buffer.data();
      NvmlMemory mem{};
      if (memory(device, &mem) == 0) gpu.memory_bytes = mem.total;
      info.devices.push_back(gpu);
    }
  }
  shutdown();
  return info;
}

std::optional<AcceleratorInfo> from_nvidia_smi() {
  FILE* pipe =
      ::popen("nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader,nounits 2>/dev/null", "r");
  if (pipe == nullptr) return std::nullopt;
  std::string output;
  std::array<char, 512> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) output += buffer.data();
  if (::pclose(pipe) != 0) return std::nullopt;
  AcceleratorInfo info;
  info.source = "nvidia-smi";
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    const auto fields = text::split(line, ',');
    if (fields.size() != 3) continue;
    Accelerator gpu;
    gpu.model = text::trim(fields[0]);
    info.driver_version = text::trim(fields[1]);
    try {
      gpu.memory_bytes = static_cast<std::uint64_t>(std::stod(text::trim(fields[2])) * 1024 * 1024);  // MiB
    } catch (const std::exception&) {
    }
    info.devices.push_back(gpu);
  }
  return info;
}

}  // namespace

AcceleratorInfo read_accelerators() {
  if (auto nvml = from_nvml()) return *nvml;
  if (auto smi = from_nvidia_smi()) return *smi;
  return {};
}

}  // namespace perfzero::sysinfo
