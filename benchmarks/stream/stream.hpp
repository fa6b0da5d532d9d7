#pragma once
// STREAM (McCalpin): copy, scale, add and triad bandwidth over three arrays, on several threads.
#include <cstdint>
#include <string>

namespace perfzero::stream {

struct Settings {
  std::int64_t n = std::int64_t{1} << 25;  // elements per array: 256 MiB each
  int repetitions = 10;                    // the best of repetitions 2..N counts, as in STREAM
  int threads = 1;
};

struct Bandwidth {
  double copy = 0;  // GB/s (1e9 bytes), counting bytes as STREAM does: no write-allocate
  double scale = 0;
  double add = 0;
  double triad = 0;
  std::string error;  // set when the arrays do not hold the values STREAM expects
};

Bandwidth run_stream(const Settings& settings);

}  // namespace perfzero::stream
