#pragma once
// `perfzero history site`: a static, self-contained site of the results history (docs/history.md):
// index.html (a section per method: its main metric plotted per configuration and label with the
// change points and their commits, its other metrics and counters a click away, a filter box),
// series/ID.html (every trial of its configuration's last runs as a dot, the medians, the change
// points with their commits), runs/ID.html (a run's results and its compare against the previous
// run of its configuration) and cost/DATE.html (`perfzero report` of the runs of that date). Inline
// CSS and SVG, nothing fetched; only the index (its filter) and the cost pages (perfzero report's
// own, sorting tables) carry a small inline script. A page's ID is a hash of what it shows (the
// run's execution id; the series' label, system, image, method and metric), so its address stays
// the same as the history grows.
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "fleet_report/report_builder.hpp"
#include "history/store.hpp"
#include "history_site/site_model.hpp"
#include "history_site/site_svg.hpp"

namespace perfzero::history_site {

class SiteWriter {
 public:
  SiteWriter(SiteOptions options, std::vector<SeriesWithChanges> series);
  // Whether a page needs this run: one of the last `last` runs of its configuration (those drawn and
  // given a page), the run before them (what the first is compared with), or in the cost view. The
  // others are not read.
  bool wants(const history::RunRow& row) const;
  // How many runs the history holds (the index says it).
  void set_runs_in_history(std::size_t runs) { runs_in_history_ = runs; }
  // Each wanted run, oldest first (history::Store::for_each_run).
  void add_run(const history::RunRow& row, results::Run&& run, const std::string& problem);
  // Writes what is left (the series pages, the last cost page and the index); the files written.
  std::size_t finish();

 private:
  struct DrawnRun {
    std::map<std::pair<std::string, std::string>, std::pair<std::vector<double>, std::vector<double>>> trials;
  };
  struct Previous {
    std::string execution_id;
    std::optional<results::Run> run;  // none: its document could not be read
  };
  // What the pages say is in site_page_text.cpp; reading the runs and writing the files, here.
  void write_run_page(const history::RunRow& row, const results::Run& run, const Previous* previous);
  void finish_cost_date();
  void write_series_page(std::size_t k);
  void write_index();
  // A method's section of the index (site_index.cpp): `members` index series_; `number` names its anchor.
  std::string method_section_html(const std::string& method, const std::vector<std::size_t>& members,
                                  std::size_t number) const;
  void write(const std::string& relative, const std::string& html);
  // The name of the run's page once it is written; nullptr before (or never: a damaged document).
  const std::string* written_run_page(const std::string& execution_id) const;
  // A series' points from `first` on, each with its run's trials of the series where the run was drawn.
  std::vector<ChartRun> chart_runs(const history::Series& s, std::size_t first) const;
  std::string change_points_html(const SeriesWithChanges& series) const;
  std::string series_runs_html(const history::Series& s, std::size_t first) const;

  SiteOptions options_;
  std::vector<SeriesWithChanges> series_;
  std::map<std::string, std::string> run_pages_;  // execution id -> its page's name, for the drawn runs
  std::vector<std::string> series_pages_;         // each series' page's name
  std::map<std::string, DrawnRun> drawn_;         // execution id -> its trials by (case, metric)
  std::map<std::string, Previous> previous_;      // configuration -> its last run read of those wanted
  std::string cost_date_;
  std::unique_ptr<fleet_report::ReportBuilder> cost_builder_;
  std::size_t cost_runs_ = 0;
  std::vector<std::pair<std::string, std::size_t>> cost_pages_;  // date, runs
  std::vector<std::string> problems_;
  std::set<std::string> wanted_;        // execution ids: the drawn runs and the run before each configuration's
  std::set<std::string> written_runs_;  // execution ids whose page was written
  std::size_t runs_in_history_ = 0;
  std::size_t files_ = 0;
};

}  // namespace perfzero::history_site
