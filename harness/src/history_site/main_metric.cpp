#include "history_site/main_metric.hpp"

#include <functional>

#include "results/counter_metrics.hpp"

namespace perfzero::history_site {

namespace {

bool is_rate(const history::Series& s) { return s.unit.size() > 2 && s.unit.ends_with("/s"); }

}  // namespace

MainMetric main_metric(const std::vector<const history::Series*>& series) {
  const auto first = [&](const std::function<bool(const history::Series&)>& keep) -> const history::Series* {
    for (const auto* s : series) {
      if (keep(*s)) return s;
    }
    return nullptr;
  };
  const auto own = [](const history::Series& s) {
    return !results::is_counter_metric(s.metric) && s.metric != "wall_time";
  };
  if (const auto* s = first([&](const history::Series& x) { return own(x) && is_rate(x); })) {
    return {s->metric, "its first rate, as perfzero report picks"};
  }
  if (const auto* s =
          first([&](const history::Series& x) { return own(x) && x.direction != Direction::unspecified; })) {
    return {s->metric, "its first metric with a direction (it records no rate)"};
  }
  if (const auto* s = first([](const history::Series& x) { return x.metric == "wall_time"; })) {
    return {s->metric, "the wall time (it records no rate and no metric with a direction)"};
  }
  if (const auto* s = first([](const history::Series& x) { return !results::is_counter_metric(x.metric); })) {
    return {s->metric, "its first metric (it records no rate, no direction and no wall time)"};
  }
  if (!series.empty()) return {series.front()->metric, "its first counter (it records nothing else)"};
  return {};
}

}  // namespace perfzero::history_site
