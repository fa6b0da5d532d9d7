#pragma once
// A failing NCCL call throws perfzero::cuda::CudaError with the call, file:line, NCCL's error string
// and its last error message (which names the peer or the system call at fault), as CUDA calls do.
#include <nccl.h>

#include <string>

#include "cuda/cuda_check.hpp"

#define PERFZERO_NCCL_CALL(call)                                                                                     \
  do {                                                                                                               \
    const ncclResult_t perfzero_nccl_status = (call);                                                                \
    if (perfzero_nccl_status != ncclSuccess && perfzero_nccl_status != ncclInProgress) {                             \
      const char* perfzero_nccl_last = ncclGetLastError(nullptr);                                                    \
      ::perfzero::cuda::throw_call_error(                                                                            \
          __FILE__, __LINE__, #call,                                                                                 \
          std::string(ncclGetErrorString(perfzero_nccl_status)) +                                                    \
              (perfzero_nccl_last != nullptr && *perfzero_nccl_last != '\0' ? std::string(": ") + perfzero_nccl_last \
                                                                            : std::string()));                       \
    }                                                                                                                \
  } while (false)
