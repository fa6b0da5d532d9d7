#pragma once
// A run's status: one named kind, and for an aborted run why. What run.json, the journal and the
// summaries record is its text ("completed", "aborted: <why>"); code that decides by it reads the
// kind, never a prefix of the text.
#include <string>
#include <string_view>

namespace perfzero::results {

enum class RunStatusKind {
  running,                       // still being written, or its harness was killed
  completed,                     // every planned trial ran
  interrupted,                   // stopped by a signal; --resume continues it
  interrupted_after_completion,  // a signal came after the last trial, while the summaries were written
  aborted,                       // the harness could not go on (an output it could not write): `why`
};

struct RunStatus {
  RunStatusKind kind = RunStatusKind::running;
  std::string why;  // aborted only

  static RunStatus aborted(std::string reason) { return {RunStatusKind::aborted, std::move(reason)}; }
  // The recorded text; parse(text()) gives it back.
  std::string text() const;
  // A recorded status; an unknown text (a newer version's) reads as running: never as finished.
  static RunStatus parse(std::string_view text);
  bool is(RunStatusKind k) const { return kind == k; }
};

}  // namespace perfzero::results
