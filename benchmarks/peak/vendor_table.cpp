// The vendor-theoretical FLOP/cycle/core table, and the /proc/cpuinfo fields that pick an entry.
// Figures are per core with the widest vector FMA the core has: pipes x lanes x 2 (an FMA is two
// FLOPs). bf16 is left empty where the cited source gives no dot-product throughput: never a guess.
#include <optional>
#include <sstream>
#include <string>

#include "peak/cpu_peak.hpp"

namespace perfzero::peak {

namespace {

struct Fields {
  std::string vendor;
  long family = -1;
  long model = -1;
  long stepping = -1;
  long implementer = -1;
  long part = -1;
};

long number(const std::string& text) {
  try {
    return std::stol(text, nullptr, 0);  // decimal on x86, 0x-prefixed hex on Arm
  } catch (const std::exception&) {
    return -1;
  }
}

// The first processor's fields: every CPU in a machine has the same core type on the servers this
// table covers (hybrid client parts are not in it).
Fields first_processor(const std::string& cpuinfo) {
  Fields f;
  std::istringstream in(cpuinfo);
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) {
      if (line.empty() && (f.family >= 0 || f.part >= 0)) break;
      continue;
    }
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    const std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
    if (key == "vendor_id") f.vendor = value;
    if (key == "cpu family") f.family = number(value);
    if (key == "model") f.model = number(value);
    if (key == "stepping") f.stepping = number(value);
    if (key == "CPU implementer") f.implementer = number(value);
    if (key == "CPU part") f.part = number(value);
  }
  return f;
}

bool in(long v, long lo, long hi) { return v >= lo && v <= hi; }

// AMD: "Software Optimization Guide for AMD Family 17h / 19h / 1Ah Processors" (pub. 56305, 56665,
// 58455), floating-point unit chapter: two FMA pipes per core, 256 bits wide through Zen 4 (which runs
// a 512-bit op as two halves), 512 bits wide on Zen 5's server and desktop parts.
const char* const kAmdSource = "AMD Software Optimization Guide for Family 17h (56305), 19h (56665), 1Ah (58455): FPU";

std::optional<VendorCore> amd(const Fields& f) {
  if (f.family == 0x17 && f.model >= 0x30) {
    return VendorCore{"AMD Zen 2 (EPYC 7002 Rome, Ryzen 3000)",     16, 32, {}, {}, kAmdSource,
                      "2 x 256-bit FMA pipes; no bf16 instructions"};
  }
  if (f.family == 0x19 && (in(f.model, 0x00, 0x0F) || in(f.model, 0x20, 0x2F) || in(f.model, 0x40, 0x5F))) {
    return VendorCore{"AMD Zen 3 (EPYC 7003 Milan, Ryzen 5000)",    16, 32, {}, {}, kAmdSource,
                      "2 x 256-bit FMA pipes; no bf16 instructions"};
  }
  if (f.family == 0x19 && (in(f.model, 0x10, 0x1F) || in(f.model, 0x60, 0x7F) || in(f.model, 0xA0, 0xAF))) {
    return VendorCore{"AMD Zen 4 (EPYC 9004 Genoa/Bergamo, Ryzen 7000)",
                      16,
                      32,
                      {},
                      {},
                      kAmdSource,
                      "2 x 256-bit FMA pipes; AVX-512 runs as two 256-bit halves, so the same FLOP/cycle as AVX2; "
                      "AVX512_BF16 present, its throughput not given by the source"};
  }
  if (f.family == 0x1A && (in(f.model, 0x00, 0x1F) || in(f.model, 0x40, 0x4F))) {
    return VendorCore{"AMD Zen 5 (EPYC 9005 Turin, Ryzen 9000)",
                      32,
                      64,
                      {},
                      {},
                      kAmdSource,
                      "2 x 512-bit FMA pipes (server and desktop parts); AVX2 code reaches half; AVX512_BF16 "
                      "present, its throughput not given by the source"};
  }
  if (f.family == 0x1A && (in(f.model, 0x20, 0x2F) || in(f.model, 0x60, 0x6F))) {
    return VendorCore{"AMD Zen 5 mobile (Strix Point, Krackan Point)",
                      16,
                      32,
                      {},
                      {},
                      kAmdSource,
                      "2 x 256-bit FMA pipes: the mobile parts keep Zen 4's 256-bit datapath"};
  }
  return std::nullopt;
}

