// `perfzero report`: finished runs joined with a price catalog (docs/report.md).
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "commands/report_history_noise.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/install_layout.hpp"
#include "common/output_root.hpp"
#include "fleet_report/fleet_exports.hpp"
#include "fleet_report/instance_timeline.hpp"
#include "fleet_report/report_builder.hpp"
#include "fleet_report/report_writers.hpp"
#include "fleet_report/run_discovery.hpp"
#include "pricing/catalog_file.hpp"
#include "pricing/price_catalog.hpp"

namespace perfzero::commands {

namespace {

namespace fs = std::filesystem;

std::string today_utc() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  return fmt::format("{:04}-{:02}-{:02}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

void write_output(const fs::path& file, const std::string& content) {
  try {
    files::write_atomically(file, content);
  } catch (const std::system_error& e) {
    throw OutputError(fmt::format("report: cannot write {}: {}", file.string(), e.code().message()));
  }
}

// The output directory, held for the whole command (common/output_root.hpp): no file goes through
// a link planted under it.
std::unique_ptr<files::OutputRoot> make_out_dir(cli::ReportOptions& options) {
  if (options.out.empty()) return nullptr;
  auto root = std::make_unique<files::OutputRoot>(options.out, "report --out");
  options.out = root->dir().string();
  return root;
}

void write_outputs(const fleet_report::FleetReport& r, const cli::ReportOptions& options) {
  if (options.out.empty()) {
    std::ostringstream md;
    fleet_report::write_markdown(r, md);
    const std::string text = md.str();
    // A closed stdout or a full pipe must not look like a report that was delivered.
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
      throw OutputError("report: cannot write the report to stdout");
    }
    return;
  }
  const std::vector<std::string> all{"md", "csv", "json", "html"};
  for (const auto& format : options.formats.empty() ? all : options.formats) {
    if (fleet_report::is_export_format(format)) continue;  // written as the runs were read
    std::ostringstream text;
    if (format == "md") fleet_report::write_markdown(r, text);
    if (format == "csv") fleet_report::write_csv(r, text);
    if (format == "json")
      text << fleet_report::to_json(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    if (format == "html") fleet_report::write_html(r, text);
    write_output(fs::path(options.out) / ("report." + format), text.str());
  }
  fmt::print(stderr, "perfzero report: wrote {} ({})\n", options.out,
             fmt::join(options.formats.empty() ? all : options.formats, ", "));
}

}  // namespace

int report_command(const cli::ReportOptions& options) {
  fleet_report::BuildOptions build;
  build.today = options.today.empty() ? today_utc() : options.today;
  if (!options.today.empty() && !pricing::days_between(options.today, options.today)) {
    throw UsageError(fmt::format("report: --today {}: expected a date as YYYY-MM-DD", options.today));
  }
  build.baseline = options.baseline;
  build.max_price_age_days = options.max_price_age_days;
  build.ranking.min_change = options.min_change_percent / 100.0;
  build.ranking.use_flagged = options.use_flagged;
  if (options.run_noise_percent) build.ranking.run_noise = *options.run_noise_percent / 100.0;
  build.ranking.metrics = options.metrics;
  const fleet_report::HistoryNoiseTable history_noise = history_noise_from(options);
  if (!options.history_db.empty()) build.ranking.history_noise = &history_noise;
  std::optional<pricing::Catalog> catalog;
  const std::string catalog_file = options.no_catalog ? "" : pricing::find_catalog(options.catalog);
  if (!catalog_file.empty()) catalog = pricing::load_catalog(catalog_file);
  build.catalog = catalog ? &*catalog : nullptr;

  // Each file's JSON tree is freed right after it is read; glibc's fast bins then make every
  // later allocation of a page-sized buffer consolidate them, a tenth of a large report's CPU time
  // (docs/performance.md). Without fast bins the frees coalesce as they happen.
  ::mallopt(M_MXFAST, 0);
  cli::ReportOptions resolved = options;  // --out as its root resolved it
  const auto root = make_out_dir(resolved);
  fleet_report::ExportFiles exports(resolved.out, options.formats);
  fleet_report::ReportBuilder builder(build);
  std::vector<std::string> timeline_problems;
  auto found = fleet_report::for_each_run(options.inputs, [&](const std::string& path, results::Run&& run) {
    // A fleet's run directory carries the instances it ran on (instances/*.json, the runner's).
    std::error_code ec;
    builder.add_run(path, run,
                    fs::is_directory(path, ec) ? fleet_report::read_instance_lives(path, timeline_problems)
                                               : std::vector<fleet_report::InstanceLife>{});
    if (!exports.empty()) exports.add(std::move(run));
  });
  for (auto& p : timeline_problems) found.problems.push_back(std::move(p));
  const bool all_read = found.problems.empty();
  // Said with the warnings, in every format; they do not make the report fail.
  for (auto& n : found.notes) found.problems.push_back(std::move(n));
  if (found.runs == 0) {
    for (const auto& p : found.problems) fmt::print(stderr, "perfzero report: {}\n", p);
    fmt::print(stderr, "perfzero report: error: no run could be read from {}\n", fmt::join(options.inputs, ", "));
    return to_int(ExitCode::some_not_succeeded);
  }
  if (!options.no_catalog && catalog_file.empty()) {
    found.problems.push_back("no price catalog found (--catalog FILE or $PERFZERO_CATALOG): every shape is unpriced");
  }
  fleet_report::FleetReport r = builder.finish(std::move(found.problems));
  r.inputs = options.inputs;
  write_outputs(r, resolved);
  exports.finish();
  for (const auto& w : r.warnings) fmt::print(stderr, "perfzero report: warning: {}\n", w);
  return to_int(all_read ? ExitCode::all_succeeded : ExitCode::some_not_succeeded);
}

}  // namespace perfzero::commands
