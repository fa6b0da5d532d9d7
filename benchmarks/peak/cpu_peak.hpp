#pragma once
// The CPU's FLOP peak, measured: an FMA-throughput kernel on every allowed thread for each
// instruction set the CPU has (fp64, fp32, bf16 dot products), beside the vendor's theoretical
// figure where the core is known. One measurement per run, cached in $PERFZERO_RUN_DIR/run_facts/cpu_peak.json
// (docs/system_info.md). A small library with no dependency on the harness or oneDNN.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace perfzero::peak {

enum class DataType { fp64, fp32, bf16 };
const char* to_string(DataType type);
std::optional<DataType> data_type_from_string(const std::string& name);

// One (ISA, type) kernel, run on every thread at once: the sum of the threads' rates, best of a few.
struct KernelFigure {
  DataType type = DataType::fp32;
  std::string isa;  // "avx512", "avx2_fma", "sse2", "neon", "sve", "avx512_bf16", "neon_bf16"
  double gflops = 0;
};

// FLOP per cycle per core from the vendor's documents, for a core identified from /proc/cpuinfo.
struct VendorCore {
  std::string name;  // "AMD Zen 4 (EPYC 9004 Genoa, Ryzen 7000)"
  double fp64 = 0;   // FLOP/cycle/core with the widest FMA the core has
  double fp32 = 0;
  std::optional<double> bf16;      // vector bf16 dot products; none where the source gives no figure
  std::optional<double> amx_bf16;  // Intel AMX tiles, which oneDNN may use instead of vectors
  std::string source;              // the document the figures come from
  std::string note;                // what the figure assumes (SKUs with fewer FMA units, ...)
};

// The core named by a /proc/cpuinfo text (x86: vendor_id, cpu family, model, stepping; Arm: CPU
// implementer, CPU part); nullopt for a core the table does not know: never a guess.
std::optional<VendorCore> identify_core(const std::string& cpuinfo_text);

struct CpuPeak {
  int threads = 0;  // measuring threads, one pinned per allowed CPU
  int cores = 0;    // distinct physical cores among those CPUs (SMT siblings share FMA pipes)
  double ghz = 0;   // measured: dependent integer adds on every thread at once
  std::string ghz_source;
  std::string cpu_model;              // "model name" (x86) or "implementer/part" (Arm)
  std::vector<KernelFigure> kernels;  // every (ISA, type) measured
  std::optional<VendorCore> vendor;
  std::string method;  // a sentence: how the figures were obtained

  // The fastest ISA's figure for `type`; nullptr where no kernel of that type ran.
  const KernelFigure* best(DataType type) const;
  // The vendor figure: FLOP/cycle/core x measured GHz x cores; nullopt for an unknown core/type.
  std::optional<double> vendor_gflops(DataType type) const;
};

// Measures now, on `threads` threads pinned to the first allowed CPUs (best of `repeats` runs of
// `seconds` each per kernel; about 0.15 s per (ISA, type) with the defaults).
CpuPeak measure_cpu_peak(int threads, double seconds = 0.04, int repeats = 4);

// The run's peak: read from run_dir/run_facts/cpu_peak.json when it holds a valid figure for `threads`,
// otherwise measured and stored there (under an flock, replaced by an atomic rename). `origin` says
// which happened. An empty run_dir measures in-process without storing.
CpuPeak cached_cpu_peak(const std::filesystem::path& run_dir, int threads, std::string* origin = nullptr);
// cached_cpu_peak with run_dir from $PERFZERO_RUN_DIR (set by the harness for every trial).
CpuPeak run_cpu_peak(int threads, std::string* origin = nullptr);

// The cpu_peak.json text, and its reader: nullopt for anything malformed or of another schema.
std::string to_json(const CpuPeak& peak);
std::optional<CpuPeak> from_json(const std::string& text);

// The peak for `threads` threads of a type, scaled from the measurement (threads beyond the
// measured ones add nothing), and a sentence saying how, for a benchmark's extras.
struct ScaledPeak {
  double gflops = 0;
  std::string isa;
  std::string how;
};
std::optional<ScaledPeak> measured_peak_for(const CpuPeak& peak, DataType type, int threads);
std::optional<ScaledPeak> vendor_peak_for(const CpuPeak& peak, DataType type, int threads);

}  // namespace perfzero::peak
