// `perfzero doctor`: the pre-flight check of this machine (doctor/doctor.hpp, docs/doctor.md).
#include <cstdio>
#include <filesystem>

#include "commands/commands.hpp"

#include "doctor/doctor.hpp"

namespace perfzero::commands {

int doctor_command(const cli::DoctorOptions& options) {
  std::error_code ec;
  std::filesystem::path scratch = std::filesystem::temp_directory_path(ec);
  if (ec) scratch = ".";
  const doctor::DoctorReport report = doctor::examine(options.quick, doctor::DoctorPaths{}, scratch);
  const std::string text = options.json ? doctor::to_json(report).dump(2) + "\n" : doctor::to_text(report);
  std::fputs(text.c_str(), stdout);
  return report.warnings() == 0 ? 0 : 1;
}

}  // namespace perfzero::commands
