#include "storage/aio_queue.hpp"

#include <libaio.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
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

// The queue's I/Os: one slot per I/O in flight, each with its own block of the buffers, refilled with
// the pattern's next offset.
class IoQueue {
 public:
  IoQueue(int fd, const IoPattern& p, void* buffers, io_context_t ctx)
      : fd_(fd),
        p_(p),
        buffers_(static_cast<char*>(buffers)),
        ctx_(ctx),
        slots_(static_cast<std::size_t>(p.queue_depth)),
        offsets_(p) {
    batch_.reserve(slots_.size());
  }
  std::vector<Slot>& slots() { return slots_; }

  // Prepares the slot's next I/O and queues it for submit().
  void queue(Slot& s) {
    void* buf = buffers_ + static_cast<std::size_t>(&s - slots_.data()) * p_.block_size;
    const auto at = static_cast<long long>(offsets_.next());
    if (p_.write) {
      io_prep_pwrite(&s.cb, fd_, buf, p_.block_size, at);
    } else {
      io_prep_pread(&s.cb, fd_, buf, p_.block_size, at);
    }
    s.cb.data = &s;
    s.submitted = Clock::now();
    batch_.push_back(&s.cb);
  }

  // Submits what is queued; false (with `error` set) when the kernel refuses it.
  bool submit(std::string& error) {
    std::size_t done = 0;
    while (done < batch_.size()) {
      const int n = io_submit(ctx_, static_cast<long>(batch_.size() - done), batch_.data() + done);
      if (n < 0 && n != -EAGAIN && n != -EINTR) {
        error = fmt::format("io_submit: {}", std::strerror(-n));
        return false;
      }
      if (n > 0) done += static_cast<std::size_t>(n);
    }
    batch_.clear();
    return true;
  }

 private:
  int fd_;
  const IoPattern& p_;
  char* buffers_;
  io_context_t ctx_;
  std::vector<Slot> slots_;
  Offsets offsets_;
  std::vector<iocb*> batch_;
};

// Where the run stands: the I/Os in flight, and the measured window (after the ramp, for the runtime).
struct IoRun {
  Clock::time_point measure_from;
  Clock::time_point stop_at;
  std::size_t in_flight = 0;
  bool measuring = false;
  bool stopping = false;
  Clock::time_point window_start;
};

// One completed I/O: counted when it completes inside the window (those submitted in the ramp count
// too, as in fio), then sent back to the device unless the run is stopping. A failed or short I/O
// stops the run. False when its refill could not be submitted.
bool complete(const io_event& event, Clock::time_point now, const IoPattern& p, IoQueue& queue, IoRun& run,
              bench::LatencyHistogram& latency, IoResult& result) {
  auto* slot = static_cast<Slot*>(event.data);
  --run.in_flight;
  const long res = static_cast<long>(event.res);
  if (res != static_cast<long>(p.block_size)) {
    result.error = fmt::format("{} of {} bytes at offset {}: {}", p.write ? "a write" : "a read", p.block_size,
                               slot->cb.u.c.offset, res < 0 ? std::strerror(static_cast<int>(-res)) : "short");
    run.stopping = true;
    return true;
  }
  if (run.measuring && !run.stopping) {
    latency.add(ns_between(slot->submitted, now));
    ++result.ios;
  }
  if (!run.stopping) {
    // Each I/O goes back to the device the moment one completes, as fio's iodepth_batch_submit=1
    // does: submitting the refills together (io_submit plugs the queue for the whole batch) let
    // the device's queue drain, and cost 20 % of the IOPS against fio on a virtio disk.
    queue.queue(*slot);
    if (!queue.submit(result.error)) return false;
    ++run.in_flight;
  }
  return true;
}

// Reaps completions until every I/O in flight is back; false on an error (result.error says it).
bool reap_until_drained(io_context_t ctx, const IoPattern& p, IoQueue& queue, IoRun& run,
                        bench::LatencyHistogram& latency, IoResult& result) {
  const auto depth = static_cast<std::size_t>(p.queue_depth);
  std::vector<io_event> events(depth);
  while (run.in_flight > 0) {
    const int n = io_getevents(ctx, 1, static_cast<long>(depth), events.data(), nullptr);
    if (n == -EINTR) continue;
    if (n < 0) {
      result.error = fmt::format("io_getevents: {}", std::strerror(-n));
      return false;
    }
    const auto now = Clock::now();
    if (!run.measuring && now >= run.measure_from) {
      run.measuring = true;
      run.window_start = now;
    }
    if (!run.stopping && now >= run.stop_at) run.stopping = true;
    for (int e = 0; e < n; ++e) {
      if (!complete(events[static_cast<std::size_t>(e)], now, p, queue, run, latency, result)) return false;
    }
  }
  return true;
}

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
  IoQueue queue(fd, p, raw, aio.get());
  IoRun run;
  const auto start = Clock::now();
  run.measure_from = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(p.ramp_seconds));
  run.stop_at =
      run.measure_from + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(p.runtime_seconds));
  for (Slot& slot : queue.slots()) queue.queue(slot);
  if (!queue.submit(result.error)) return result;
  run.in_flight = depth;
  if (!reap_until_drained(aio.get(), p, queue, run, latency, result)) return result;
  result.seconds =
      run.measuring ? std::chrono::duration<double>(std::min(Clock::now(), run.stop_at) - run.window_start).count() : 0;
  result.bytes = result.ios * p.block_size;
  return result;
}

}  // namespace perfzero::storage
