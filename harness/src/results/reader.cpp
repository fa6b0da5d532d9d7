#include "results/reader.hpp"

#include <fmt/format.h>

#include "common/files.hpp"
#include "results/journal.hpp"
#include "results/model_json.hpp"
#include "results/run_manifest.hpp"

namespace perfzero::results {

void check_schema_version(const std::string& version, const std::filesystem::path& where) {
  const auto major = schema_major(version);
  if (!major) throw ReadError(fmt::format("{}: schema_version '{}' is not a version number", where.string(), version));
  if (*major != kSchemaMajor) {
    throw ReadError(
        fmt::format("{}: written with report schema {}; this perfzero reads schema {}.x (it writes {}): "
                    "use a perfzero of that major version",
                    where.string(), version, kSchemaMajor, kSchemaVersion));
  }
}

namespace {

bool has_run_block(const std::filesystem::path& dir) {
  const auto text = files::read_text(dir / kRunManifest);
  if (!text) return false;
  const auto doc = nlohmann::json::parse(*text, nullptr, false);
  return doc.is_object() && doc.contains("run");
}

LoadedRun read_journaled_run(const std::filesystem::path& dir) {
  LoadedRun loaded;
  loaded.format = "journal";
  try {
    loaded.run = read_manifest(dir);
  } catch (const std::runtime_error& e) {
    throw ReadError(e.what());
  }
  check_schema_version(loaded.run.info.schema_version, dir / kRunManifest);
  const auto journal_path = dir / kJournalFile;
  if (!std::filesystem::exists(journal_path)) {
    loaded.warnings.push_back(fmt::format("{}: no journal: no trial had finished", dir.string()));
    return loaded;
  }
  JournalContents journal;
  try {
    journal = read_journal(journal_path);
  } catch (const std::runtime_error& e) {
    throw ReadError(e.what());
  }
  if (journal.skipped_lines > 0) {
    loaded.warnings.push_back(
        fmt::format("{}: the last line was torn (the harness stopped while writing it)", journal_path.string()));
  }
  // The plan says which cases exist and in what order; the journal what happened to them. A journaled
  // case missing from the plan (a resumed run with a different plan) is kept, after the plan's cases.
  for (auto& journaled : journal.cases) {
    Case* planned = loaded.run.find_case(journaled.name);
    if (planned == nullptr) {
      loaded.run.cases.push_back(std::move(journaled));
      continue;
    }
    planned->trials = std::move(journaled.trials);
    planned->warmups = std::move(journaled.warmups);
  }
  if (!journal.last_status.empty()) loaded.run.status = journal.last_status;
  return loaded;
}

}  // namespace

LoadedRun read_run(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw ReadError(fmt::format("{}: no such file or directory", path.string()));
  if (std::filesystem::is_regular_file(status)) return detail::read_single_report(path);
  if (!std::filesystem::is_directory(status)) {
    throw ReadError(fmt::format("{}: neither a run directory nor a perfzero_summary.json file", path.string()));
  }
  if (has_run_block(path)) return read_journaled_run(path);
  if (std::filesystem::exists(path / "summary.json")) return detail::read_legacy_run(path);
  throw ReadError(
      fmt::format("{}: not a perfzero run directory (no run.json with a 'run' block, no summary.json)", path.string()));
}

}  // namespace perfzero::results
