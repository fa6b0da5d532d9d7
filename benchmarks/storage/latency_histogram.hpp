#pragma once
// Completion latencies of many I/Os in bounded memory: 100 ns buckets up to 10 ms, 100 us buckets up
// to 60 s, and one bucket beyond. Percentiles are exact to a bucket's width (fio's are to ~1.5 %).
#include <cstdint>
#include <vector>

namespace perfzero::storage {

class LatencyHistogram {
 public:
  LatencyHistogram();
  void add(std::uint64_t nanoseconds);
  void clear();
  std::uint64_t count() const { return count_; }
  double mean_ns() const { return count_ > 0 ? static_cast<double>(sum_ns_) / static_cast<double>(count_) : 0.0; }
  std::uint64_t max_ns() const { return max_ns_; }
  // The smallest latency that at least `fraction` of the I/Os did not exceed (a bucket's upper edge);
  // 0 with no I/O.
  double percentile_ns(double fraction) const;

 private:
  std::vector<std::uint64_t> fine_;    // [0, 10 ms) by 100 ns
  std::vector<std::uint64_t> coarse_;  // [10 ms, 60 s) by 100 us
  std::uint64_t beyond_ = 0;
  std::uint64_t count_ = 0;
  std::uint64_t sum_ns_ = 0;
  std::uint64_t max_ns_ = 0;
};

}  // namespace perfzero::storage
