// nccl.Collectives.*: NCCL's collectives and point-to-point measured as nccl-tests measures them
// (doc/PERFORMANCE.md: algbw = size / time, busbw = algbw x the operation's factor; time is the
// mean over `iters` back-to-back operations, averaged over the ranks), out of place and, where
// NCCL defines it, in place, every result checked element by element first (nccl-tests' -c).
// One process drives every GPU of its host (ncclCommInitAll, nccl-tests' -g N); launched on several
// ranks (launch: {engine: mpirun|slurm}, docs/multi-host.md) each rank drives one GPU. NCCL's own
// debug output and topology dump, written into the trial directory, give its version, network and
// the transport of every connection (nccl_transports.json beside the reports).
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/rank_env.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device.hpp"
#include "cuda/device_buffer.hpp"
#include "nccl/nccl_check.hpp"
#include "nccl/nccl_communicators.hpp"
#include "nccl/nccl_debug_log.hpp"
#include "nccl/nccl_launch.hpp"
#include "nccl/nccl_operations.hpp"
#include "nccl/nccl_unique_id.hpp"
#include "perfzero/benchmark.hpp"

namespace perfzero::nccl {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kDebugPrefix = "nccl-debug.";
constexpr const char* kTopologyFile = "nccl-topology.xml";
constexpr const char* kTransportsFile = "nccl_transports.json";

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// NCCL reads these at its first call. A user's own setting wins; then the transports are not read.
std::string ask_nccl_to_log(const fs::path& dir) {
  if (const char* level = std::getenv("NCCL_DEBUG");
      level != nullptr && std::string(level) != "INFO" && std::string(level) != "TRACE") {
    return fmt::format("not read: NCCL_DEBUG={} was set, and NCCL logs its connections at INFO", level);
  }
  if (std::getenv("NCCL_DEBUG_FILE") != nullptr) return "not read: NCCL_DEBUG_FILE was set by the user";
  ::setenv("NCCL_DEBUG", "INFO", 0);
  ::setenv("NCCL_DEBUG_FILE", (dir / (std::string(kDebugPrefix) + "%h.%p.log")).c_str(), 1);
  ::setenv("NCCL_TOPO_DUMP_FILE", (dir / kTopologyFile).c_str(), 0);
  return "";
}

// Every rank's debug file in the trial directory (one per process), and rank 0's topology dump.
DebugLog read_nccl_account(const fs::path& dir) {
  DebugLog log;
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kDebugPrefix, 0) == 0 && entry.is_regular_file(ec)) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) parse_debug_text(read_text(f), log);
  const char* topology = std::getenv("NCCL_TOPO_DUMP_FILE");
  classify(log, parse_topology(topology != nullptr ? read_text(topology) : ""));
  return log;
}

std::string version_text() {
  int code = 0;
  PERFZERO_NCCL_CALL(ncclGetVersion(&code));
  return fmt::format("{}.{}.{}", code / 10000, code % 10000 / 100, code % 100);
}

struct MemberBuffers {
  cuda::DeviceBuffer<float> send;
  cuda::DeviceBuffer<float> recv;  // also the one buffer of the in-place form
};

std::vector<MemberBuffers> allocate(const Communicators& comms, const Layout& layout) {
  std::vector<MemberBuffers> buffers;
  for (const auto& m : comms.members()) {
    PERFZERO_CUDA_CALL(cudaSetDevice(m.device));
    buffers.push_back({cuda::DeviceBuffer<float>(layout.send_count),
                       cuda::DeviceBuffer<float>(std::max(layout.send_count, layout.recv_count))});
  }
  return buffers;
}

// Each member's input where the form reads it, and a zeroed receive buffer around it.
void prepare(const Communicators& comms, Operation op, const Layout& layout, bool in_place,
             std::vector<MemberBuffers>& buffers) {
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    const Member& m = comms.members()[k];
    PERFZERO_CUDA_CALL(cudaSetDevice(m.device));
    const std::vector<float> in = input_of(op, layout, m.rank);
    // On the member's own stream, which NCCL's work follows: the legacy default stream does not order
    // a non-blocking stream, and a pageable copy may return before its DMA is done.
    PERFZERO_CUDA_CALL(cudaMemsetAsync(buffers[k].recv.get(), 0, buffers[k].recv.bytes(), m.stream));
    float* target =
        in_place ? buffers[k].recv.get() + in_place_input_offset(op, layout, m.rank) : buffers[k].send.get();
    PERFZERO_CUDA_CALL(cudaMemcpyAsync(target, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice, m.stream));
    PERFZERO_CUDA_CALL(cudaStreamSynchronize(m.stream));  // `in` goes out of scope
  }
}

