#pragma once
// The NCCL ranks this process drives: every GPU of the host from one process (ncclCommInitAll, as
// nccl-tests' -g N), or one rank on one GPU of a multi-host method (ncclCommInitRankConfig, the id
// exchanged through the trial directory). Either way the collectives are issued for every member
// inside one ncclGroupStart/End, so the same code drives both.
#include <cuda_runtime.h>
#include <nccl.h>

#include <chrono>
#include <cstdint>
#include <vector>

namespace perfzero::nccl {

struct Member {
  int rank = 0;    // in the communicator
  int device = 0;  // the CUDA device this process drives it on
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
};

class Communicators {
 public:
  // One process, one rank per device in `devices`.
  static Communicators all_devices(const std::vector<int>& devices);
  // Rank `rank` of `world`, on `device`. Non-blocking init: when the others have not joined within
  // `join_timeout` the communicator is aborted and a CudaError says so.
  static Communicators one_rank(int rank, int world, int device, const ncclUniqueId& id,
                                std::chrono::milliseconds join_timeout);
  ~Communicators();
  Communicators(Communicators&& other) noexcept;
  Communicators(const Communicators&) = delete;
  Communicators& operator=(const Communicators&) = delete;
  Communicators& operator=(Communicators&&) = delete;

  int nranks() const { return nranks_; }
  bool one_process() const { return members_.size() == static_cast<std::size_t>(nranks_); }
  std::vector<Member>& members() { return members_; }
  const std::vector<Member>& members() const { return members_; }
  void synchronize() const;
  // ncclGroupEnd, then (for a non-blocking communicator) until NCCL has enqueued the work.
  void end_group() const;
  // Across every rank of the communicator (through NCCL itself when ranks are in other processes).
  double average(double mine_per_member) const;
  std::int64_t sum(std::int64_t mine) const;

 private:
  Communicators() = default;
  void wait_enqueued() const;
  std::vector<Member> members_;
  int nranks_ = 0;
  bool aborted_ = false;
};

}  // namespace perfzero::nccl
