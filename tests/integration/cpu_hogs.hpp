#pragma once
// The noisy neighbours of the tests that judge verdicts under load: busy processes the test starts
// and ends itself, always, even when an assertion fails. Tests that use them run serially
// (tests/CMakeLists.txt: perfzero_load_tests), so that they load no other test.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <random>
#include <thread>
#include <vector>

namespace perfzero::testing {

// One process that keeps one CPU busy until destroyed.
class Spinner {
 public:
  Spinner() {
    pid_ = ::fork();
    if (pid_ == 0) {
      ::execl("/bin/sh", "sh", "-c", "while :; do :; done", static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ~Spinner() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  Spinner(const Spinner&) = delete;
  Spinner& operator=(const Spinner&) = delete;

 private:
  pid_t pid_ = -1;
};

// One spinner per CPU, so that a method has to wait for one.
class Hogs {
 public:
  Hogs() {
    const long cpus = std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN));
    for (long i = 0; i < cpus; ++i) spinners_.emplace_back(std::make_unique<Spinner>());
  }

 private:
  std::vector<std::unique_ptr<Spinner>> spinners_;
};

// Hogs switched on and off at random (50 ms to 400 ms each way) on a thread, until destroyed: a
// load that comes and goes, as on a shared CI runner.
class FlickeringHogs {
 public:
  explicit FlickeringHogs(unsigned seed) {
    thread_ = std::thread([this, seed] {
      std::mt19937 rng(seed);
      std::uniform_int_distribution<int> ms(50, 400);
      bool on = false;
      std::unique_ptr<Hogs> hogs;
      while (!stop_) {
        on = !on;
        hogs = on ? std::make_unique<Hogs>() : nullptr;
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms(rng));
        while (!stop_ && std::chrono::steady_clock::now() < until) {
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
      }
    });
  }
  ~FlickeringHogs() {
    stop_ = true;
    thread_.join();
  }
  FlickeringHogs(const FlickeringHogs&) = delete;
  FlickeringHogs& operator=(const FlickeringHogs&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace perfzero::testing
