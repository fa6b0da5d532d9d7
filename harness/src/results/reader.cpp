#include "results/reader.hpp"

#include <algorithm>
#include <optional>

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

// What run.json says of itself: nullopt when there is none. A run.json that is not a JSON object is
// never passed over for a summary.json beside it (which would read it silently as another version).
std::optional<nlohmann::json> read_manifest_doc(const std::filesystem::path& dir) {
  const auto path = dir / kRunManifest;
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return std::nullopt;
  const auto text = files::read_text(path);
  if (!text) throw ReadError(fmt::format("{}: unreadable", path.string()));
  auto doc = nlohmann::json::parse(*text, nullptr, false);
  if (!doc.is_object()) {
    throw ReadError(fmt::format("{}: not a JSON object ({}): the run cannot be read", path.string(),
                                doc.is_discarded() ? "not JSON" : std::string("a JSON ") + doc.type_name()));
  }
  // Both versions a run.json states must be one this build reads: the top-level one too.
  if (const auto v = doc.find("schema_version"); v != doc.end()) {
    if (!v->is_string()) throw ReadError(fmt::format("{}: schema_version is not a string", path.string()));
    check_schema_version(v->get<std::string>(), path);
  }
  return doc;
}

// The trials of a run whose journal is gone, from the reports its trial directories still hold: named
// in a warning, never silently read as a run of no trials.
void recover_from_reports(const std::filesystem::path& dir, LoadedRun& loaded) {
  int found = 0;
  for (auto& c : loaded.run.cases) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir / c.dir, ec)) {
      const auto report = entry.path() / "perfzero_summary.json";
      if (!entry.is_directory(ec) || entry.is_symlink(ec) || !std::filesystem::is_regular_file(report, ec)) continue;
      try {
        LoadedRun one = detail::read_single_report(report);
        if (one.run.cases.empty() || one.run.cases[0].trials.empty()) continue;
        Trial t = std::move(one.run.cases[0].trials[0]);
        t.dir = entry.path().lexically_relative(dir).string();
        t.report = t.dir + "/perfzero_summary.json";
        c.trials.push_back(std::move(t));
        ++found;
      } catch (const ReadError& e) {
        loaded.warnings.push_back(e.what());
      }
    }
    std::sort(c.trials.begin(), c.trials.end(), [](const Trial& a, const Trial& b) { return a.number < b.number; });
  }
  if (found > 0) {
    loaded.warnings.push_back(
        fmt::format("{}: the journal ({}) is missing: {} trial(s) read back from their reports (their repetitions and "
                    "process details as the reports have them)",
                    dir.string(), kJournalFile, found));
  } else {
    loaded.warnings.push_back(fmt::format("{}: no journal: no trial had finished", dir.string()));
  }
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
    recover_from_reports(dir, loaded);
    return loaded;
  }
  JournalContents journal;
  try {
    journal = read_journal(journal_path);
  } catch (const std::runtime_error& e) {
    throw ReadError(e.what());
  }
  if (journal.torn_last_line) {
    loaded.warnings.push_back(
        fmt::format("{}: the last line was torn (the harness stopped while writing it)", journal_path.string()));
  }
  for (auto& w : journal.warnings) loaded.warnings.push_back(std::move(w));
  loaded.foreign_lines = journal.foreign_lines;
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

std::optional<std::string> partial_warning(const LoadedRun& loaded, const std::string& path) {
  if (!loaded.partial()) return std::nullopt;
  return fmt::format(
      "{} never finished (its status is running: still being written, or its harness was killed): "
      "read as partial, with the trials that had finished; --resume completes a killed run",
      path);
}

LoadedRun read_run(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw ReadError(fmt::format("{}: no such file or directory", path.string()));
  if (std::filesystem::is_regular_file(status)) return detail::read_single_report(path);
  if (!std::filesystem::is_directory(status)) {
    throw ReadError(fmt::format("{}: neither a run directory nor a perfzero_summary.json file", path.string()));
  }
  if (const auto manifest = read_manifest_doc(path); manifest && manifest->contains("run")) {
    return read_journaled_run(path);
  }
  if (std::filesystem::exists(path / "summary.json")) return detail::read_legacy_run(path);
  throw ReadError(
      fmt::format("{}: not a perfzero run directory (no run.json with a 'run' block, no summary.json)", path.string()));
}

}  // namespace perfzero::results
