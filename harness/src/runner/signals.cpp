#include "runner/signals.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/signalfd.h>

#include <ctime>

namespace perfzero::runner {

namespace {
sigset_t harness_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGCHLD);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}
sigset_t stop_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}
}  // namespace

void block_harness_signals() {
  const sigset_t set = harness_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

void unblock_all_signals_in_child() {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGPIPE}) signal(sig, SIG_DFL);
}

std::optional<int> take_pending_stop_signal() {
  sigset_t pending;
  sigpending(&pending);
  const sigset_t stops = stop_set();
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    if (sigismember(&pending, sig) == 1 && sigismember(&stops, sig) == 1) {
      sigset_t one;
      sigemptyset(&one);
      sigaddset(&one, sig);
      timespec zero{0, 0};
      siginfo_t info{};
      if (sigtimedwait(&one, &info, &zero) == sig) return sig;
    }
  }
  return std::nullopt;
}

int stop_signal_fd() {
  // Reading it would take the signal; callers only poll it, then take the signal with
  // take_pending_stop_signal(), so both ways of waiting see the same queue.
  static const int fd = [] {
    const sigset_t stops = stop_set();
    return ::signalfd(-1, &stops, SFD_CLOEXEC | SFD_NONBLOCK);
  }();
  return fd;
}

}  // namespace perfzero::runner