void issue(const Communicators& comms, Operation op, const Layout& layout, bool in_place,
           std::vector<MemberBuffers>& buffers) {
  PERFZERO_NCCL_CALL(ncclGroupStart());
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    const Member& m = comms.members()[k];
    float* one = buffers[k].recv.get();
    const float* send = in_place ? one + in_place_input_offset(op, layout, m.rank) : buffers[k].send.get();
    float* recv = in_place ? one + in_place_result_offset(op, layout, m.rank) : one;
    launch(op, layout, m, comms.nranks(), send, recv);
  }
  comms.end_group();
}

// Wrong elements on every rank, and this process's first one.
CheckResult check(const Communicators& comms, Operation op, const Layout& layout, bool in_place,
                  std::vector<MemberBuffers>& buffers) {
  prepare(comms, op, layout, in_place, buffers);
  issue(comms, op, layout, in_place, buffers);
  comms.synchronize();
  CheckResult all;
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    const Member& m = comms.members()[k];
    std::vector<float> result(result_count(op, layout));
    const float* from = buffers[k].recv.get() + (in_place ? in_place_result_offset(op, layout, m.rank) : 0);
    PERFZERO_CUDA_CALL(cudaSetDevice(m.device));
    PERFZERO_CUDA_CALL(
        cudaMemcpyAsync(result.data(), from, result.size() * sizeof(float), cudaMemcpyDeviceToHost, m.stream));
    PERFZERO_CUDA_CALL(cudaStreamSynchronize(m.stream));
    const CheckResult mine = check_result(op, layout, m.rank, comms.nranks(), result);
    if (all.first.empty()) all.first = mine.first;
    all.wrong += mine.wrong;
  }
  all.wrong = comms.sum(all.wrong);
  return all;
}

// nccl-tests' timing: warm-up operations, then `iters` back to back between two host clock reads
// around stream synchronizations, the mean per operation, averaged over the ranks.
double seconds_per_operation(const Communicators& comms, Operation op, const Layout& layout, bool in_place,
                             std::vector<MemberBuffers>& buffers, int warmups, int iters) {
  for (int i = 0; i < warmups; ++i) issue(comms, op, layout, in_place, buffers);
  comms.synchronize();
  comms.sum(0);  // every rank leaves the warm-up before any starts its clock
  comms.synchronize();
  const auto start = Clock::now();
  for (int i = 0; i < iters; ++i) issue(comms, op, layout, in_place, buffers);
  comms.synchronize();
  const double mine = std::chrono::duration<double>(Clock::now() - start).count() / iters;
  return comms.average(mine);
}

using Place = bench::RankPlace;

// One rank per GPU: the local rank's device, or the only one a launcher left visible to this rank.
std::variant<int, std::string> device_of_rank(const Place& place) {
  const int count = cuda::device_count();
  if (count == 1) return 0;
  if (place.local_rank < count) return place.local_rank;
  return fmt::format("rank {} is local rank {} on a host with {} GPUs: launch at most {} tasks per node", place.rank,
                     place.local_rank, count, count);
}

// The communicators; nullopt when the method ended skipped or failed (recorded on ctx). Rank 0
// publishes why it cannot take part, so the other ranks end at once rather than at join_timeout.
std::optional<Communicators> form(Context& ctx, const Place& place, int gpus, std::chrono::milliseconds join) {
  const fs::path dir = bench::trial_dir();
  const bool root = place.rank == 0;
  // Rank 0 publishes the same outcome it ends with, so every rank ends alike.
  auto stop = [&](const std::string& why, bool skipped) -> std::optional<Communicators> {
    if (root && place.world > 1) {
      if (skipped) {
        publish_skip(dir, why);
      } else {
        publish_failure(dir, why);
      }
    }
    if (skipped) {
      ctx.skip(why);
    } else {
      ctx.fail(why);
    }
    return std::nullopt;
  };
  if (const std::string no_gpu = cuda::no_device_reason(); !no_gpu.empty()) return stop(no_gpu, true);
  if (place.world == 1) {
    const int count = cuda::device_count();
    if (gpus > count) return stop(fmt::format("asks for {} GPUs, {} present", gpus, count), true);
    std::vector<int> devices(static_cast<std::size_t>(gpus > 0 ? gpus : count));
    for (std::size_t i = 0; i < devices.size(); ++i) devices[i] = static_cast<int>(i);
    return Communicators::all_devices(devices);
  }
  if (gpus > 1) {
    return stop(fmt::format("gpus={}: across ranks each rank drives one GPU (launch one task per GPU)", gpus), false);
  }
  const auto device = device_of_rank(place);
  if (const auto* why = std::get_if<std::string>(&device)) return stop(*why, false);
  ncclUniqueId id{};
  if (root) {
    PERFZERO_NCCL_CALL(ncclGetUniqueId(&id));
    publish_unique_id(dir, id);
  } else {
    const auto got = wait_for_unique_id(dir, join);
    if (const auto* skipped = std::get_if<Skipped>(&got)) {
      ctx.skip("rank 0 skipped: " + skipped->reason);
      return std::nullopt;
    }
    if (const auto* failed = std::get_if<Failed>(&got)) {
      ctx.fail("rank 0 failed: " + failed->reason);
      return std::nullopt;
    }
    if (const auto* late = std::get_if<TimedOut>(&got)) {
      ctx.fail(late->message);
      return std::nullopt;
    }
    id = std::get<ncclUniqueId>(got);
  }
  return Communicators::one_rank(place.rank, place.world, std::get<int>(device), id, join);
}

