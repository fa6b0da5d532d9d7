#include "doctor/doctor.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "doctor/gpu_checks.hpp"

namespace perfzero::doctor {

int DoctorReport::warnings() const {
  return static_cast<int>(
      std::count_if(checks.begin(), checks.end(), [](const Check& c) { return c.status == Status::warn; }));
}

DoctorReport examine(bool quick, const DoctorPaths& paths, const std::filesystem::path& scratch) {
  const auto start = std::chrono::steady_clock::now();
  DoctorReport r;
  GpuChecks gpus(paths);  // first: it watches for XID errors while the rest runs
  r.checks = read_checks(paths);
  for (auto& c : load_checks(paths, std::chrono::milliseconds(quick ? 1000 : 3000))) r.checks.push_back(std::move(c));
  r.noise = measure_noise(std::chrono::milliseconds(quick ? 3000 : 15000), scratch);
  r.checks.push_back(noise_check(r.noise));
  for (auto& c : gpus.finish()) r.checks.push_back(std::move(c));
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

nlohmann::json to_json(const DoctorReport& report) {
  nlohmann::json warnings = nlohmann::json::array();
  for (const auto& c : report.checks) {
    if (c.status == Status::warn) warnings.push_back(c.name);
  }
  nlohmann::json noise = nlohmann::json::array();
  for (const auto& k : report.noise) {
    noise.push_back({{"kernel", k.kernel}, {"rounds", k.rounds}, {"median_seconds", k.median_seconds}, {"cv", k.cv}});
  }
  return {{"verdict", report.warnings() == 0 ? "ok" : "warnings"},
          {"warnings", warnings},
          {"checks", to_json(report.checks)},
          {"noise", noise},
          {"seconds", report.seconds}};
}

std::string to_text(const DoctorReport& report) {
  std::size_t width = 0;
  for (const auto& c : report.checks) width = std::max(width, c.name.size());
  std::string out;
  for (const auto& c : report.checks) {
    out += fmt::format("{:<5} {:<{}}  {}\n", status_name(c.status), c.name, width, c.found);
    if (!c.fix.empty()) out += fmt::format("{:<5} {:<{}}  fix: {}\n", "", "", width, c.fix);
  }
  out += report.warnings() == 0 ? fmt::format("doctor: nothing to fix ({:.1f} s)\n", report.seconds)
                                : fmt::format("doctor: {} warning{} ({:.1f} s)\n", report.warnings(),
                                              report.warnings() == 1 ? "" : "s", report.seconds);
  return out;
}

}  // namespace perfzero::doctor
