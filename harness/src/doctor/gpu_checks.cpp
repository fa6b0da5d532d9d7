#include "doctor/gpu_checks.hpp"

#include <fmt/format.h>

#include "doctor/kernel_log.hpp"
#include "nvml/nvml_library.hpp"

namespace perfzero::doctor {

namespace {

constexpr const char* kXidFix =
    "look the number up in NVIDIA's XID catalog (docs.nvidia.com/deploy/xid-errors); 48, 63, 64, 74, 79, 92, 94 "
    "and 95 mean a GPU reset (nvidia-smi -r) or a replaced node, and figures from this GPU are suspect until then";

Check persistence(const std::string& name, const nvml::GpuSettings& s) {
  if (!s.persistence_mode) return info(name, "persistence mode not readable");
  if (*s.persistence_mode) return ok(name, "persistence mode on");
  return warn(name,
              "persistence mode off: the driver lets go of an idle GPU, so a method's first CUDA call pays "
              "its start again and the clocks return to their defaults",
              "nvidia-smi -pm 1 (root), or run nvidia-persistenced");
}

Check clocks(const std::string& name, const nvml::GpuSettings& s, const nvml::GpuReading& r,
             const nvml::GpuDescription& d) {
  const std::string now = r.sm_clock_mhz ? fmt::format("SM at {:.0f} MHz", *r.sm_clock_mhz) : "SM clock unread";
  if (s.clocks_held_by_setting.value_or(false)) {
    return ok(name, fmt::format("held by a user setting (locked or application clocks): {}", now));
  }
  if (s.application_sm_clock_mhz && s.default_application_sm_clock_mhz &&
      *s.application_sm_clock_mhz != *s.default_application_sm_clock_mhz) {
    return ok(name, fmt::format("application clocks set: SM {} MHz (default {}), {}", *s.application_sm_clock_mhz,
                                *s.default_application_sm_clock_mhz, now));
  }
  if (!s.clocks_held_by_setting) return info(name, "whether the clocks are locked is not readable; " + now);
  // Info, not a warning: that NVML reports the "applications clocks setting" reason for a locked but
  // idle GPU is not yet checked on a real one, so "not held" may be wrong.
  return info(name, fmt::format("not held by a setting, as far as NVML says: boost, temperature and power move the SM "
                                "clock ({}{}); perfzero run --lock_gpu_clocks=base holds it for a run",
                                now, d.max_sm_clock_mhz ? fmt::format(" of at most {} MHz", *d.max_sm_clock_mhz) : ""));
}

Check throttle(const std::string& name, const nvml::GpuReading& r, const nvml::GpuDescription& d) {
  if (r.throttle_reasons && nvml::is_performance_throttle(*r.throttle_reasons)) {
    return warn(name, nvml::throttle_reason_names(*r.throttle_reasons),
                "the GPU is power or thermally throttled while idle: check cooling and power limits "
                "(nvidia-smi -q -d PERFORMANCE)");
  }
  return ok(name, fmt::format("{}: no power or thermal throttle now", d.model));
}

Check xids(const std::vector<nvml::XidEvent>& live, const std::string& watch_error, const KernelLogXids& logged) {
  std::vector<std::string> parts;
  parts.reserve(live.size() + 1);
  for (const auto& e : live) parts.push_back(fmt::format("XID {} on GPU {} during this check", e.xid, e.gpu));
  if (logged.total > 0) {
    const LoggedXid& last = logged.xids.back();
    parts.push_back(fmt::format("{} XID error{} in the kernel log, the last XID {} on PCI {}{}", logged.total,
                                logged.total == 1 ? "" : "s", last.xid, last.pci,
                                last.message.empty() ? "" : " (" + last.message + ")"));
  }
  if (!parts.empty()) {
    std::string found;
    for (const auto& p : parts) found += (found.empty() ? "" : "; ") + p;
    return warn("gpu_xid", found, kXidFix);
  }
  std::string unseen;
  if (!watch_error.empty()) unseen += "NVML events unavailable (" + watch_error + ")";
  if (!logged.unreadable.empty()) {
    unseen += (unseen.empty() ? "" : "; ") + std::string("kernel log unreadable (") + logged.unreadable + ")";
  }
  // The kernel log is a ring: it holds the latest messages, since boot only on a quiet machine.
  if (unseen.empty()) return ok("gpu_xid", "none in the kernel log (as far back as it holds), none during this check");
  return info("gpu_xid", "none seen, but " + unseen);
}

}  // namespace

GpuChecks::GpuChecks(DoctorPaths paths) : paths_(std::move(paths)) {
  std::string why;
  nvml_ = nvml::Library::open(why);
  if (!nvml_ || nvml_->device_count() == 0) {
    nvml_.reset();
    return;
  }
  watch_error_ = nvml_->watch_xids();
}

GpuChecks::~GpuChecks() = default;

std::vector<Check> GpuChecks::finish() {
  if (!nvml_) return {};
  std::vector<Check> out;
  for (unsigned i = 0; i < nvml_->device_count(); ++i) {
    const auto d = nvml_->describe(i);
    std::vector<std::string> errors;
    const auto r = nvml_->read(i, errors);
    const auto s = nvml_->settings(i);
    const std::string name = fmt::format("gpu{}", i);
    out.push_back(persistence(name + "_persistence", s));
    out.push_back(clocks(name + "_clocks", s, r, d));
    if (d.ecc_enabled) out.push_back(info(name + "_ecc", *d.ecc_enabled ? "ECC on" : "ECC off"));
    out.push_back(throttle(name + "_throttle", r, d));
  }
  const auto live = nvml_->take_xids();
  out.push_back(xids(live, watch_error_, read_logged_xids(paths_.kmsg)));
  return out;
}

}  // namespace perfzero::doctor
