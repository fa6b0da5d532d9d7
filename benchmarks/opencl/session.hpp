#pragma once
// One device's context and in-order queue, and the helpers every method uses: building programs
// (a failed build carries the compiler's log), buffers, transfers, kernel launches.
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "opencl/cl_call.hpp"
#include "opencl/cl_handle.hpp"
#include "opencl/devices.hpp"

namespace perfzero::opencl {

// A program that did not compile: what() names the device and options; log() is the compiler's.
class BuildError : public std::runtime_error {
 public:
  BuildError(const std::string& message, std::string log) : std::runtime_error(message), log_(std::move(log)) {}
  const std::string& log() const { return log_; }

 private:
  std::string log_;
};

class Session {
 public:
  explicit Session(const DeviceInfo& device);

  const DeviceInfo& device() const { return device_; }
  cl_context context() const { return context_.get(); }
  cl_command_queue queue() const { return queue_.get(); }
  Queue& queue_handle() { return queue_; }

  // Throws BuildError with the build log when the source does not compile for this device.
  Program build(const std::string& source, const std::string& options = "") const;
  Kernel kernel(const Program& program, const char* name) const;
  Buffer buffer(std::size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE) const;
  void write(const Buffer& buffer, const void* data, std::size_t bytes) const;  // blocking
  void read(const Buffer& buffer, void* data, std::size_t bytes) const;         // blocking
  // Enqueues a 1-D range (local size 0: the implementation's choice) without waiting.
  void launch(const Kernel& kernel, std::size_t global, std::size_t local = 0) const;
  void finish() const;
  // Launches and waits for that launch with the least host latency: polls its status, yielding the
  // core between polls, for up to `spin` (a launch of a few dozen microseconds ends in that time),
  // then blocks. Blocking at once (clFinish) puts the host thread to sleep and makes the device's
  // completion wake it: on PoCL in a 2-vCPU VM that wake-up was a quarter of a 50,000-float
  // vecadd (docs/performance.md). CUDA's default wait spins the same way before it blocks.
  void launch_and_wait(const Kernel& kernel, std::size_t global, std::chrono::microseconds spin) const;

 private:
  DeviceInfo device_;
  ClContext context_;
  Queue queue_;
};

// Sets the kernel's arguments in order: buffers by handle, everything else by value.
inline void set_arg(cl_kernel kernel, cl_uint index, const Buffer& buffer) {
  const cl_mem mem = buffer.get();
  // A buffer argument is the cl_mem handle itself: its size is a pointer's, as OpenCL specifies.
  PERFZERO_CL_CALL(clSetKernelArg(kernel, index, sizeof mem, &mem));  // NOLINT(bugprone-sizeof-expression)
}
template <typename T>
void set_arg(cl_kernel kernel, cl_uint index, const T& value) {
  PERFZERO_CL_CALL(clSetKernelArg(kernel, index, sizeof value, &value));
}
template <typename... Args>
void set_args(const Kernel& kernel, const Args&... args) {
  cl_uint index = 0;
  (set_arg(kernel.get(), index++, args), ...);
}

}  // namespace perfzero::opencl
