#pragma once
// Error classes tied to fixed exit codes, as CLI11 ties each error class to one (docs/cli.md).
#include <stdexcept>
#include <string>

namespace perfzero {

enum class ExitCode : int {
  all_succeeded = 0,       // every method succeeded or was skipped
  some_not_succeeded = 1,  // any failed, crashed, timed_out or invalid method
  usage_or_config = 2,     // bad flag, bad value, bad suite: nothing ran
  internal_error = 3,      // a harness bug or an unusable output directory
};

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

}  // namespace perfzero
