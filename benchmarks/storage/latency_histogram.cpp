#include "storage/latency_histogram.hpp"

#include <algorithm>
#include <cmath>

namespace perfzero::storage {

namespace {
constexpr std::uint64_t kFineWidth = 100;             // ns
constexpr std::uint64_t kFineEnd = 10'000'000;        // 10 ms
constexpr std::uint64_t kCoarseWidth = 100'000;       // 100 us
constexpr std::uint64_t kCoarseEnd = 60'000'000'000;  // 60 s
}  // namespace

LatencyHistogram::LatencyHistogram()
    : fine_(kFineEnd / kFineWidth, 0), coarse_((kCoarseEnd - kFineEnd) / kCoarseWidth, 0) {}

void LatencyHistogram::add(std::uint64_t ns) {
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

void LatencyHistogram::clear() {
  std::fill(fine_.begin(), fine_.end(), 0);
  std::fill(coarse_.begin(), coarse_.end(), 0);
  beyond_ = count_ = sum_ns_ = max_ns_ = 0;
}

double LatencyHistogram::percentile_ns(double fraction) const {
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

}  // namespace perfzero::storage
