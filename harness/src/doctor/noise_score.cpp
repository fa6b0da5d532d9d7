#include "doctor/noise_score.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>

#include <fmt/format.h>

#include "results/statistics.hpp"

namespace perfzero::doctor {

namespace {

using Clock = std::chrono::steady_clock;

// A fixed amount of dependent floating-point work: what a compute kernel's time is made of.
void compute_kernel() {
  volatile double sink = 0;
  double x = 1.0;
  for (int i = 0; i < 3'000'000; ++i) x = x * 1.0000001 + 1e-9;
  sink = x;
  (void)sink;
}

// 64 MiB copied: what a memory-bound kernel's time is made of.
void memory_kernel(std::vector<char>& a, std::vector<char>& b) {
  std::memcpy(b.data(), a.data(), a.size());
  a[a.size() / 2] = b[b.size() / 3];
}

// 4 MiB written, fsynced and read back in `scratch`: a small file's round trip through the disk.
void file_kernel(const std::filesystem::path& scratch, const std::vector<char>& data) {
  const auto path = scratch / fmt::format(".perfzero-doctor.{}", ::getpid());
  const int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) return;
  const ssize_t wrote = ::write(fd, data.data(), data.size());
  ::fsync(fd);
  std::vector<char> back(data.size());
  const ssize_t read_back = ::pread(fd, back.data(), back.size(), 0);
  ::close(fd);
  ::unlink(path.c_str());
  (void)wrote;
  (void)read_back;
}

KernelNoise time_kernel(const std::string& name, const std::function<void()>& kernel, Clock::time_point until) {
  kernel();  // warm-up
  std::vector<double> seconds;
  while (seconds.size() < 5 || (Clock::now() < until && seconds.size() < 1000)) {
    const auto start = Clock::now();
    kernel();
    seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  const double mean = std::accumulate(seconds.begin(), seconds.end(), 0.0) / static_cast<double>(seconds.size());
  double var = 0;
  for (const double s : seconds) var += (s - mean) * (s - mean);
  var /= static_cast<double>(seconds.size() - 1);
  std::sort(seconds.begin(), seconds.end());
  return {name, static_cast<int>(seconds.size()), seconds[seconds.size() / 2], mean > 0 ? std::sqrt(var) / mean : 0};
}

}  // namespace

std::vector<KernelNoise> measure_noise(std::chrono::milliseconds budget, const std::filesystem::path& scratch) {
  const auto third = budget / 3;
  std::vector<char> a(64 << 20, 1);
  std::vector<char> b(64 << 20, 2);
  const std::vector<char> file_data(4 << 20, 'p');
  std::vector<KernelNoise> out;
  out.push_back(time_kernel("compute", compute_kernel, Clock::now() + third));
  out.push_back(time_kernel(
      "memory", [&] { memory_kernel(a, b); }, Clock::now() + third));
  out.push_back(time_kernel(
      "file", [&] { file_kernel(scratch, file_data); }, Clock::now() + third));
  return out;
}

Check noise_check(const std::vector<KernelNoise>& noise) {
  std::string found;
  double worst_compute_memory = 0;
  for (const auto& k : noise) {
    found += fmt::format("{}{} {:.1f} % ({} rounds)", found.empty() ? "" : ", ", k.kernel, 100 * k.cv, k.rounds);
    if (k.kernel != "file") worst_compute_memory = std::max(worst_compute_memory, k.cv);
  }
  // The file kernel goes through the disk, whose latency varies more on any machine: reported, not judged.
  if (worst_compute_memory > 0.05) {
    return {"noise", Status::warn, found,
            "a fixed kernel varies by more than 5 %: stop what else runs, pin the CPU clock, or use more trials "
            "(trials: auto) and perfzero ab"};
  }
  return {"noise", Status::ok, found, ""};
}

}  // namespace perfzero::doctor
