#pragma once
// Issues one of the six operations for one member of the communicators, inside the caller's
// ncclGroupStart/End (so one process can drive every GPU of its host).
#include "nccl/nccl_communicators.hpp"
#include "nccl/nccl_operations.hpp"

namespace perfzero::nccl {

void launch(Operation op, const Layout& layout, const Member& member, int nranks, const float* send, float* recv);

}  // namespace perfzero::nccl
