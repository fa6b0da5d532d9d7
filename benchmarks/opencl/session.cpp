#include "opencl/session.hpp"

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

}  // namespace perfzero::opencl
