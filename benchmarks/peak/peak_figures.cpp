// Reading a CpuPeak: the best figure per type, the vendor figure, and both scaled to a thread count.
#include <algorithm>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "peak/cpu_peak.hpp"

namespace perfzero::peak {

const char* to_string(DataType type) {
  switch (type) {
    case DataType::fp64:
      return "fp64";
    case DataType::fp32:
      return "fp32";
    case DataType::bf16:
      return "bf16";
  }
  return "?";
}

std::optional<DataType> data_type_from_string(const std::string& name) {
  for (DataType t : {DataType::fp64, DataType::fp32, DataType::bf16}) {
    if (name == to_string(t)) return t;
  }
  return std::nullopt;
}

const KernelFigure* CpuPeak::best(DataType type) const {
  const KernelFigure* found = nullptr;
  for (const auto& k : kernels) {
    if (k.type == type && (found == nullptr || k.gflops > found->gflops)) found = &k;
  }
  return found;
}

std::optional<double> CpuPeak::vendor_gflops(DataType type) const {
  if (!vendor || ghz <= 0 || cores <= 0) return std::nullopt;
  std::optional<double> per_cycle;
  if (type == DataType::fp64) per_cycle = vendor->fp64;
  if (type == DataType::fp32) per_cycle = vendor->fp32;
  if (type == DataType::bf16) per_cycle = vendor->amx_bf16 ? vendor->amx_bf16 : vendor->bf16;
  if (!per_cycle) return std::nullopt;
  return *per_cycle * ghz * cores;
}

// A benchmark on fewer threads than were measured gets that share of the figure; on more, no more
// than the figure (the extra threads share the measured CPUs).
std::optional<ScaledPeak> measured_peak_for(const CpuPeak& peak, DataType type, int threads) {
  const KernelFigure* k = peak.best(type);
  if (k == nullptr || peak.threads <= 0) return std::nullopt;
  const int used = std::clamp(threads, 1, peak.threads);
  ScaledPeak s;
  s.gflops = k->gflops * used / peak.threads;
  s.isa = k->isa;
  s.how = fmt::format("measured {} FMA kernel ({}): {:.1f} GFLOP/s on {} pinned threads{}; clock {:.2f} GHz",
                      to_string(type), k->isa, k->gflops, peak.threads,
                      used == peak.threads ? std::string() : fmt::format(", scaled to {} threads", used), peak.ghz);
  return s;
}

std::optional<ScaledPeak> vendor_peak_for(const CpuPeak& peak, DataType type, int threads) {
  const auto full = peak.vendor_gflops(type);
  if (!full) return std::nullopt;
  const int used = std::clamp(threads, 1, peak.cores);
  const bool amx = type == DataType::bf16 && peak.vendor->amx_bf16;
  ScaledPeak s;
  s.gflops = *full * used / peak.cores;
  s.isa = amx ? "amx" : "vendor";
  const double per_cycle = *full / peak.ghz / peak.cores;
  s.how = fmt::format("{}: {} FLOP/cycle/core{} x {:.2f} GHz (measured) x {} cores ({})", peak.vendor->name, per_cycle,
                      amx ? " (AMX)" : "", peak.ghz, used, peak.vendor->source);
  return s;
}

}  // namespace perfzero::peak
