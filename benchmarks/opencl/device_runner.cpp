#include "opencl/device_runner.hpp"

#include <fmt/format.h>

#include <cstdlib>

namespace perfzero::opencl {

namespace {

void describe_device(Context& ctx, const DeviceInfo& d, const std::string& prefix) {
  ctx.set_extra(prefix + "platform", d.platform_name);
  ctx.set_extra(prefix + "platform_version", d.platform_version);
  ctx.set_extra(prefix + "device", d.name);
  ctx.set_extra(prefix + "device_vendor", d.vendor);
  ctx.set_extra(prefix + "device_type", d.type);
  ctx.set_extra(prefix + "driver_version", d.driver_version);
  ctx.set_extra(prefix + "opencl_version", d.opencl_version);
  ctx.set_extra(prefix + "opencl_c_version", d.opencl_c_version);
  ctx.set_extra(prefix + "compute_units", d.compute_units);
  ctx.set_extra(prefix + "clock_mhz", d.clock_mhz);
  ctx.set_extra(prefix + "global_memory_bytes", d.global_memory_bytes);
  ctx.set_extra(prefix + "local_memory_bytes", d.local_memory_bytes);
  ctx.set_extra(prefix + "platform_index", std::int64_t{d.platform_index});
  ctx.set_extra(prefix + "device_index", std::int64_t{d.device_index});
}

// Runs the method on one device in a context of its own, so a sweep can rename what it reported.
Context run_on(const Context& parent, const DeviceInfo& device, DeviceMethod method) {
  Context ctx(parent.params());
  describe_device(ctx, device, "");
  try {
    Session session(device);
    method(ctx, session);
  } catch (const BuildError& e) {
    ctx.set_extra("build_log", e.log());
    ctx.fail(e.what());
  } catch (const std::exception& e) {
    ctx.fail(fmt::format("on {}: {}", device.label(), e.what()));
  }
  return ctx;
}

// One device: its results as they are, its skip reason after its label, as a sweep gives it.
void copy_as_is(Context& to, const Context& from, const DeviceInfo& d) {
  for (const auto& m : from.metrics()) to.report(m);
  for (const auto& [key, value] : from.extras()) to.set_extra(key, value);
  for (const auto& series : from.repetitions()) to.record_repetitions(series);
  if (from.framework()) to.set_framework(*from.framework());
  if (from.skip_reason()) to.skip(d.label() + ": " + *from.skip_reason());
  if (from.failure()) to.fail(*from.failure());
}

// A sweep: each device's results under its own names. The trial fails when any device failed and
// is skipped only when every device skipped (each device's skip reason is kept in the extras).
void copy_swept(Context& to, const Context& from, const DeviceInfo& d, std::vector<std::string>& failures,
                std::vector<std::string>& skips) {
  for (auto m : from.metrics()) {
    m.name = swept_name(m.name, d);
    to.report(m);
  }
  for (const auto& [key, value] : from.extras()) to.set_extra(swept_name(key, d), value);
  for (auto series : from.repetitions()) {
    series.name = swept_name(series.name, d);
    to.record_repetitions(series);
  }
  if (from.framework()) to.set_framework(*from.framework());
  if (from.skip_reason()) {
    to.set_extra(swept_name("skipped", d), *from.skip_reason());
    skips.push_back(d.label() + ": " + *from.skip_reason());
  }
  if (from.failure()) failures.push_back(d.label() + ": " + *from.failure());
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

}  // namespace

std::string swept_name(const std::string& name, const DeviceInfo& device) {
  return fmt::format("{}@p{}d{}", name, device.platform_index, device.device_index);
}

std::vector<ParamSpec> with_device_params(std::vector<ParamSpec> own) {
  std::vector<ParamSpec> specs{
      {"platform", ParamType::string, std::string{}, "OpenCL platform: an index or a name substring ('' = any)"},
      {"device", ParamType::string, std::string{"0"},
       "device: an index over the matching platforms' devices, a name substring, or 'all' (each device in turn)"},
  };
  for (auto& spec : own) specs.push_back(std::move(spec));
  return specs;
}

void run_on_selected_devices(Context& ctx, DeviceMethod method) {
  const std::vector<DeviceInfo> devices = find_devices();
  if (devices.empty()) {
    const char* vendors = std::getenv("OCL_ICD_VENDORS");
    return ctx.skip(
        fmt::format("no OpenCL platform: the ICD loader found no driver (OCL_ICD_VENDORS={}; install "
                    "pocl-opencl-icd for the CPU, or a GPU vendor's OpenCL driver)",
                    vendors != nullptr ? vendors : "unset, so /etc/OpenCL/vendors"));
  }
  const Selection selection = select_devices(devices, ctx.string_param("platform"), ctx.string_param("device"));
  if (!selection.error.empty()) return ctx.skip(selection.error);
  if (!selection.sweep) {
    copy_as_is(ctx, run_on(ctx, selection.devices.front(), method), selection.devices.front());
    return;
  }
  ctx.set_extra("devices", static_cast<std::int64_t>(selection.devices.size()));
  std::vector<std::string> failures;
  std::vector<std::string> skips;
  for (const auto& device : selection.devices) copy_swept(ctx, run_on(ctx, device, method), device, failures, skips);
  if (!failures.empty()) return ctx.fail(join(failures));
  if (skips.size() == selection.devices.size()) ctx.skip(join(skips));
}

}  // namespace perfzero::opencl