// Intel: "Intel 64 and IA-32 Architectures Optimization Reference Manual" (Skylake Server, Ice Lake,
// Sapphire Rapids chapters): two 512-bit FMA units per core on Xeon Gold 6xxx / Platinum; AMX per
// "Intel AMX" chapter: 1024 bf16 FLOP/cycle/core (Intel Architecture Day 2021: 16x the 64 fp32 FLOP
// of AVX-512 FMA).
const char* const kIntelSource = "Intel 64 and IA-32 Architectures Optimization Reference Manual (FMA units; AMX)";
const char* const kTwoFmaNote = "2 x 512-bit FMA units; SKUs with one (Xeon Bronze, Silver, some Gold 5xxx) reach half";

std::optional<VendorCore> intel(const Fields& f) {
  if (f.family != 6) return std::nullopt;
  if (f.model == 0x55 && in(f.stepping, 0, 4)) {
    return VendorCore{"Intel Skylake-SP (Xeon Scalable 1st gen)", 32, 64, {}, {}, kIntelSource, kTwoFmaNote};
  }
  if (f.model == 0x55 && in(f.stepping, 5, 7)) {
    return VendorCore{"Intel Cascade Lake (Xeon Scalable 2nd gen)", 32, 64, {}, {}, kIntelSource, kTwoFmaNote};
  }
  if (f.model == 0x6A || f.model == 0x6C) {
    return VendorCore{"Intel Ice Lake-SP (Xeon Scalable 3rd gen)", 32, 64, {}, {}, kIntelSource, kTwoFmaNote};
  }
  const std::string amx_note = std::string(kTwoFmaNote) +
                               "; AMX: 1024 bf16 FLOP/cycle/core, which oneDNN's bf16 matmul uses; AVX512_BF16 "
                               "dot-product throughput not given by the source";
  if (f.model == 0x8F) {
    return VendorCore{"Intel Sapphire Rapids (Xeon Scalable 4th gen)", 32, 64, {}, 1024, kIntelSource, amx_note};
  }
  if (f.model == 0xCF) {
    return VendorCore{"Intel Emerald Rapids (Xeon Scalable 5th gen)", 32, 64, {}, 1024, kIntelSource, amx_note};
  }
  if (f.model == 0xAD || f.model == 0xAE) {
    return VendorCore{"Intel Granite Rapids (Xeon 6 P-core)", 32, 64, {}, 1024, kIntelSource, amx_note};
  }
  return std::nullopt;
}

// Arm: the Neoverse N1, V1, V2 Software Optimization Guides (FP/ASIMD pipelines): N1 has two 128-bit
// FMA pipes, V1 four 128-bit (or two 256-bit SVE), V2 four 128-bit. AmpereOne: Ampere's AmpereOne
// product brief and architecture disclosures (two 128-bit FMA pipes per core).
std::optional<VendorCore> arm(const Fields& f) {
  if (f.implementer == 0x41 && f.part == 0xd0c) {
    return VendorCore{"Arm Neoverse N1 (AWS Graviton 2, Ampere Altra / Altra Max)",
                      8,
                      16,
                      {},
                      {},
                      "Arm Neoverse N1 Software Optimization Guide: FP/ASIMD pipelines",
                      "2 x 128-bit FMA pipes; no bf16 instructions"};
  }
  if (f.implementer == 0x41 && f.part == 0xd40) {
    return VendorCore{"Arm Neoverse V1 (AWS Graviton 3)",
                      16,
                      32,
                      {},
                      {},
                      "Arm Neoverse V1 Software Optimization Guide: FP/ASIMD pipelines",
                      "4 x 128-bit NEON or 2 x 256-bit SVE FMA pipes; BF16 present, its dot-product figure not "
                      "taken from the source here"};
  }
  if (f.implementer == 0x41 && f.part == 0xd4f) {
    return VendorCore{"Arm Neoverse V2 (AWS Graviton 4, NVIDIA Grace)",
                      16,
                      32,
                      {},
                      {},
                      "Arm Neoverse V2 Software Optimization Guide: FP/ASIMD pipelines",
                      "4 x 128-bit FMA pipes (SVE2 at 128 bits); BF16 present, its dot-product figure not taken "
                      "from the source here"};
  }
  if (f.implementer == 0xc0 && f.part == 0xac3) {
    return VendorCore{"AmpereOne (A192 and siblings)",
                      8,
                      16,
                      {},
                      {},
                      "Ampere AmpereOne family product brief and architecture disclosures (2023)",
                      "2 x 128-bit FMA pipes; BF16 present, its dot-product figure not taken from the source here"};
  }
  return std::nullopt;
}

}  // namespace

std::optional<VendorCore> identify_core(const std::string& cpuinfo_text) {
  const Fields f = first_processor(cpuinfo_text);
  if (f.vendor == "AuthenticAMD") return amd(f);
  if (f.vendor == "GenuineIntel") return intel(f);
  if (f.implementer >= 0) return arm(f);
  return std::nullopt;
}

}  // namespace perfzero::peak
