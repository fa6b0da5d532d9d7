// storage.Disk.*: what a directory's disk does with direct I/O (docs/benchmarks.md): sequential
// bandwidth and random IOPS, reads and writes, with completion-latency percentiles, on an unnamed
// file that goes with the method however it ends (storage/test_file.hpp).
#include <unistd.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/latency_report.hpp"
#include "perfzero/benchmark.hpp"
#include "storage/aio_queue.hpp"
#include "storage/test_file.hpp"

namespace perfzero::storage {

namespace {

struct Kind {
  bool write;
  bool random;
  std::int64_t block_size;  // its default
};

std::string working_directory() {
  std::vector<char> buffer(4096);
  return ::getcwd(buffer.data(), buffer.size()) != nullptr ? std::string(buffer.data()) : std::string(".");
}

// The method's sizes and times, as its parameters give them.
struct DiskSettings {
  std::int64_t file_size = 0;
  std::int64_t block_size = 0;
  std::int64_t queue_depth = 0;
  double runtime = 0;
  double ramp = 0;
  std::int64_t min_free_bytes = 0;
};

// Why the settings cannot be measured with (direct I/O's alignment, the limits); nullptr when they can.
const char* disk_settings_problem(const DiskSettings& d, const Placement& place) {
  if (d.block_size < 512 || d.block_size % 512 != 0 || d.block_size > (64 << 20)) {
    return "block_size must be a multiple of 512 bytes from 512 to 64 MiB (direct I/O)";
  }
  if (d.file_size < d.block_size || d.file_size % d.block_size != 0) {
    return "file_size must be a whole number of blocks, at least one";
  }
  if (d.queue_depth < 1 || d.queue_depth > 4096) return "queue_depth must be from 1 to 4096";
  if (!(d.runtime > 0) || d.runtime > 3600 || !(d.ramp >= 0) || d.ramp > 600) {
    return "runtime must be above 0 and at most 3600 s, ramp_time from 0 to 600 s";
  }
  if (!(place.min_free_percent >= 0) || place.min_free_percent > 100 || d.min_free_bytes < 0) {
    return "min_free_percent must be from 0 to 100 and min_free_bytes at least 0";
  }
  return nullptr;
}

// The metrics, then what they were measured on.
void report_disk(Context& ctx, const IoResult& r, const bench::LatencyHistogram& latency, const DiskSettings& d,
                 const Placement& place, const TestFile& file) {
  const double iops = static_cast<double>(r.ios) / r.seconds;
  ctx.report("iops", iops, "IO/s", Direction::higher_is_better);
  ctx.report("bandwidth", static_cast<double>(r.bytes) / r.seconds / 1e6, "MB/s", Direction::higher_is_better);
  bench::report_latency(ctx, latency);
  ctx.report("latency_max_us", static_cast<double>(latency.max_ns()) / 1e3, "us", Direction::lower_is_better);
  ctx.set_extra("directory", place.directory);
  ctx.set_extra("file_system", file.file_system());
  ctx.set_extra("direct_io", file.direct());
  ctx.set_extra("io_engine", std::string("libaio"));
  ctx.set_extra("block_size", d.block_size);
  ctx.set_extra("queue_depth", d.queue_depth);
  ctx.set_extra("file_size", d.file_size);
  ctx.set_extra("ios", static_cast<std::int64_t>(r.ios));
  ctx.set_extra("measured_seconds", r.seconds);
  ctx.set_extra("latency", std::string("completion latency, from submission to reaping, 100 ns buckets"));
}

void disk_method(Context& ctx, const Kind& kind) {
  Placement place;
  place.directory = ctx.string_param("directory");
  // Built-in methods run in their trial's directory: the default measures the disk of the run.
  if (place.directory.empty()) place.directory = working_directory();
  DiskSettings d;
  d.file_size = ctx.int_param("file_size");
  d.block_size = ctx.int_param("block_size");
  d.queue_depth = ctx.int_param("queue_depth");
  d.runtime = ctx.number_param("runtime");
  d.ramp = ctx.number_param("ramp_time");
  place.allow_tmpfs = ctx.bool_param("allow_tmpfs");
  place.min_free_percent = ctx.number_param("min_free_percent");
  d.min_free_bytes = ctx.int_param("min_free_bytes");
  if (const char* problem = disk_settings_problem(d, place)) return ctx.fail(problem);
  place.file_size = static_cast<std::uint64_t>(d.file_size);
  place.min_free_bytes = static_cast<std::uint64_t>(d.min_free_bytes);
  TestFile file;
  if (auto refused = TestFile::open(place, file)) {
    return refused->skip ? ctx.skip(refused->message) : ctx.fail(refused->message);
  }
  IoPattern pattern;
  pattern.write = kind.write;
  pattern.random = kind.random;
  pattern.block_size = static_cast<std::uint64_t>(d.block_size);
  pattern.file_size = place.file_size;
  pattern.queue_depth = static_cast<int>(d.queue_depth);
  pattern.runtime_seconds = d.runtime;
  pattern.ramp_seconds = d.ramp;
  pattern.seed = static_cast<std::uint64_t>(ctx.int_param("seed"));
  bench::LatencyHistogram latency;
  const IoResult r = run_io(file.fd(), pattern, latency);
  if (!r.error.empty()) return ctx.fail(r.error);
  if (r.ios == 0 || !(r.seconds > 0)) return ctx.fail("no I/O completed in the measured window");
  report_disk(ctx, r, latency, d, place, file);
}

std::vector<ParamSpec> disk_params(std::int64_t block_size) {
  return {
      {"directory", ParamType::string, std::string(),
       "directory whose disk is measured (default: the trial's own directory); an unnamed file is made there"},
      {"block_size", ParamType::integer, block_size, "bytes per I/O, a multiple of 512 (direct I/O)"},
      {"queue_depth", ParamType::integer, std::int64_t{32}, "I/Os kept in flight (libaio)"},
      {"file_size", ParamType::integer, std::int64_t{1} << 30, "bytes of the file measured, written once first"},
      {"runtime", ParamType::number, 5.0, "seconds measured"},
      {"ramp_time", ParamType::number, 0.5, "seconds run first and not counted"},
      {"seed", ParamType::integer, std::int64_t{1}, "random offsets' seed"},
      {"allow_tmpfs", ParamType::boolean, false, "measure a directory on tmpfs (memory) too, without direct I/O"},
      {"min_free_percent", ParamType::number, 10.0, "refuse to leave less free than this share of the file system"},
      {"min_free_bytes", ParamType::integer, std::int64_t{2} << 30, "... nor less than this many bytes"},
  };
}

void sequential_read(Context& ctx) { disk_method(ctx, {false, false, 1 << 20}); }
void sequential_write(Context& ctx) { disk_method(ctx, {true, false, 1 << 20}); }
void random_read(Context& ctx) { disk_method(ctx, {false, true, 4096}); }
void random_write(Context& ctx) { disk_method(ctx, {true, true, 4096}); }

MethodInfo disk(const char* name, const char* description, std::int64_t block_size, MethodFunction run) {
  return MethodInfo{"storage", "Disk", name, description, disk_params(block_size), run};
}

const Registration kMethods[] = {
    Registration{disk("benchmark_sequential_read", "direct sequential reads of 1 MiB: bandwidth and latency", 1 << 20,
                      sequential_read)},
    Registration{disk("benchmark_sequential_write", "direct sequential writes of 1 MiB: bandwidth and latency", 1 << 20,
                      sequential_write)},
    Registration{disk("benchmark_random_read", "direct random reads of 4 KiB at queue depth 32: IOPS and latency", 4096,
                      random_read)},
    Registration{disk("benchmark_random_write", "direct random writes of 4 KiB at queue depth 32: IOPS and latency",
                      4096, random_write)},
};

}  // namespace

}  // namespace perfzero::storage
