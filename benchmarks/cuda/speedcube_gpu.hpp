#pragma once
// The speed cube on GPUs: chunks of the n x n array are handed to devices from one counter (one
// host thread and stream per device); each chunk's sums are kept by chunk index and added in chunk
// order, so the result does not depend on which device did which chunk.
#include <cstdint>
#include <string>
#include <vector>

namespace perfzero::cuda::speedcube {

struct Problem {
  std::int64_t n = 20000;
  std::int64_t chunk = 2000;
  std::uint64_t seed = 42;
};

enum class Mode {
  fused,         // generate, +1, select and reduce in one pass, points in registers
  materialized,  // chunks written to device memory (as many as fit at once), then reduced
};

struct Sums {
  double selected = 0;  // every second row and column, before adding 1
  double all = 0;
};

// Empty when the problem is well formed, else what is wrong with it.
std::string check(const Problem& p);

// Chunks held at once in materialized mode on `device`: as many as fit in 80 % of its free memory.
std::int64_t chunks_held(int device, const Problem& p);

// Runs the whole problem on `devices`, one host thread each, and waits for it.
Sums run_on_devices(const Problem& p, Mode mode, const std::vector<int>& devices);

// Enqueues the whole problem on one device's stream (timed with events by the caller); collect()
// after the stream finished.
class SingleDeviceRun {
 public:
  SingleDeviceRun(int device, const Problem& p, Mode mode);
  ~SingleDeviceRun();
  SingleDeviceRun(const SingleDeviceRun&) = delete;
  SingleDeviceRun& operator=(const SingleDeviceRun&) = delete;
  void enqueue(void* stream);  // a cudaStream_t
  Sums collect();

  struct State;  // per device: buffers, chunk sums, the chunks it ran

 private:
  State* state_;
};

// Points the GPU drew at sample positions, against the host path of the same generator: the
// largest absolute difference.
double max_sample_difference(int device, const Problem& p);

}  // namespace perfzero::cuda::speedcube