void record_account(Context& ctx, const fs::path& dir, const std::string& not_read, int comms_ranks) {
  ctx.set_extra("nccl_version", version_text());
  if (!not_read.empty()) {
    ctx.set_extra("nccl_transports", not_read);
    return;
  }
  const DebugLog log = read_nccl_account(dir);
  const nlohmann::json account = to_json(log);
  std::ofstream out(dir / kTransportsFile);
  out << account.dump(2) << '\n';
  out.close();
  if (!out) ctx.set_extra("nccl_transports_file", fmt::format("not written: {}", std::strerror(errno)));
  if (!log.version.empty()) ctx.set_extra("nccl_build", log.version);
  if (!log.network.empty()) ctx.set_extra("nccl_network", log.network);
  std::string summary;
  for (const auto& c : log.connections) {
    summary += fmt::format("{}{}->{} {} ({}, {} channel{})", summary.empty() ? "" : "; ", c.from_rank, c.to_rank,
                           c.kind, c.via, c.channels, c.channels == 1 ? "" : "s");
  }
  ctx.set_extra("nccl_transports", !summary.empty()   ? summary
                                   : comms_ranks == 1 ? std::string("none: one rank has no peer")
                                                      : std::string("no connection lines in NCCL's log"));
  std::string kinds;
  for (const auto& k : account["kinds"]) {
    if (!kinds.empty()) kinds += ',';
    kinds += k.get<std::string>();
  }
  ctx.set_extra("nccl_transport_kinds", kinds);
  if (fs::exists(dir / kTopologyFile)) ctx.set_extra("nccl_topology_file", std::string(kTopologyFile));
}

