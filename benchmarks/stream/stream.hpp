#pragma once
// STREAM (McCalpin): copy, scale, add and triad bandwidth over three arrays, on several threads.
#include <cstdint>
#include <string>

#include "perfzero/context.hpp"
#include "perfzero/measure.hpp"

namespace perfzero::stream {

struct Settings {
  std::int64_t n = std::int64_t{1} << 25;  // elements per array: 256 MiB each
  int repetitions = 10;                    // timed repetitions per kernel, for run_stream(settings)
  int threads = 1;
};

struct Bandwidth {
  double copy = 0;  // GB/s (1e9 bytes), counting bytes as STREAM does: no write-allocate
  double scale = 0;
  double add = 0;
  double triad = 0;
  std::string error;  // set when the arrays do not hold the values STREAM expects
};

// Each kernel is timed by perfzero::measure as its own series ("copy", "scale", "add", "triad", in
// that order), every repetition a pass of all threads over the arrays; the bandwidth is STREAM's best
// rate (the fastest repetition). `options.name` is not used.
Bandwidth run_stream(Context& ctx, const Settings& settings, const MeasureOptions& options);
// The same with settings.repetitions timed repetitions after one warm-up, recorded nowhere (tests).
Bandwidth run_stream(const Settings& settings);

}  // namespace perfzero::stream
