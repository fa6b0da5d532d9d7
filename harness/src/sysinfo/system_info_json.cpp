#include "sysinfo/system_info_json.hpp"

#include <algorithm>

#include "common/text.hpp"

namespace perfzero::sysinfo {

nlohmann::json system_info_json(const SystemInfo& s, const std::string& platform_name, const std::string& system_name) {
  std::vector<std::string> models;
  for (const auto& gpu : s.accelerators.devices) {
    if (std::find(models.begin(), models.end(), gpu.model) == models.end()) models.push_back(gpu.model);
  }
  return {
      {"system_name", system_name},
      {"platform_name", platform_name},
      {"cpu_model", s.cpu.model},
      {"physical_cpu_count", s.cpu.physical_cores},
      {"logical_cpu_count", s.cpu.logical_cpus},
      {"cpu_socket_count", s.cpu.sockets},
      {"hostname", s.hostname},
      {"accelerator_count", s.accelerators.devices.size()},
      {"accelerator_model", text::join(models, ", ")},
      {"accelerator_driver_version", s.accelerators.driver_version},
  };
}

nlohmann::json system_extension_json(const SystemInfo& s, const std::string& instance_type) {
  auto optional = [](const auto& value) { return value ? nlohmann::json(*value) : nlohmann::json(nullptr); };
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& gpu : s.accelerators.devices) {
    gpus.push_back({{"model", gpu.model},
                    {"memory_bytes", gpu.memory_bytes},
                    {"compute_capability", gpu.compute_capability},
                    {"mig_enabled", optional(gpu.mig_enabled)},
                    {"ecc_enabled", optional(gpu.ecc_enabled)},
                    {"pcie_generation", optional(gpu.pcie_generation)},
                    {"pcie_width", optional(gpu.pcie_width)},
                    {"max_sm_clock_mhz", optional(gpu.max_sm_clock_mhz)}});
  }
  return {
      {"cpu_vendor", s.cpu.vendor},
      {"architecture", s.cpu.architecture},
      {"threads_per_core", s.cpu.threads_per_core},
      {"cpu_flags", s.cpu.flags},
      {"cpu_max_mhz", optional(s.cpu.max_mhz)},
      {"scaling_governor", s.cpu.scaling_governor},
      {"ocpu_count", s.ocpus},
      {"ocpu_rule", s.ocpu_rule},
      {"affinity_cpu_count", s.affinity_cpus},
      {"effective_vcpus", s.effective_vcpus},
      {"memory_total_bytes", s.memory_total_bytes},
      {"cgroup",
       {{"version", s.cgroup.version},
        {"cpu_quota_cpus", optional(s.cgroup.cpu_quota_cpus)},
        {"memory_limit_bytes", optional(s.cgroup.memory_limit_bytes)}}},
      {"in_container", s.in_container},
      {"container_evidence", s.container_evidence},
      {"kernel", s.kernel},
      {"os", s.os},
      {"cloud",
       {{"vendor", s.cloud.vendor},
        {"instance_type", instance_type},
        {"dmi_sys_vendor", s.cloud.sys_vendor},
        {"dmi_product_name", s.cloud.product_name}}},
      {"accelerators",
       {{"source", s.accelerators.source},
        {"cuda_driver_version", s.accelerators.cuda_driver_version},
        {"devices", gpus}}},
  };
}

}  // namespace perfzero::sysinfo
