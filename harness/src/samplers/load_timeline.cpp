#include "samplers/load_timeline.hpp"

namespace perfzero::samplers {

namespace {

// Enough history to reach back over any short trial; older marks are dropped.
constexpr std::size_t kMaxMarks = 256;

}  // namespace

LoadTimeline& LoadTimeline::shared() {
  static LoadTimeline timeline;
  return timeline;
}

void LoadTimeline::add(const Mark& mark) {
  marks_.push_back(mark);
  while (marks_.size() > kMaxMarks) marks_.pop_front();
}

std::optional<LoadTimeline::Mark> LoadTimeline::reaching_back(Clock::time_point end, std::chrono::duration<double> span,
                                                              std::chrono::duration<double> stale) const {
  for (auto it = marks_.rbegin(); it != marks_.rend(); ++it) {
    const std::chrono::duration<double> age = end - it->time;
    if (age < span) continue;
    if (age > stale) return std::nullopt;
    return *it;
  }
  return std::nullopt;
}

std::optional<LoadTimeline::Mark> LoadTimeline::newest(Clock::time_point now,
                                                       std::chrono::duration<double> stale) const {
  if (marks_.empty() || now - marks_.back().time > stale) return std::nullopt;
  return marks_.back();
}

}  // namespace perfzero::samplers
