// GPUs through NVML, loaded at run time so the harness runs where no NVIDIA driver exists; then
// nvidia-smi; else none.
#include <array>
#include <cstdio>
#include <sstream>

#include "common/text.hpp"
#include "nvml/nvml_library.hpp"
#include "sysinfo/system_info.hpp"

namespace perfzero::sysinfo {

namespace {

std::optional<AcceleratorInfo> from_nvml() {
  std::string why;
  const auto nvml = nvml::Library::open(why);
  if (!nvml) return std::nullopt;
  AcceleratorInfo info;
  info.source = "nvml";
  info.driver_version = nvml->driver_version();
  if (const auto cuda = nvml->cuda_driver_version()) {
    info.cuda_driver_version = std::to_string(*cuda / 1000) + "." + std::to_string(*cuda % 1000 / 10);
  }
  for (unsigned i = 0; i < nvml->device_count(); ++i) {
    const nvml::GpuDescription d = nvml->describe(i);
    info.devices.push_back(Accelerator{d.model, d.memory_bytes, d.compute_capability, d.mig_enabled, d.ecc_enabled,
                                       d.pcie_generation, d.pcie_width, d.max_sm_clock_mhz});
  }
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
