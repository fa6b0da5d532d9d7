// `perfzero ab`: a baseline and a candidate interleaved in one session until each gated metric is
// decided (docs/compare.md, "perfzero ab").
#include <unistd.h>

#include <cstdlib>

#include <fmt/format.h>

#include "ab/ab_session.hpp"
#include "ab/ab_sides.hpp"
#include "commands/commands.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/output_root.hpp"
#include "common/text.hpp"
#include "compare/comparison_output.hpp"
#include "compare/formats.hpp"
#include "compare/gate.hpp"
#include "runner/outcome_classifier.hpp"
#include "session/output_dir.hpp"

namespace perfzero::commands {

namespace {

// The files the session writes beside both runs, and those the user asked for: a refusal is exit 4.
bool write_outputs(const cli::AbOptions& options, const compare::RunComparison& report) {
  const std::filesystem::path dir = options.output_dir;
  bool ok = true;
  for (const auto& [path, text] :
       {std::pair{dir / "ab.json", compare::to_json_text(report)},
        std::pair{dir / "ab.md", compare::to_markdown(report)},
        std::pair{std::filesystem::path(options.json_file), compare::to_json_text(report)},
        std::pair{std::filesystem::path(options.markdown_file), compare::to_markdown(report)},
        std::pair{std::filesystem::path(options.junit_file), compare::to_junit(report, "perfzero ab")}}) {
    if (path.empty()) continue;
    try {
      files::write_atomically(path, text);
    } catch (const std::exception& e) {
      fmt::print(stderr, "perfzero ab: error: cannot write {}: {}\n", path.string(), e.what());
      ok = false;
    }
  }
  return ok;
}

}  // namespace

int ab_command(cli::AbOptions options, const method_catalog::Catalog& catalog) {
  const std::string session_id = session::new_execution_id();
  if (options.output_dir.empty()) options.output_dir = (std::filesystem::path("results") / "ab" / session_id).string();
  // Held for the session (common/output_root.hpp): the sides' run directories are made real under
  // it, and neither they nor ab's own files go through a link planted there.
  const files::OutputRoot root(options.output_dir, "ab --output_dir");
  options.output_dir = root.dir().string();
  for (const char* side : {"baseline", "candidate"}) root.make_directory(side);
  ab::AbSide baseline;
  ab::AbSide candidate;
  ab::plan_sides(options, catalog, session_id, baseline, candidate);
  fmt::print(stderr, "perfzero ab: {} vs {}: up to {} pairs or {}; runs in {}\n", baseline.what, candidate.what,
             options.max_pairs, text::format_duration(static_cast<double>(options.max_time.count()) / 1000.0),
             options.output_dir);
  const ab::AbOutcome outcome = ab::run_ab_session(options, baseline, candidate, session_id);
  const bool printed = compare::print_report(outcome.report, options.format, options.colour);
  const bool written = write_outputs(options, outcome.report) && printed;
  if (outcome.unwritten) {
    fmt::print(stderr, "perfzero ab: error: a run could not be written: {}; results so far in {}\n", *outcome.unwritten,
               options.output_dir);
  }
  if (outcome.stop) {
    fmt::print(stderr, "perfzero ab: interrupted by {}; the table shows what was decided so far\n",
               runner::signal_name(*outcome.stop));
    return exit_code_for_signal(*outcome.stop);
  }
  if (outcome.unwritten || !written) return to_int(ExitCode::output_unwritable);
  return compare::gate(outcome.report).exit_status;
}

}  // namespace perfzero::commands
