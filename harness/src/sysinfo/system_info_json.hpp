#pragma once
// The machine as reports record it: PerfZero's ten system_info keys, and everything else we know
// (perfzero_cpp.system). Built once per run.
#include <string>

#include <nlohmann/json.hpp>

#include "sysinfo/system_info.hpp"

namespace perfzero::sysinfo {

nlohmann::json system_info_json(const SystemInfo& s, const std::string& platform_name, const std::string& system_name);
nlohmann::json system_extension_json(const SystemInfo& s, const std::string& instance_type);

}  // namespace perfzero::sysinfo