void run_operation(Context& ctx, Operation op) {
  const std::int64_t bytes = ctx.int_param("bytes");
  const int iters = static_cast<int>(ctx.int_param("iters"));
  const int warmups = static_cast<int>(ctx.int_param("warmup_iters"));
  const int gpus = static_cast<int>(ctx.int_param("gpus"));
  const bool verify = ctx.bool_param("check");
  const std::int64_t join_s = ctx.int_param("join_timeout");
  if (bytes < 4 || bytes > (std::int64_t{1} << 36)) return ctx.fail("bytes must be from 4 to 64 GiB");
  if (iters < 1 || warmups < 0) return ctx.fail("iters must be at least 1 and warmup_iters at least 0");
  if (gpus < 0) return ctx.fail("gpus must be 0 (every GPU) or more");
  if (join_s < 1) return ctx.fail("join_timeout must be at least 1 s");
  const Place place = bench::rank_place();
  const fs::path dir = bench::trial_dir();
  // Set before the first NCCL call, which reads the variables (and only where NCCL will run).
  const std::string not_read = cuda::no_device_reason().empty() ? ask_nccl_to_log(dir) : "";
  std::optional<Communicators> comms = form(ctx, place, gpus, std::chrono::seconds(join_s));
  if (!comms) return;
  cuda::record_environment(ctx, cuda::describe_device(comms->members().front().device));
  const Layout layout = layout_of(op, static_cast<std::uint64_t>(bytes), comms->nranks());
  std::vector<MemberBuffers> buffers = allocate(*comms, layout);

  for (const bool in_place : {false, true}) {
    if (in_place && !layout.in_place) continue;
    if (verify) {
      const CheckResult c = check(*comms, op, layout, in_place, buffers);
      if (c.wrong > 0) {
        return ctx.fail(fmt::format(
            "{} {}: {} wrong element{} across {} rank{}; {}", name_of(op), in_place ? "in place" : "out of place",
            c.wrong, c.wrong == 1 ? "" : "s", comms->nranks(), comms->nranks() == 1 ? "" : "s",
            c.first.empty() ? "this rank's are right, other ranks' logs name theirs" : c.first));
      }
    }
    prepare(*comms, op, layout, in_place, buffers);
    const double seconds = seconds_per_operation(*comms, op, layout, in_place, buffers, warmups, iters);
    const double algbw = static_cast<double>(layout.size_bytes) / seconds / 1e9;
    const std::string suffix = in_place ? "_in_place" : "";
    ctx.report("algbw" + suffix, algbw, "GB/s", Direction::higher_is_better);
    ctx.report("busbw" + suffix, algbw * layout.bus_factor, "GB/s", Direction::higher_is_better);
    ctx.report("time_us" + suffix, seconds * 1e6, "us", Direction::lower_is_better);
  }
  ctx.set_extra("ranks", std::int64_t{comms->nranks()});
  ctx.set_extra("mode", comms->one_process()
                            ? fmt::format("one process, {} GPU{}", comms->nranks(), comms->nranks() == 1 ? "" : "s")
                            : std::string("one rank per GPU"));
  ctx.set_extra("bytes", static_cast<std::int64_t>(layout.size_bytes));
  ctx.set_extra("count", static_cast<std::int64_t>(layout.send_count));
  ctx.set_extra("bus_factor", layout.bus_factor);
  ctx.set_extra("dtype", std::string("float32"));
  ctx.set_extra("in_place", layout.in_place ? std::string("measured") : std::string("not defined by NCCL"));
  ctx.set_extra("checked", verify ? std::string("every element of every rank, before timing") : std::string("no"));
  if (place.rank == 0) record_account(ctx, dir, not_read, comms->nranks());
}

std::vector<ParamSpec> params() {
  return {{"bytes", ParamType::integer, std::int64_t{32} << 20, "nccl-tests' size: the whole message (float32)"},
          {"iters", ParamType::integer, std::int64_t{20}, "timed operations, back to back (nccl-tests' -n)"},
          {"warmup_iters", ParamType::integer, std::int64_t{5}, "untimed operations first (nccl-tests' -w)"},
          {"gpus", ParamType::integer, std::int64_t{0},
           "GPUs this process drives (0: every visible one; across ranks: one per rank)"},
          {"check", ParamType::boolean, true, "check every element once before timing (nccl-tests' -c)"},
          {"join_timeout", ParamType::integer, std::int64_t{120},
           "seconds the ranks of a multi-host method wait for each other to form the communicator"}};
}

MethodInfo method(Operation op, const char* description, MethodFunction fn) {
  MethodInfo info{"nccl", "Collectives", "benchmark_" + name_of(op), description, params(), fn};
  info.needs = {"gpu"};
  return info;
}

void all_reduce(Context& c) { run_operation(c, Operation::all_reduce); }
void all_gather(Context& c) { run_operation(c, Operation::all_gather); }
void reduce_scatter(Context& c) { run_operation(c, Operation::reduce_scatter); }
void alltoall(Context& c) { run_operation(c, Operation::alltoall); }
void broadcast(Context& c) { run_operation(c, Operation::broadcast); }
void sendrecv(Context& c) { run_operation(c, Operation::sendrecv); }

const Registration kMethods[] = {
    Registration{
        method(Operation::all_reduce, "ncclAllReduce (sum, float32): algbw, busbw (2(n-1)/n), checked", all_reduce)},
    Registration{method(Operation::all_gather, "ncclAllGather (float32): algbw, busbw ((n-1)/n), checked", all_gather)},
    Registration{method(Operation::reduce_scatter, "ncclReduceScatter (sum, float32): algbw, busbw ((n-1)/n), checked",
                        reduce_scatter)},
    Registration{
        method(Operation::alltoall, "ncclAlltoAll (float32): algbw, busbw ((n-1)/n), out of place, checked", alltoall)},
    Registration{
        method(Operation::broadcast, "ncclBroadcast from rank 0 (float32): algbw, busbw (1), checked", broadcast)},
    Registration{method(Operation::sendrecv,
                        "ncclSend to the next rank, ncclRecv from the previous (a ring): algbw, busbw (1), checked",
                        sendrecv)},
};

}  // namespace

}  // namespace perfzero::nccl
