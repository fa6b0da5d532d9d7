#pragma once
// The harness blocks SIGCHLD, SIGINT, SIGTERM and SIGHUP in every thread and takes them
// synchronously with sigtimedwait(), so a Ctrl-C never interrupts a half-written report.
#include <chrono>
#include <optional>

namespace perfzero::runner {

// Call from main() before any thread starts: threads inherit the mask.
void block_harness_signals();
// The mask a child must start with: nothing blocked (exec keeps the mask otherwise).
void unblock_all_signals_in_child();
// Waits up to `timeout` for one of the blocked signals; returns it, or nullopt on time-out.
std::optional<int> wait_for_signal(std::chrono::milliseconds timeout);
// A pending SIGINT/SIGTERM/SIGHUP, taken off the queue, without waiting.
std::optional<int> take_pending_stop_signal();
bool is_stop_signal(int signal);

}  // namespace perfzero::runner
