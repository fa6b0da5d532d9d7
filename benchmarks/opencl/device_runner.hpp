#pragma once
// What every opencl.* method shares: the `platform` and `device` parameters, the skip when this
// machine has no OpenCL platform, the device's description in the trial's extras, and `device: all`
// (every device in turn, each device's metrics named `METRIC@pPdD`, so one trial gives the row of
// the method x device table).
#include <string>
#include <vector>

#include "opencl/session.hpp"
#include "perfzero/benchmark.hpp"

namespace perfzero::opencl {

// The method's body on one device. Problems go through ctx (skip, fail); exceptions (ClError,
// BuildError) are caught by the runner and become that device's failure.
using DeviceMethod = void (*)(Context& ctx, Session& session);

// `platform` and `device`, then the method's own parameters.
std::vector<ParamSpec> with_device_params(std::vector<ParamSpec> own);

void run_on_selected_devices(Context& ctx, DeviceMethod method);

// The metric/extra/series name a device's value goes under in a sweep: "gbps@p0d1".
std::string swept_name(const std::string& name, const DeviceInfo& device);

}  // namespace perfzero::opencl
