// run_facts/cpu_peak.json: the run's one measurement, a run fact (docs/system_info.md), written under
// an flock and moved into place by rename, so a trial never reads half a file and two trials never
// measure at once.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "peak/cpu_peak.hpp"

namespace perfzero::peak {

namespace {

constexpr const char* kSchema = "perfzero.cpu_peak/1";
// A run fact: the harness adds it to the run's system info as `cpu_peak` (harness/src/session/run_facts.hpp).
constexpr const char* kFactsDir = "run_facts";
constexpr const char* kFile = "cpu_peak.json";

nlohmann::json optional_number(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

nlohmann::json vendor_json(const CpuPeak& peak) {
  if (!peak.vendor) return nullptr;
  const VendorCore& v = *peak.vendor;
  nlohmann::json gflops;
  for (DataType t : {DataType::fp64, DataType::fp32, DataType::bf16})
    gflops[to_string(t)] = optional_number(peak.vendor_gflops(t));
  return {{"core", v.name},
          {"flop_per_cycle_per_core",
           {{"fp64", v.fp64},
            {"fp32", v.fp32},
            {"bf16", optional_number(v.bf16)},
            {"amx_bf16", optional_number(v.amx_bf16)}}},
          {"gflops", gflops},
          {"source", v.source},
          {"note", v.note}};
}

std::optional<double> read_optional(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<double>();
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Writes next to the target, then renames over it: readers see the old file or the whole new one.
void write_atomically(const std::filesystem::path& path, const std::string& text) {
  const auto tmp = path.parent_path() / fmt::format(".{}.{}.tmp", path.filename().string(), ::getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    if (!out.flush()) throw std::runtime_error(fmt::format("cannot write {}", tmp.string()));
  }
  std::filesystem::rename(tmp, path);
}

// Holds an exclusive flock on run_facts/cpu_peak.lock for its lifetime: the first trial measures while
// the others wait, then they read its file.
class RunLock {
 public:
  explicit RunLock(const std::filesystem::path& dir)
      : fd_(::open((dir / "cpu_peak.lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644)) {
    if (fd_ < 0) throw std::runtime_error(fmt::format("cannot open {}/cpu_peak.lock", dir.string()));
    while (::flock(fd_, LOCK_EX) != 0) {
      if (errno != EINTR) throw std::runtime_error(fmt::format("cannot lock {}/cpu_peak.lock", dir.string()));
    }
  }
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;
  ~RunLock() { ::close(fd_); }  // closing releases the lock

 private:
  int fd_;
};

}  // namespace

std::string to_json(const CpuPeak& peak) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : peak.kernels)
    kernels.push_back({{"type", to_string(k.type)}, {"isa", k.isa}, {"gflops", k.gflops}});
  nlohmann::json best;
  for (DataType t : {DataType::fp64, DataType::fp32, DataType::bf16}) {
    const KernelFigure* k = peak.best(t);
    best[to_string(t)] = k ? nlohmann::json{{"isa", k->isa}, {"gflops", k->gflops}} : nlohmann::json();
  }
  const nlohmann::json j = {{"schema", kSchema},    {"cpu_model", peak.cpu_model}, {"threads", peak.threads},
                            {"cores", peak.cores},  {"clock_ghz", peak.ghz},       {"clock_source", peak.ghz_source},
                            {"measured", best},     {"kernels", kernels},          {"vendor", vendor_json(peak)},
                            {"method", peak.method}};
  return j.dump(2) + "\n";
}

std::optional<CpuPeak> from_json(const std::string& text) {
  try {
    const auto j = nlohmann::json::parse(text);
    if (j.at("schema").get<std::string>() != kSchema) return std::nullopt;
    CpuPeak p;
    p.threads = j.at("threads").get<int>();
    p.cores = j.at("cores").get<int>();
    p.ghz = j.at("clock_ghz").get<double>();
    p.ghz_source = j.at("clock_source").get<std::string>();
    p.cpu_model = j.at("cpu_model").get<std::string>();
    p.method = j.at("method").get<std::string>();
    for (const auto& k : j.at("kernels")) {
      const auto type = data_type_from_string(k.at("type").get<std::string>());
      const double gflops = k.at("gflops").get<double>();
      if (!type || !(gflops > 0)) return std::nullopt;  // a figure that cannot be a peak is not trusted
      p.kernels.push_back({*type, k.at("isa").get<std::string>(), gflops});
    }
    if (p.threads < 1 || p.cores < 1 || p.best(DataType::fp32) == nullptr) return std::nullopt;
    if (const auto& v = j.at("vendor"); !v.is_null()) {
      const auto& f = v.at("flop_per_cycle_per_core");
      p.vendor =
          VendorCore{v.at("core").get<std::string>(), f.at("fp64").get<double>(),   f.at("fp32").get<double>(),
                     read_optional(f, "bf16"),        read_optional(f, "amx_bf16"), v.at("source").get<std::string>(),
                     v.at("note").get<std::string>()};
    }
    return p;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

CpuPeak cached_cpu_peak(const std::filesystem::path& run_dir, int threads, std::string* origin) {
  auto say = [origin](std::string text) {
    if (origin != nullptr) *origin = std::move(text);
  };
  if (run_dir.empty()) {
    say("measured in this process (no PERFZERO_RUN_DIR)");
    return measure_cpu_peak(threads);
  }
  const auto facts = run_dir / kFactsDir;
  std::error_code made;
  std::filesystem::create_directories(facts, made);  // the first method to record a fact makes it
  const auto path = facts / kFile;
  const RunLock lock(facts);
  std::string why = "measured, stored in " + path.string();
  if (std::filesystem::exists(path)) {
    const auto cached = from_json(read_file(path));
    if (cached && cached->threads == threads) {
      say("read from " + path.string());
      return *cached;
    }
    if (cached) {
      say(fmt::format("measured in this process: {} holds {} threads, this method runs {}", path.string(),
                      cached->threads, threads));
      return measure_cpu_peak(threads);  // the run's file stays as the run's figure
    }
    why = "re-measured: " + path.string() + " was malformed; replaced";
  }
  CpuPeak peak = measure_cpu_peak(threads);
  write_atomically(path, to_json(peak));
  say(why);
  return peak;
}

CpuPeak run_cpu_peak(int threads, std::string* origin) {
  const char* dir = std::getenv("PERFZERO_RUN_DIR");
  return cached_cpu_peak(dir != nullptr ? std::filesystem::path(dir) : std::filesystem::path(), threads, origin);
}

}  // namespace perfzero::peak
