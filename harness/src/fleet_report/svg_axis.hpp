#pragma once
// What the page's charts share: axes with real ticks at round numbers, and an estimate of how wide
// a text is (an SVG is laid out before any font is known: labels are given the room their longest
// text needs, never clipped or overlapping).
#include <string>
#include <string_view>
#include <vector>

namespace perfzero::fleet_report::svg {

// Ticks at 1, 2 or 5 x 10^k covering [low, high] (about `target` of them); low and high are
// widened to the first and last tick.
struct Axis {
  double low = 0;
  double high = 1;
  std::vector<double> ticks;
};
Axis nice_axis(double low, double high, int target = 5);

// The unit a duration axis reads in: seconds, minutes or hours, chosen by its largest value.
struct TimeUnit {
  double seconds = 1;  // one unit in seconds
  std::string name;    // "s", "min", "h"
};
TimeUnit time_unit(double max_seconds);

// About how many pixels `text` takes in the page's sans-serif at `font_px` (a little generous).
double text_width(std::string_view text, double font_px);

}  // namespace perfzero::fleet_report::svg
