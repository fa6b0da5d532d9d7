#pragma once
// The harness blocks SIGCHLD, SIGINT, SIGTERM and SIGHUP in every thread and takes them
// synchronously with sigtimedwait(), so a Ctrl-C never interrupts a half-written report.
#include <optional>

namespace perfzero::runner {

// Call from main() before any thread starts: threads inherit the mask.
void block_harness_signals();
// The mask a child must start with: nothing blocked (exec keeps the mask otherwise).
void unblock_all_signals_in_child();
// A pending SIGINT/SIGTERM/SIGHUP, taken off the queue, without waiting.
std::optional<int> take_pending_stop_signal();
// A descriptor that polls readable while a stop signal is pending (a signalfd, made once), so one
// poll() can wait for a child's reply and a Ctrl-C together; take the signal with the call above.
int stop_signal_fd();

}  // namespace perfzero::runner
