#pragma once
// Runs body(thread_index) on `threads` threads (the calling thread is index 0) and joins them.
#include <thread>
#include <vector>

namespace perfzero::bench {

template <typename Body>
void run_on_threads(int threads, Body body) {
  std::vector<std::thread> workers;
  workers.reserve(static_cast<std::size_t>(threads > 1 ? threads - 1 : 0));
  for (int t = 1; t < threads; ++t) workers.emplace_back([&body, t] { body(t); });
  body(0);
  for (auto& w : workers) w.join();
}

}  // namespace perfzero::bench
