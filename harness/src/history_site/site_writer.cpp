#include "history_site/site_writer.hpp"

#include <cstdint>
#include <filesystem>
#include <iterator>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "compare/compare_runs.hpp"
#include "fleet_report/report_writers.hpp"
#include "history_site/site_page.hpp"

namespace perfzero::history_site {

namespace {

std::string configuration_key(const std::string& label, const std::string& system, const std::string& image) {
  return label + '\x1f' + system + '\x1f' + image;
}

// A page's file name: 64-bit FNV-1a of what it shows, in hex, the same in every build of the site.
std::string page_name(const std::string& identity) {
  std::uint64_t h = 14695981039346656037ULL;
  for (const unsigned char c : identity) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return fmt::format("{:016x}", h);
}

}  // namespace

SiteWriter::SiteWriter(SiteOptions options, std::vector<SeriesWithChanges> series)
    : options_(std::move(options)), series_(std::move(series)) {
  std::set<std::string> names;
  const auto unique_name = [&](const std::string& identity) {
    std::string name = page_name(identity);
    for (int n = 2; !names.insert(name).second; ++n) name = page_name(identity) + "-" + std::to_string(n);
    return name;
  };
  // Each configuration's runs (those with a point in any of its series), oldest first; its last
  // `last` are drawn, each with a page, and the one before them is read to compare the first with.
  std::map<std::string, std::set<std::pair<double, std::string>>> by_configuration;
  for (const auto& s : series_) {
    const auto& id = s.series;
    const std::string configuration = configuration_key(id.label, id.system_name, id.image);
    series_pages_.push_back(unique_name(configuration + '\x1f' + id.case_name + '\x1f' + id.metric));
    auto& runs = by_configuration[configuration];
    for (const auto& p : id.points) runs.emplace(p.execution_timestamp, p.execution_id);
  }
  for (const auto& [key, runs] : by_configuration) {
    const std::size_t skipped = runs.size() > options_.last ? runs.size() - options_.last : 0;
    auto it = runs.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(skipped));
    if (it != runs.begin()) wanted_.insert(std::prev(it)->second);
    for (; it != runs.end(); ++it) {
      wanted_.insert(it->second);
      run_pages_.emplace(it->second, unique_name("run\x1f" + it->second));
    }
  }
  std::error_code ec;
  for (const char* dir : {"", "series", "runs", "cost"}) {
    std::filesystem::create_directories(std::filesystem::path(options_.out) / dir, ec);
    if (ec) {
      throw OutputError(fmt::format("history site: cannot make {}: {}",
                                    (std::filesystem::path(options_.out) / dir).string(), ec.message()));
    }
  }
}

void SiteWriter::write(const std::string& relative, const std::string& html) {
  const auto file = std::filesystem::path(options_.out) / relative;
  try {
    files::write_atomically(file, html);
  } catch (const std::system_error& e) {
    throw OutputError(fmt::format("history site: cannot write {}: {}", file.string(), e.code().message()));
  }
  ++files_;
}

bool SiteWriter::wants(const history::RunRow& row) const {
  return wanted_.count(row.execution_id) > 0 ||
         (options_.cost_since && row.execution_timestamp >= *options_.cost_since);
}

void SiteWriter::add_run(const history::RunRow& row, results::Run&& run, const std::string& problem) {
  const std::string key = configuration_key(row.execution_label, row.system_name, row.image);
  const bool wanted = wanted_.count(row.execution_id) > 0;
  if (!problem.empty()) {
    problems_.push_back(problem);
    if (wanted) previous_[key] = {row.execution_id, std::nullopt};
    return;
  }
  if (run_pages_.count(row.execution_id) > 0) {
    auto& drawn = drawn_[row.execution_id];
    for (const auto& c : compare::collect_values(run)) {
      for (const auto& s : c.series) {
        auto& [kept, disturbed] = drawn.trials[{history::stored_text(c.case_name), history::stored_text(s.metric)}];
        for (std::size_t i = 0; i < s.values.size(); ++i) (s.disturbed[i] ? disturbed : kept).push_back(s.values[i]);
      }
    }
    const auto previous = previous_.find(key);
    write_run_page(row, run, previous != previous_.end() ? &previous->second : nullptr);
  }
  if (options_.cost_since && row.execution_timestamp >= *options_.cost_since) {
    const std::string date = date_of(row.execution_timestamp);
    if (date != cost_date_) {
      finish_cost_date();
      cost_date_ = date;
      fleet_report::BuildOptions build;
      build.catalog = options_.catalog;
      build.today = options_.today;
      cost_builder_ = std::make_unique<fleet_report::ReportBuilder>(build);
    }
    cost_builder_->add_run(row.execution_id, run);
    ++cost_runs_;
  }
  // Only the configuration's own runs (those with points) are what the next one is compared with,
  // whatever else the cost view read.
  if (wanted) previous_[key] = {row.execution_id, std::move(run)};
}

void SiteWriter::finish_cost_date() {
  if (!cost_builder_) return;
  std::vector<std::string> problems;
  if (options_.catalog == nullptr) problems.emplace_back("no price catalog: every shape is unpriced");
  auto report = cost_builder_->finish(std::move(problems));
  report.catalog_file = options_.catalog_file;
  report.inputs = {options_.source + ", runs of " + cost_date_};
  std::ostringstream html;
  fleet_report::write_html(report, html);
  write("cost/" + cost_date_ + ".html", html.str());
  cost_pages_.emplace_back(cost_date_, cost_runs_);
  cost_builder_.reset();
  cost_runs_ = 0;
}

std::size_t SiteWriter::finish() {
  finish_cost_date();
  for (std::size_t k = 0; k < series_.size(); ++k) write_series_page(k);
  write_index();
  return files_;
}

}  // namespace perfzero::history_site
