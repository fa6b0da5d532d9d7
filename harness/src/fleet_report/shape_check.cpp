#include "fleet_report/shape_check.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "common/text.hpp"

namespace perfzero::fleet_report {

namespace {

std::optional<double> optional_number_at(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return std::nullopt;
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

void add_distinct(std::vector<double>& values, double v) {
  if (std::find(values.begin(), values.end(), v) == values.end()) {
    values.insert(std::upper_bound(values.begin(), values.end(), v), v);
  }
}

double rounded(double v, double step) { return std::round(v / step) * step; }

void add_distinct_text(std::vector<std::string>& values, const nlohmann::json& sys, const char* key) {
  if (!sys.is_object()) return;
  const auto it = sys.find(key);
  if (it == sys.end() || !it->is_string() || it->get<std::string>().empty()) return;
  const std::string v = it->get<std::string>();
  if (std::find(values.begin(), values.end(), v) == values.end()) {
    values.insert(std::upper_bound(values.begin(), values.end(), v), v);
  }
}

// The catalog's vendor (intel, amd, arm) of a CPU vendor string the kernel gave; empty when unknown.
// An Arm core's /proc/cpuinfo names its implementer, not a vendor string: only x86 vendors are told.
std::string catalog_vendor_of(const std::string& measured) {
  if (measured == "GenuineIntel") return "intel";
  if (measured == "AuthenticAMD") return "amd";
  return "";
}

// "the run had 2", "the runs had 2", "the runs had 2 and 4"
std::string measured_words(const Configuration& c, const std::vector<double>& values, const char* unit) {
  std::vector<std::string> parts;
  parts.reserve(values.size());
  for (const double v : values) parts.push_back(fmt::format("{:g}{}", v, unit));
  std::string list = parts.back();
  if (parts.size() > 1) {
    parts.pop_back();
    list = text::join(parts, ", ") + " and " + list;
  }
  return fmt::format("the {} had {}", c.runs.size() > 1 ? "runs" : "run", list);
}

// The kernel sees less memory than the shape was given (firmware, the kernel's own reservations,
// a crash kernel): up to 15% and a quarter GiB less passes, a little more (rounding) too.
bool memory_agrees(double catalog_gib, double measured_gib) {
  return measured_gib >= catalog_gib * 0.85 - 0.25 && measured_gib <= catalog_gib * 1.02 + 0.25;
}

}  // namespace

double memory_gib_of(const nlohmann::json& sys) {
  const auto total = optional_number_at(sys, "memory_total_bytes");
  const auto cgroup = sys.is_object() ? sys.find("cgroup") : sys.end();
  const auto limit = cgroup != sys.end() ? optional_number_at(*cgroup, "memory_limit_bytes") : std::nullopt;
  double bytes = total.value_or(0);
  if (limit && *limit > 0 && (bytes <= 0 || *limit < bytes)) bytes = *limit;
  return bytes > 0 ? bytes / 1073741824.0 : 0.0;
}

double vcpus_of_run(const results::RunInfo& info) {
  double vcpus = optional_number_at(info.system, "effective_vcpus").value_or(0);
  if (vcpus <= 0) vcpus = optional_number_at(info.system_info, "logical_cpu_count").value_or(0);
  return vcpus > 0 ? rounded(vcpus, 0.01) : 0.0;
}

void note_measured(Configuration& config, const results::RunInfo& info) {
  if (const double vcpus = vcpus_of_run(info); vcpus > 0) add_distinct(config.measured_vcpus, vcpus);
  if (const double gib = memory_gib_of(info.system); gib > 0)
    add_distinct(config.measured_memory_gib, rounded(gib, 0.1));
  if (const auto gpus = optional_number_at(info.system_info, "accelerator_count"))
    add_distinct(config.measured_gpus, *gpus);
  add_distinct_text(config.measured_arch, info.system, "architecture");
  add_distinct_text(config.measured_cpu_vendor, info.system, "cpu_vendor");
}

namespace {

// The runs' architecture and CPU vendor against the shape's: a run labelled c7g.large (Graviton) that
// ran on x86, or c7i (Intel) on AMD, is priced as what it is not, and says so. Flexible shapes too:
// their price depends on what ran, but not their architecture.
void check_cpu(Configuration& c, const pricing::Shape& shape) {
  if (std::any_of(c.measured_arch.begin(), c.measured_arch.end(), [&](const auto& a) { return a != shape.arch; })) {
    c.shape_mismatches.push_back(fmt::format("catalog says {}, the {} ran on {}; the price is the catalog's",
                                             shape.arch, c.runs.size() > 1 ? "runs" : "run",
                                             text::join(c.measured_arch, " and ")));
    return;  // another architecture has another vendor too: said once
  }
  if (shape.cpu_vendor.empty()) return;
  std::vector<std::string> other;
  for (const auto& v : c.measured_cpu_vendor) {
    const std::string vendor = catalog_vendor_of(v);
    if (!vendor.empty() && vendor != shape.cpu_vendor) other.push_back(v);
  }
  if (!other.empty()) {
    c.shape_mismatches.push_back(fmt::format("catalog says {} CPUs, the {} had {}; the price is the catalog's",
                                             shape.cpu_vendor == "amd"     ? "AMD"
                                             : shape.cpu_vendor == "intel" ? "Intel"
                                                                           : "Arm",
                                             c.runs.size() > 1 ? "runs" : "run", text::join(other, " and ")));
  }
}

}  // namespace

void check_shape(Configuration& c, const pricing::Shape& shape) {
  check_cpu(c, shape);
  if (shape.flexible) return;  // priced from what the run had: no size to disagree with
  if (shape.vcpus && std::any_of(c.measured_vcpus.begin(), c.measured_vcpus.end(),
                                 [&](double v) { return std::fabs(v - *shape.vcpus) > 0.01; })) {
    std::string catalog = fmt::format("{:g} vCPUs", *shape.vcpus);
    std::string run = measured_words(c, c.measured_vcpus, "");
    if (shape.ocpus) {
      catalog += fmt::format(" ({:g} OCPUs)", *shape.ocpus);
      std::vector<std::string> ocpus;
      for (const double v : c.measured_vcpus) ocpus.push_back(fmt::format("{:g}", pricing::ocpus_of(v, shape.arch)));
      run += fmt::format(" ({} OCPU{})", text::join(ocpus, ", "), ocpus.size() == 1 && ocpus[0] == "1" ? "" : "s");
    }
    c.shape_mismatches.push_back(fmt::format(
        "catalog says {}, {}; per-vCPU and per-OCPU figures divide by the catalog's, the price is the catalog's",
        catalog, run));
  }
  if (shape.memory_gib && std::any_of(c.measured_memory_gib.begin(), c.measured_memory_gib.end(),
                                      [&](double v) { return !memory_agrees(*shape.memory_gib, v); })) {
    c.shape_mismatches.push_back(fmt::format("catalog says {:g} GiB of memory, {}; the price is the catalog's",
                                             *shape.memory_gib, measured_words(c, c.measured_memory_gib, " GiB")));
  }
  const double gpus = shape.gpus ? shape.gpus->count : 0;
  if (std::any_of(c.measured_gpus.begin(), c.measured_gpus.end(), [&](double v) { return v != gpus; })) {
    c.shape_mismatches.push_back(fmt::format("catalog says {:g} GPU{}{}, {}; the price is the catalog's", gpus,
                                             gpus == 1 ? "" : "s", shape.gpus ? " (" + shape.gpus->model + ")" : "",
                                             measured_words(c, c.measured_gpus, "")));
  }
}

std::string not_in_catalog(const std::string& shape, const pricing::Catalog& catalog) {
  std::vector<std::string> names;
  names.reserve(catalog.shapes.size());
  for (const auto& s : catalog.shapes) names.push_back(s.name);
  const auto near = text::nearest(shape, names);
  std::string hint;
  if (!near.empty()) {
    std::vector<std::string> head(near.begin(), near.end() - 1);
    hint = "; did you mean " + (head.empty() ? near.back() : text::join(head, ", ") + " or " + near.back()) + "?";
  }
  return fmt::format("'{}' is not in the catalog{}", shape, hint);
}

namespace {

std::string shape_of(const Configuration& c) {
  return fmt::format("{}\t{}\t{}\t{}", c.provider, c.shape, c.label, c.nodes);
}

}  // namespace

void mark_cpu_splits(std::vector<Configuration>& configs) {
  std::map<std::string, std::set<double>> counts;
  for (const auto& c : configs) counts[shape_of(c)].insert(c.run_vcpus);
  for (auto& c : configs) c.split_by_cpus = counts[shape_of(c)].size() > 1;
}

void add_split_warnings(FleetReport& report) {
  std::map<std::string, std::vector<const Configuration*>> split;
  std::vector<std::string> order;
  for (const auto& c : report.configurations) {
    if (!c.split_by_cpus) continue;
    auto& group = split[shape_of(c)];
    if (group.empty()) order.push_back(shape_of(c));
    group.push_back(&c);
  }
  for (const auto& name : order) {
    const auto& group = split[name];
    std::vector<std::string> counts;
    std::vector<std::string> keys;
    for (const Configuration* c : group) {
      counts.push_back(c->run_vcpus > 0 ? fmt::format("{:g}", c->run_vcpus) : "unrecorded");
      keys.push_back(c->key);
    }
    const std::string last = counts.back();
    counts.pop_back();
    report.warnings.push_back(fmt::format(
        "{}{}: runs on {} and {} vCPUs are different machines, reported apart as {} (one median of both would "
        "describe neither)",
        group.front()->shape, group.front()->label.empty() ? "" : " [" + group.front()->label + "]",
        text::join(counts, ", "), last, text::join(keys, ", ")));
  }
}

}  // namespace perfzero::fleet_report
