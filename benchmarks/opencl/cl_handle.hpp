#pragma once
// Owning handles for OpenCL objects (common/owned_handle.hpp).
#include <CL/cl.h>

#include "common/owned_handle.hpp"

namespace perfzero::opencl {

template <typename T, cl_int (*Release)(T)>
using Handle = bench::OwnedHandle<T, Release>;

using ClContext = Handle<cl_context, clReleaseContext>;
using Queue = Handle<cl_command_queue, clReleaseCommandQueue>;
using Buffer = Handle<cl_mem, clReleaseMemObject>;
using Program = Handle<cl_program, clReleaseProgram>;
using Kernel = Handle<cl_kernel, clReleaseKernel>;
using Event = Handle<cl_event, clReleaseEvent>;

}  // namespace perfzero::opencl
