#pragma once
// Latencies of many operations in bounded memory (the storage family's I/Os, the network family's
// round trips): 100 ns buckets up to 10 ms, 100 us buckets up to 60 s, and one bucket beyond.
// Percentiles are exact to a bucket's width. Header-only: families in several workers use it, and the
// unit tests link every family at once.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace perfzero::bench {

class LatencyHistogram {
 public:
  LatencyHistogram() : fine_(kFineEnd / kFineWidth, 0), coarse_((kCoarseEnd - kFineEnd) / kCoarseWidth, 0) {}

  void add(std::uint64_t ns) {
    if (ns < kFineEnd) {
      ++fine_[ns / kFineWidth];
    } else if (ns < kCoarseEnd) {
      ++coarse_[(ns - kFineEnd) / kCoarseWidth];
    } else {
      ++beyond_;
    }
    ++count_;
    sum_ns_ += ns;
    max_ns_ = std::max(max_ns_, ns);
  }

  void clear() {
    std::fill(fine_.begin(), fine_.end(), 0);
    std::fill(coarse_.begin(), coarse_.end(), 0);
    beyond_ = count_ = sum_ns_ = max_ns_ = 0;
  }

  std::uint64_t count() const { return count_; }
  double mean_ns() const { return count_ > 0 ? static_cast<double>(sum_ns_) / static_cast<double>(count_) : 0.0; }
  std::uint64_t max_ns() const { return max_ns_; }

  // The smallest latency that at least `fraction` of the operations did not exceed (a bucket's upper
  // edge, or the largest seen if smaller); 0 with none.
  double percentile_ns(double fraction) const {
    if (count_ == 0) return 0;
    const auto rank = static_cast<std::uint64_t>(std::ceil(fraction * static_cast<double>(count_)));
    const std::uint64_t wanted = std::max<std::uint64_t>(1, rank);
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < fine_.size(); ++i) {
      seen += fine_[i];
      if (seen >= wanted) return static_cast<double>(std::min((i + 1) * kFineWidth, max_ns_));
    }
    for (std::size_t i = 0; i < coarse_.size(); ++i) {
      seen += coarse_[i];
      if (seen >= wanted) return static_cast<double>(std::min(kFineEnd + (i + 1) * kCoarseWidth, max_ns_));
    }
    return static_cast<double>(max_ns_);
  }

 private:
  static constexpr std::uint64_t kFineWidth = 100;             // ns
  static constexpr std::uint64_t kFineEnd = 10'000'000;        // 10 ms
  static constexpr std::uint64_t kCoarseWidth = 100'000;       // 100 us
  static constexpr std::uint64_t kCoarseEnd = 60'000'000'000;  // 60 s
  std::vector<std::uint64_t> fine_;
  std::vector<std::uint64_t> coarse_;
  std::uint64_t beyond_ = 0;
  std::uint64_t count_ = 0;
  std::uint64_t sum_ns_ = 0;
  std::uint64_t max_ns_ = 0;
};

}  // namespace perfzero::bench
