#include "fleet_report/svg_axis.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace perfzero::fleet_report::svg {

Axis nice_axis(double low, double high, int target) {
  if (!(high > low)) {  // one value (or none): a small range around it
    const double pad = low != 0 ? std::fabs(low) * 0.1 : 1.0;
    low -= pad;
    high += pad;
  }
  const double rough = (high - low) / std::max(1, target);
  const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
  double step = magnitude;
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * magnitude;
    if (step >= rough) break;
  }
  Axis axis;
  axis.low = std::floor(low / step) * step;
  axis.high = std::ceil(high / step) * step;
  // At most 1,000 ticks, and none that is not finite: values near the double's limit make the span
  // or the step overflow, and a loop waiting for a tick beyond an infinite end would never stop.
  for (int i = 0; i < 1000; ++i) {
    const double tick = axis.low + i * step;
    if (!std::isfinite(tick) || tick > axis.high + step * 1e-9) break;
    axis.ticks.push_back(std::fabs(tick) < step * 1e-9 ? 0.0 : tick);  // no "-0"
  }
  return axis;
}

TimeUnit time_unit(double max_seconds) {
  if (max_seconds >= 2 * 3600) return {3600, "h"};
  if (max_seconds >= 120) return {60, "min"};
  return {1, "s"};
}

double text_width(std::string_view text, double font_px) {
  double em = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte: counted with its lead
    if (c == '.' || c == ',' || c == ':' || c == ';' || c == '|' || c == 'i' || c == 'l' || c == 'j' || c == '\'') {
      em += 0.32;
    } else if (c == ' ' || c == '-' || c == '(' || c == ')' || c == '[' || c == ']' || c == 'f' || c == 't' ||
               c == 'r') {
      em += 0.4;
    } else if (std::isupper(c) != 0 || c == 'm' || c == 'w' || c == '_' || c >= 0x80) {
      em += 0.78;
    } else {
      em += 0.6;
    }
  }
  return em * font_px;
}

}  // namespace perfzero::fleet_report::svg
