#pragma once
// Every check of `perfzero doctor` together, and its verdict: what `perfzero doctor` prints and what
// `run --doctor` records in run.json (run.system.doctor).
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "doctor/machine_checks.hpp"
#include "doctor/noise_score.hpp"

namespace perfzero::doctor {

struct DoctorReport {
  std::vector<Check> checks;
  std::vector<KernelNoise> noise;
  double seconds = 0;
  int warnings() const;
};

// quick: about 5 s (1 s of load, 3 s of noise kernels); else about 20 s (3 s and 15 s).
DoctorReport examine(bool quick, const DoctorPaths& paths, const std::filesystem::path& scratch);
// {"verdict": "ok" | "warnings", "warnings": [names], "checks": [...], "noise": [...], "seconds": s}
nlohmann::json to_json(const DoctorReport& report);
std::string to_text(const DoctorReport& report);

}  // namespace perfzero::doctor
