#pragma once
// The harness's top-level commands, each in its own file.
#include <cstdio>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/options.hpp"
#include "config/plan_builder.hpp"
#include "config/run_plan.hpp"
#include "method_catalog/catalog.hpp"

namespace perfzero::commands {

// Entry point behind main(): parses the command line, then runs the subcommand. Returns the exit status.
int perfzero_main(int argc, const char* const* argv);

// perfzero --version: the version, how this build was made, and the workers found.
int version_command();
// "0.1.0 (git revision)".
std::string version_line();

void list_methods(std::FILE* out, const method_catalog::Catalog& catalog);
void list_methods_json(std::FILE* out, const method_catalog::Catalog& catalog,
                       const nlohmann::json& python = nlohmann::json());
int validate_suites(const cli::ValidateOptions& options, method_catalog::LazyCatalog& catalog);
int doctor_command(const cli::DoctorOptions& options);
// The commands that read finished runs; each in its own file (report_command.cpp, ...).
int report_command(const cli::ReportOptions& options);
// `perfzero report --estimate`: needs the methods, to plan the suite.
int estimate_command(const cli::ReportOptions& options);
int compare_command(const cli::CompareOptions& options);
// `perfzero ab` needs the methods: the catalog of this installation.
int ab_command(cli::AbOptions options, const method_catalog::Catalog& catalog);
int history_command(const cli::HistoryOptions& options);
// `perfzero export mlflow RUN_DIR`: exit 0 when everything is sent, 6 when something is not.
int export_command(const cli::ExportOptions& options);
void print_plan(std::FILE* out, const std::vector<config::PlannedCase>& plan);
// perfzero list --python_path: the Python classes' methods there (the modules that did not import
// are warnings on stderr), asked before anything is printed, so a bad --python leaves stdout empty.
// Null when no --python_path.
nlohmann::json python_methods_listing(const cli::ListOptions& options);
// ... printed after the built-ins: one name a line (`names_only`), or a section of the text listing.
void print_python_methods(std::FILE* out, const nlohmann::json& listing, bool names_only);

// site_packages: the --git_repos checkouts, for benchmark_info.site_package_info.
int run_benchmarks(const cli::Options& options, const std::vector<config::PlannedCase>& plan,
                   const std::vector<config::Comparison>& comparisons, bool interleave,
                   const nlohmann::json& site_packages = nlohmann::json::object());

}  // namespace perfzero::commands
