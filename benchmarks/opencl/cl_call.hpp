#pragma once
// Every OpenCL call goes through one of these macros, so a failure names the call as written, the
// error code by name and the file:line it came from (as nvbench's NVBENCH_CUDA_CALL does):
//   PERFZERO_CL_CALL(clFinish(queue));
//   cl_mem m = PERFZERO_CL_CREATE(clCreateBuffer, context, CL_MEM_READ_WRITE, bytes, nullptr);
// (the CREATE form appends the `cl_int*` error argument the creating functions take last).
#include <CL/cl.h>

#include <stdexcept>
#include <string>

namespace perfzero::opencl {

// An OpenCL call that returned an error; code() keeps the status for callers that expect some.
class ClError : public std::runtime_error {
 public:
  ClError(cl_int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  cl_int code() const { return code_; }

 private:
  cl_int code_;
};

// "CL_OUT_OF_RESOURCES" for -5; "CL error -9999" for a code no header names.
std::string error_name(cl_int code);

[[noreturn]] void throw_cl_error(cl_int code, const char* call, const char* file, int line);

inline void check_cl(cl_int code, const char* call, const char* file, int line) {
  if (code != CL_SUCCESS) throw_cl_error(code, call, file, line);
}

template <typename Create>
auto checked_create(Create create, const char* call, const char* file, int line) {
  cl_int code = CL_SUCCESS;
  auto object = create(&code);
  check_cl(code, call, file, line);
  return object;
}

}  // namespace perfzero::opencl

#define PERFZERO_CL_CALL(call) ::perfzero::opencl::check_cl((call), #call, __FILE__, __LINE__)
#define PERFZERO_CL_CREATE(function, ...)                                                    \
  ::perfzero::opencl::checked_create(                                                        \
      [&](cl_int* perfzero_cl_status) { return function(__VA_ARGS__, perfzero_cl_status); }, \
      #function "(" #__VA_ARGS__ ")", __FILE__, __LINE__)
