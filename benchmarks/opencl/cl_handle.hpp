#pragma once
// Owning handles for OpenCL objects: released once, movable, never copied.
#include <CL/cl.h>

#include <utility>

namespace perfzero::opencl {

template <typename T, cl_int (*Release)(T)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T object) : object_(object) {}
  ~Handle() { reset(); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      object_ = std::exchange(other.object_, nullptr);
    }
    return *this;
  }
  T get() const { return object_; }
  // For APIs that take a pointer to the handle (CLBlast takes cl_command_queue*).
  T* address() { return &object_; }
  void reset() {
    // A release error cannot be acted on in a destructor; the process ends soon after anyway.
    if (object_ != nullptr) static_cast<void>(Release(object_));
    object_ = nullptr;
  }

 private:
  T object_ = nullptr;
};

using ClContext = Handle<cl_context, clReleaseContext>;
using Queue = Handle<cl_command_queue, clReleaseCommandQueue>;
using Buffer = Handle<cl_mem, clReleaseMemObject>;
using Program = Handle<cl_program, clReleaseProgram>;
using Kernel = Handle<cl_kernel, clReleaseKernel>;
using Event = Handle<cl_event, clReleaseEvent>;

}  // namespace perfzero::opencl
