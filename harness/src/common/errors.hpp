#pragma once
// Error classes tied to fixed exit codes, as CLI11 ties each error class to one (docs/cli.md).
#include <stdexcept>
#include <string>

namespace perfzero {

// Every exit status perfzero produces (docs/cli.md has the table).
enum class ExitCode : int {
  all_succeeded = 0,        // every method succeeded or was skipped; list, validate, --help
  some_not_succeeded = 1,   // any failed, crashed, timed_out or invalid method; compare, ab: the gate failed
  usage_or_config = 2,      // bad flag, bad value, bad suite, unknown command: nothing ran
  internal_error = 3,       // a harness bug (perfzero-launch missing, an unexpected exception)
  output_unwritable = 4,    // the output directory refused a write (full, read-only, missing, name too long)
  undecided = 5,            // compare, ab: a gated row could not be decided (too noisy, unreliable, unknown)
  not_sent = 6,             // export: something was not sent (server down or refusing); export again later
  stopped_by_signal = 128,  // base: a run stopped by signal N exits 128 + N, as shells report it
};

constexpr int to_int(ExitCode code) { return static_cast<int>(code); }
constexpr int exit_code_for_signal(int signal) { return to_int(ExitCode::stopped_by_signal) + signal; }

// A bad flag or flag value; the message is one line naming the flag and what is accepted.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A bad suite file or method list; the message names file:line:column, the key and what was expected.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The outside world refused a write (disk full, permission, read-only, name too long): not a harness
// bug. The run stops cleanly with status "aborted: <message>"; the message names the file and errno.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace perfzero
