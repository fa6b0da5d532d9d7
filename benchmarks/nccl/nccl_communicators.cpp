#include "nccl/nccl_communicators.hpp"

#include <exception>
#include <thread>

#include <fmt/format.h>

#include "cuda/device_buffer.hpp"
#include "nccl/nccl_check.hpp"

namespace perfzero::nccl {

Communicators Communicators::all_devices(const std::vector<int>& devices) {
  Communicators c;
  c.nranks_ = static_cast<int>(devices.size());
  std::vector<ncclComm_t> comms(devices.size());
  PERFZERO_NCCL_CALL(ncclCommInitAll(comms.data(), c.nranks_, devices.data()));
  // Every communicator is owned first, so a failing stream creation still destroys them all.
  for (std::size_t i = 0; i < devices.size(); ++i)
    c.members_.push_back({static_cast<int>(i), devices[i], comms[i], nullptr});
  for (auto& m : c.members_) {
    PERFZERO_CUDA_CALL(cudaSetDevice(m.device));
    PERFZERO_CUDA_CALL(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking));
  }
  return c;
}

Communicators Communicators::one_rank(int rank, int world, int device, const ncclUniqueId& id,
                                      std::chrono::milliseconds join_timeout) {
  Communicators c;
  c.nranks_ = world;
  PERFZERO_CUDA_CALL(cudaSetDevice(device));
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  config.blocking = 0;
  Member m{rank, device, nullptr, nullptr};
  PERFZERO_NCCL_CALL(ncclCommInitRankConfig(&m.comm, world, id, rank, &config));
  c.members_.push_back(m);  // from here the destructor aborts or destroys it
  const auto give_up = std::chrono::steady_clock::now() + join_timeout;
  ncclResult_t state = ncclInProgress;
  while (state == ncclInProgress) {
    PERFZERO_NCCL_CALL(ncclCommGetAsyncError(m.comm, &state));
    if (state == ncclInProgress && std::chrono::steady_clock::now() > give_up) {
      c.aborted_ = true;
      ncclCommAbort(m.comm);
      throw cuda::CudaError(
          fmt::format("rank {} of {}: the NCCL communicator did not form within {} s (a rank did not join: lost, or "
                      "skipped for want of a GPU; its log says which)",
                      rank, world, std::chrono::duration_cast<std::chrono::seconds>(join_timeout).count()));
    }
    if (state == ncclInProgress) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  PERFZERO_NCCL_CALL(state);
  PERFZERO_CUDA_CALL(cudaStreamCreateWithFlags(&c.members_.back().stream, cudaStreamNonBlocking));
  return c;
}

Communicators::Communicators(Communicators&& other) noexcept
    : members_(std::move(other.members_)), nranks_(other.nranks_), aborted_(other.aborted_) {
  other.members_.clear();
}

Communicators::~Communicators() {
  // Unwinding from an error, peers may be gone or stuck: destroying would wait for them (it
  // finalizes), so the communicators are aborted instead. Streams go after their communicator.
  const bool unwinding = std::uncaught_exceptions() > 0;
  for (auto& m : members_) {
    cudaSetDevice(m.device);
    if (m.comm != nullptr && !aborted_) {
      ncclResult_t async = ncclSuccess;
      const bool healthy = ncclCommGetAsyncError(m.comm, &async) == ncclSuccess && async == ncclSuccess;
      if (healthy && !unwinding) {
        ncclCommDestroy(m.comm);  // whatever it returns, the communicator is gone: never aborted after
      } else {
        ncclCommAbort(m.comm);
      }
    }
    if (m.stream != nullptr) cudaStreamDestroy(m.stream);
  }
}

void Communicators::wait_enqueued() const {
  // ncclCommInitAll's communicators are blocking unless NCCL_COMM_BLOCKING=0 says otherwise; polling
  // a blocking one returns at once.
  for (const auto& m : members_) {
    ncclResult_t state = ncclInProgress;
    while (state == ncclInProgress) PERFZERO_NCCL_CALL(ncclCommGetAsyncError(m.comm, &state));
    PERFZERO_NCCL_CALL(state);
  }
}

void Communicators::end_group() const {
  PERFZERO_NCCL_CALL(ncclGroupEnd());
  wait_enqueued();
}

void Communicators::synchronize() const {
  for (const auto& m : members_) {
    PERFZERO_CUDA_CALL(cudaSetDevice(m.device));
    PERFZERO_CUDA_CALL(cudaStreamSynchronize(m.stream));
  }
}

double Communicators::average(double mine_per_member) const {
  if (one_process()) return mine_per_member;
  const Member& m = members_.front();
  PERFZERO_CUDA_CALL(cudaSetDevice(m.device));
  cuda::DeviceBuffer<double> value(1);
  PERFZERO_CUDA_CALL(cudaMemcpyAsync(value.get(), &mine_per_member, sizeof(double), cudaMemcpyHostToDevice, m.stream));
  PERFZERO_NCCL_CALL(ncclAllReduce(value.get(), value.get(), 1, ncclFloat64, ncclSum, m.comm, m.stream));
  wait_enqueued();
  PERFZERO_CUDA_CALL(cudaStreamSynchronize(m.stream));
  double total = 0;
  PERFZERO_CUDA_CALL(cudaMemcpyAsync(&total, value.get(), sizeof(double), cudaMemcpyDeviceToHost, m.stream));
  PERFZERO_CUDA_CALL(cudaStreamSynchronize(m.stream));
  return total / nranks_;
}

std::int64_t Communicators::sum(std::int64_t mine) const {
  if (one_process()) return mine;
  const Member& m = members_.front();
  PERFZERO_CUDA_CALL(cudaSetDevice(m.device));
  cuda::DeviceBuffer<std::int64_t> value(1);
  PERFZERO_CUDA_CALL(cudaMemcpyAsync(value.get(), &mine, sizeof mine, cudaMemcpyHostToDevice, m.stream));
  PERFZERO_NCCL_CALL(ncclAllReduce(value.get(), value.get(), 1, ncclInt64, ncclSum, m.comm, m.stream));
  wait_enqueued();
  PERFZERO_CUDA_CALL(cudaStreamSynchronize(m.stream));
  std::int64_t total = 0;
  PERFZERO_CUDA_CALL(cudaMemcpyAsync(&total, value.get(), sizeof total, cudaMemcpyDeviceToHost, m.stream));
  PERFZERO_CUDA_CALL(cudaStreamSynchronize(m.stream));
  return total;
}

}  // namespace perfzero::nccl
