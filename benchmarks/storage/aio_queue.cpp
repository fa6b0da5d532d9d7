#include "storage/aio_queue.hpp"

#include <libaio.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <fmt/format.h>

namespace perfzero::storage {

namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t ns_between(Clock::time_point a, Clock::time_point b) {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count());
}

// The offsets of the pattern: uniform over the file's blocks (xorshift64*), or one after another
// from the start, wrapping at the end.
class Offsets {
 public:
  explicit Offsets(const IoPattern& p) : p_(p), state_(p.seed | 1), blocks_(p.file_size / p.block_size) {}
  std::uint64_t next() {
    if (!p_.random) {
      const std::uint64_t at = next_block_++ % blocks_;
      return at * p_.block_size;
    }
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return (state_ * 0x2545F4914F6CDD1DULL) % blocks_ * p_.block_size;
  }

 private:
  const IoPattern& p_;
  std::uint64_t state_;
  std::uint64_t blocks_;
  std::uint64_t next_block_ = 0;
};

struct Slot {
  iocb cb{};
  Clock::time_point submitted;
};

class AioContext {
 public:
  explicit AioContext(int depth) { ok_ = io_setup(depth, &ctx_) == 0; }
  AioContext(const AioContext&) = delete;
  AioContext& operator=(const AioContext&) = delete;
  ~AioContext() {
    if (ok_) io_destroy(ctx_);
  }
  bool ok() const { return ok_; }
  io_context_t get() const { return ctx_; }

 private:
  io_context_t ctx_{};
  bool ok_ = false;
};

}  // namespace

IoResult run_io(int fd, const IoPattern& p, bench::LatencyHistogram& latency) {
  IoResult result;
  latency.clear();
  if (p.block_size == 0 || p.file_size < p.block_size || p.queue_depth < 1) {
    result.error = "the file must hold at least one block, and the queue at least one I/O";
    return result;
  }
  const auto depth = static_cast<std::size_t>(p.queue_depth);
  void* raw = nullptr;
  if (::posix_memalign(&raw, 4096, p.block_size * depth) != 0) {
    result.error = "out of memory for the I/O buffers";
    return result;
  }
  const std::unique_ptr<void, decltype(&std::free)> buffers(raw, &std::free);
  // After the buffers, so destroyed before them: io_destroy waits for the I/Os still in flight, which
  // the kernel must not complete into freed memory.
  AioContext aio(p.queue_depth);
  if (!aio.ok()) {
    result.error = fmt::format("io_setup({}) failed: {}", p.queue_depth, std::strerror(errno));
    return result;
  }
  // Written blocks carry bytes that do not compress; read ones are overwritten.
  std::memset(raw, 0x5a, p.block_size * depth);
  for (std::size_t i = 0; i < p.block_size * depth; i += 64)
    static_cast<unsigned char*>(raw)[i] = static_cast<unsigned char>(i * 131);
  std::vector<Slot> slots(depth);
  Offsets offsets(p);
  auto prepare = [&](Slot& s, std::size_t i) {
    void* buf = static_cast<char*>(raw) + i * p.block_size;
    const auto at = static_cast<long long>(offsets.next());
    if (p.write) {
      io_prep_pwrite(&s.cb, fd, buf, p.block_size, at);
    } else {
      io_prep_pread(&s.cb, fd, buf, p.block_size, at);
    }
    s.cb.data = &s;
  };
  std::vector<iocb*> batch;
  batch.reserve(depth);
  auto submit = [&]() -> bool {
    std::size_t done = 0;
    while (done < batch.size()) {
      const int n = io_submit(aio.get(), static_cast<long>(batch.size() - done), batch.data() + done);
      if (n < 0 && n != -EAGAIN && n != -EINTR) {
        result.error = fmt::format("io_submit: {}", std::strerror(-n));
        return false;
      }
      if (n > 0) done += static_cast<std::size_t>(n);
    }
    batch.clear();
    return true;
  };
  const auto start = Clock::now();
  const auto measure_from =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(p.ramp_seconds));
  const auto stop_at =
      measure_from + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(p.runtime_seconds));
  for (std::size_t i = 0; i < depth; ++i) {
    prepare(slots[i], i);
    slots[i].submitted = Clock::now();
    batch.push_back(&slots[i].cb);
  }
  if (!submit()) return result;
  std::size_t in_flight = depth;
  bool measuring = false;
  bool stopping = false;
  Clock::time_point window_start;
  std::vector<io_event> events(depth);
  while (in_flight > 0) {
    const int n = io_getevents(aio.get(), 1, static_cast<long>(depth), events.data(), nullptr);
    if (n == -EINTR) continue;
    if (n < 0) {
      result.error = fmt::format("io_getevents: {}", std::strerror(-n));
      return result;
    }
    const auto now = Clock::now();
    if (!measuring && now >= measure_from) {
      measuring = true;
      window_start = now;
    }
    if (!stopping && now >= stop_at) stopping = true;
    for (int e = 0; e < n; ++e) {
      auto* slot = static_cast<Slot*>(events[static_cast<std::size_t>(e)].data);
      --in_flight;
      const long res = static_cast<long>(events[static_cast<std::size_t>(e)].res);
      if (res != static_cast<long>(p.block_size)) {
        result.error = fmt::format("{} of {} bytes at offset {}: {}", p.write ? "a write" : "a read", p.block_size,
                                   slot->cb.u.c.offset, res < 0 ? std::strerror(static_cast<int>(-res)) : "short");
        stopping = true;
        continue;
      }
      // Counted when it completes inside the window: those submitted in the ramp count too, as in fio.
      if (measuring && !stopping) {
        latency.add(ns_between(slot->submitted, now));
        ++result.ios;
      }
      if (!stopping) {
        // Each I/O goes back to the device the moment one completes, as fio's iodepth_batch_submit=1
        // does: submitting the refills together (io_submit plugs the queue for the whole batch) let
        // the device's queue drain, and cost 20 % of the IOPS against fio on a virtio disk.
        prepare(*slot, static_cast<std::size_t>(slot - slots.data()));
        slot->submitted = Clock::now();
        batch.push_back(&slot->cb);
        if (!submit()) return result;
        ++in_flight;
      }
    }
  }
  result.seconds =
      measuring ? std::chrono::duration<double>(std::min(Clock::now(), stop_at) - window_start).count() : 0;
  result.bytes = result.ios * p.block_size;
  return result;
}

}  // namespace perfzero::storage
