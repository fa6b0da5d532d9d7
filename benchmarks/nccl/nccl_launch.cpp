#include "nccl/nccl_launch.hpp"

#include "nccl/nccl_check.hpp"

namespace perfzero::nccl {

void launch(Operation op, const Layout& layout, const Member& member, int nranks, const float* send, float* recv) {
  switch (op) {
    case Operation::all_reduce:
      PERFZERO_NCCL_CALL(
          ncclAllReduce(send, recv, layout.send_count, ncclFloat32, ncclSum, member.comm, member.stream));
      break;
    case Operation::all_gather:
      PERFZERO_NCCL_CALL(ncclAllGather(send, recv, layout.chunk, ncclFloat32, member.comm, member.stream));
      break;
    case Operation::reduce_scatter:
      PERFZERO_NCCL_CALL(ncclReduceScatter(send, recv, layout.chunk, ncclFloat32, ncclSum, member.comm, member.stream));
      break;
    case Operation::alltoall:
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
      PERFZERO_NCCL_CALL(ncclAlltoAll(send, recv, layout.chunk, ncclFloat32, member.comm, member.stream));
#else
      for (int peer = 0; peer < nranks; ++peer) {
        const std::size_t at = static_cast<std::size_t>(peer) * layout.chunk;
        PERFZERO_NCCL_CALL(ncclSend(send + at, layout.chunk, ncclFloat32, peer, member.comm, member.stream));
        PERFZERO_NCCL_CALL(ncclRecv(recv + at, layout.chunk, ncclFloat32, peer, member.comm, member.stream));
      }
#endif
      break;
    case Operation::broadcast:
      PERFZERO_NCCL_CALL(ncclBroadcast(send, recv, layout.send_count, ncclFloat32, 0, member.comm, member.stream));
      break;
    case Operation::sendrecv:
      PERFZERO_NCCL_CALL(
          ncclSend(send, layout.send_count, ncclFloat32, (member.rank + 1) % nranks, member.comm, member.stream));
      PERFZERO_NCCL_CALL(ncclRecv(recv, layout.recv_count, ncclFloat32, (member.rank - 1 + nranks) % nranks,
                                  member.comm, member.stream));
      break;
  }
}

}  // namespace perfzero::nccl
