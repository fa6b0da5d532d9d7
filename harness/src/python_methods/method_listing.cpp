#include "python_methods/method_listing.hpp"

#include <chrono>
#include <map>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/errors.hpp"
#include "common/program_output.hpp"
#include "common/text.hpp"
#include "redact/redact.hpp"

extern char** environ;

namespace perfzero::python_methods {

namespace {

using nlohmann::json;

constexpr std::size_t kMaxListingBytes = std::size_t{16} << 20;

// The harness's environment with PYTHONPATH made as a trial's will be.
std::vector<std::string> listing_environment(const config::PythonMethod& how, const ListingEnvironment& where) {
  std::vector<std::string> path;
  if (!where.package_dir.empty()) path.push_back(where.package_dir);
  path.insert(path.end(), how.python_path.begin(), how.python_path.end());
  if (!where.inherited_pythonpath.empty()) path.push_back(where.inherited_pythonpath);
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (!std::string_view(*e).starts_with("PYTHONPATH=")) env.emplace_back(*e);
  }
  env.push_back("PYTHONPATH=" + text::join(path, ":"));
  return env;
}

// The last few lines of what the interpreter said on stderr, for an error message.
std::string tail_of(const std::string& err) {
  auto lines = text::split(text::trim(err), '\n');
  if (lines.size() > 6) lines.erase(lines.begin(), lines.end() - 6);
  return redact::redact_text(text::join(lines, "\n  "));
}

json run_runner(const config::PythonMethod& how, const ListingEnvironment& where, const std::vector<std::string>& args,
                const std::string& origin) {
  std::vector<std::string> argv{how.interpreter, "-m", "perfzero.runner", "list"};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto out = files::run_program_with_environment(argv, listing_environment(how, where),
                                                       std::chrono::seconds(kListSeconds), kMaxListingBytes);
  const std::string who = fmt::format("{}: asking {} for its Python methods", origin, how.interpreter);
  if (!out.started) throw ConfigError(fmt::format("{}: {}", who, out.error));
  if (out.timed_out)
    throw ConfigError(fmt::format("{}: no answer within {} s (a module that hangs on import?)", who, kListSeconds));
  json doc;
  try {
    doc = json::parse(out.out);
  } catch (const json::exception&) {
  }
  if (!doc.is_object()) {
    if (out.err.find("No module named perfzero") != std::string::npos ||
        out.err.find("No module named 'perfzero'") != std::string::npos) {
      throw ConfigError(fmt::format(
          "{}: it cannot import the perfzero package (looked in '{}'; set PERFZERO_PYTHON_PACKAGE_DIR or install "
          "python3-perfzero)",
          who, where.package_dir));
    }
    throw ConfigError(
        fmt::format("{}: it exited with {} and printed no listing:\n  {}", who, out.exit_code, tail_of(out.err)));
  }
  return doc;
}

// Which listed methods a name selects: the runner lists them all, in one answer for every name.
std::vector<config::PythonListed> selected_by(const std::string& spec,
                                              const std::vector<config::PythonListed>& listed) {
  std::vector<config::PythonListed> out;
  const auto filter_at = spec.find(".filter:");
  if (filter_at != std::string::npos) {
    const std::string prefix = spec.substr(0, filter_at) + ".";
    std::regex regex;
    try {
      regex = std::regex(spec.substr(filter_at + 8));
    } catch (const std::regex_error&) {
      return out;  // the runner named the bad pattern already
    }
    for (const auto& m : listed) {
      if (!m.name.starts_with(prefix)) continue;
      const std::string method = m.name.substr(prefix.size());
      if (method.find('.') == std::string::npos &&
          std::regex_search(method, regex, std::regex_constants::match_continuous)) {
        out.push_back(m);
      }
    }
    return out;
  }
  std::string full = spec;
  if (const auto colon = full.rfind(':'); colon != std::string::npos) full[colon] = '.';
  for (const auto& m : listed) {
    if (m.name == full) out.push_back(m);
  }
  return out;
}

std::string problem_text(const json& p) {
  const std::string kind = p.value("kind", "");
  const std::string module = p.value("module", "");
  std::string message = redact::redact_text(p.value("message", ""));
  if (kind == "import") return fmt::format("module '{}' does not import: {}", module, message);
  return message;
}

}  // namespace

config::PythonLister make_lister(const ListingEnvironment& where) {
  return [where](const config::PythonMethod& how, const std::vector<config::PythonQuery>& queries) {
    std::vector<std::string> args;
    for (const auto& q : queries) {
      args.push_back("--method");
      args.push_back(q.spec);
    }
    const json doc = run_runner(how, where, args, queries.front().origin);
    const std::string version = doc.value("python", json::object()).value("version", "");
    if (const auto problems = doc.value("problems", json::array()); problems.is_array() && !problems.empty()) {
      std::vector<std::string> lines;
      for (const auto& p : problems) {
        if (!p.is_object()) continue;
        const std::string spec = p.value("spec", "");
        std::string origin = queries.front().origin;
        for (const auto& q : queries) {
          if (q.spec == spec) origin = q.origin;
        }
        lines.push_back(fmt::format("{}: Python method '{}': {}", origin, spec, problem_text(p)));
      }
      throw ConfigError(fmt::format("{}\n  (interpreter: {}, Python {}; PYTHONPATH: {})", text::join(lines, "\n"),
                                    how.interpreter, version, text::join(how.python_path, ":")));
    }
    std::vector<config::PythonListed> listed;
    for (const char* part : {"methods", "skipped"}) {
      for (const auto& m : doc.value(part, json::array())) {
        if (!m.is_object() || !m.contains("name") || !m["name"].is_string()) continue;
        const std::string doc_line = m.value("doc", "");
        listed.push_back({m["name"].get<std::string>(), doc_line});
      }
    }
    std::map<std::string, std::vector<config::PythonListed>> out;
    for (const auto& q : queries) {
      auto selected = selected_by(q.spec, listed);
      if (selected.empty()) {
        throw ConfigError(
            fmt::format("{}: Python method '{}': {} lists no such method", q.origin, q.spec, how.interpreter));
      }
      out[q.spec] = std::move(selected);
    }
    return out;
  };
}

Discovery discover(const config::PythonMethod& how, const ListingEnvironment& where) {
  std::vector<std::string> args{"--discover"};
  for (const auto& dir : how.python_path) {
    args.push_back("--path");
    args.push_back(dir);
  }
  const json doc = run_runner(how, where, args, "--python_path");
  Discovery d;
  d.python_version = doc.value("python", json::object()).value("version", "");
  for (const auto& m : doc.value("methods", json::array())) {
    if (m.is_object() && m.contains("name") && m["name"].is_string()) {
      d.methods.push_back({m["name"].get<std::string>(), m.value("doc", "")});
    }
  }
  for (const auto& p : doc.value("problems", json::array())) {
    if (p.is_object()) d.problems.push_back(fmt::format("{}: {}", p.value("module", "?"), problem_text(p)));
  }
  return d;
}

}  // namespace perfzero::python_methods
