#include "commands/history_site_command.hpp"

#include <malloc.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/output_root.hpp"
#include "common/utc_time.hpp"
#include "compare/change_points.hpp"
#include "history/history_changes.hpp"
#include "history_site/site_writer.hpp"
#include "pricing/catalog_file.hpp"
#include "pricing/price_catalog.hpp"

namespace perfzero::commands {

namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::vector<history_site::SeriesWithChanges> with_changes(std::vector<history::Series> series,
                                                          const compare::ChangePointSettings& settings) {
  std::vector<history_site::SeriesWithChanges> out;
  out.reserve(series.size());
  std::vector<double> values;
  for (auto& s : series) {
    auto& with = out.emplace_back();
    values.clear();
    for (const auto& p : s.points) values.push_back(p.value);
    for (const auto& cp : compare::find_change_points(values, settings)) {
      with.changes.push_back({cp.index, cp.before, cp.after, cp.change, cp.ci_low, cp.ci_high, cp.p_value,
                              compare::directed(cp.change, s.direction)});
    }
    with.series = std::move(s);
  }
  return out;
}

}  // namespace

int history_site(const cli::HistoryOptions& o, history::Store& store) {
  // Held while the site is written (common/output_root.hpp): no page goes through a link planted
  // under it, and its folders are made as real ones.
  const files::OutputRoot root(o.site_out, "history site --out");
  for (const char* dir : {"series", "runs", "cost"}) root.make_directory(dir);
  history_site::SiteOptions options;
  options.out = root.dir().string();
  options.source = store.describe();
  options.generated = text::utc_time(now_seconds());
  options.today = options.generated.substr(0, 10);
  options.last = static_cast<std::size_t>(o.site_last);
  options.change_points = history::change_point_settings(o);
  std::optional<pricing::Catalog> catalog;
  if (!o.no_catalog) {
    options.catalog_file = pricing::find_catalog(o.catalog);
    if (!options.catalog_file.empty()) catalog = pricing::load_catalog(options.catalog_file);
  }
  options.catalog = catalog ? &*catalog : nullptr;
  const auto filter = history::series_filter(o);
  const history::Store::ReadSnapshot snapshot(store);
  if (o.cost_days > 0) {
    // The UTC date of the newest run, and the cost_days - 1 calendar days before it.
    const auto newest = store.list({o.label, 1});
    if (!newest.empty() && (!filter.since || newest[0].execution_timestamp >= *filter.since)) {
      const double midnight = std::floor(newest[0].execution_timestamp / 86400.0) * 86400.0;
      options.cost_since = std::max(midnight - 86400.0 * (o.cost_days - 1), filter.since.value_or(-1e300));
    }
  }
  // Each run read whole is a large JSON tree freed right after; as in `perfzero report`, glibc's fast
  // bins would make later page-sized allocations consolidate them (docs/performance.md).
  ::mallopt(M_MXFAST, 0);
  history::SeriesLeftOut left_out;
  auto series = with_changes(store.series(filter, &left_out), options.change_points);
  options.left_out = history::left_out_words(left_out);
  if (!options.left_out.empty()) fmt::print(stderr, "perfzero history site: {}\n", options.left_out);
  history_site::SiteWriter writer(options, std::move(series));
  // Reading every run's document is the long part: say how far it got, where someone is watching.
  const bool watched = ::isatty(STDERR_FILENO) == 1;
  std::size_t runs = 0;
  std::size_t read = 0;
  store.for_each_run(
      o.label, filter.since,
      [&](const history::RunRow& row) {
        ++runs;
        return writer.wants(row);
      },
      [&](const history::RunRow& row, results::Run&& run, const std::string& problem) {
        writer.add_run(row, std::move(run), problem);
        if (watched && ++read % 500 == 0) fmt::print(stderr, "\rperfzero history site: {} runs read", read);
      },
      history::TrialDetail::without_samplers);
  if (watched && read >= 500) fmt::print(stderr, "\n");
  writer.set_runs_in_history(runs);
  const std::size_t files = writer.finish();
  fmt::print("wrote {} files to {}: open {}/index.html\n", files, o.site_out, o.site_out);
  return 0;
}

}  // namespace perfzero::commands
