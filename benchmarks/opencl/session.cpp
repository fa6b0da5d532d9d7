#include "opencl/session.hpp"

#include <thread>

#include <fmt/format.h>

namespace perfzero::opencl {

Session::Session(const DeviceInfo& device) : device_(device) {
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                              reinterpret_cast<cl_context_properties>(device.platform), 0};
  context_ = ClContext(PERFZERO_CL_CREATE(clCreateContext, properties, 1, &device_.id, nullptr, nullptr));
  // OpenCL 1.2's queue call: the 2.0 replacement is missing on 1.2-only drivers (NVIDIA's older ones).
  queue_ = Queue(PERFZERO_CL_CREATE(clCreateCommandQueue, context_.get(), device_.id, 0));
}

Program Session::build(const std::string& source, const std::string& options) const {
  const char* text = source.c_str();
  const std::size_t length = source.size();
  Program program(PERFZERO_CL_CREATE(clCreateProgramWithSource, context_.get(), 1, &text, &length));
  const cl_int status = clBuildProgram(program.get(), 1, &device_.id, options.c_str(), nullptr, nullptr);
  if (status == CL_BUILD_PROGRAM_FAILURE) {
    std::size_t size = 0;
    PERFZERO_CL_CALL(clGetProgramBuildInfo(program.get(), device_.id, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size));
    std::string log(size, '\0');
    PERFZERO_CL_CALL(clGetProgramBuildInfo(program.get(), device_.id, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr));
    log = log.c_str();
    throw BuildError(fmt::format("the OpenCL program did not build on {} (options '{}'): {}", device_.label(), options,
                                 log.substr(0, 2000)),
                     log);
  }
  PERFZERO_CL_CALL(status);
  return program;
}

Kernel Session::kernel(const Program& program, const char* name) const {
  return Kernel(PERFZERO_CL_CREATE(clCreateKernel, program.get(), name));
}

Buffer Session::buffer(std::size_t bytes, cl_mem_flags flags) const {
  return Buffer(PERFZERO_CL_CREATE(clCreateBuffer, context_.get(), flags, bytes, nullptr));
}

void Session::write(const Buffer& buffer, const void* data, std::size_t bytes) const {
  PERFZERO_CL_CALL(clEnqueueWriteBuffer(queue_.get(), buffer.get(), CL_TRUE, 0, bytes, data, 0, nullptr, nullptr));
}

void Session::read(const Buffer& buffer, void* data, std::size_t bytes) const {
  PERFZERO_CL_CALL(clEnqueueReadBuffer(queue_.get(), buffer.get(), CL_TRUE, 0, bytes, data, 0, nullptr, nullptr));
}

void Session::launch(const Kernel& kernel, std::size_t global, std::size_t local) const {
  PERFZERO_CL_CALL(clEnqueueNDRangeKernel(queue_.get(), kernel.get(), 1, nullptr, &global,
                                          local == 0 ? nullptr : &local, 0, nullptr, nullptr));
}

void Session::finish() const { PERFZERO_CL_CALL(clFinish(queue_.get())); }

void Session::launch_and_wait(const Kernel& kernel, std::size_t global, std::chrono::microseconds spin) const {
  cl_event raw = nullptr;
  PERFZERO_CL_CALL(clEnqueueNDRangeKernel(queue_.get(), kernel.get(), 1, nullptr, &global, nullptr, 0, nullptr, &raw));
  const Event done(raw);
  PERFZERO_CL_CALL(clFlush(queue_.get()));  // submitted before polling, or it may never start
  const auto give_up = std::chrono::steady_clock::now() + spin;
  while (std::chrono::steady_clock::now() < give_up) {
    cl_int status = CL_QUEUED;
    PERFZERO_CL_CALL(clGetEventInfo(raw, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
    if (status == CL_COMPLETE || status < 0) break;  // an error is reported by the wait below
    std::this_thread::yield();                       // the device may be this CPU (PoCL): its threads get the core
  }
  PERFZERO_CL_CALL(clWaitForEvents(1, &raw));
}

}  // namespace perfzero::opencl
