#include "python_methods/method_listing.hpp"

#include <chrono>
#include <map>

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

// The harness's environment with the case's env over it and PYTHONPATH made as a trial's will be.
std::vector<std::string> listing_environment(const config::PythonMethod& how, const ListingEnvironment& where) {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const auto eq = entry.find('=');
    if (eq != std::string_view::npos) env.emplace(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
  }
  for (const auto& [name, value] : how.env) env[name] = value;
  env["PYTHONPATH"] = config::pythonpath_for(where.package_dir, how, where.inherited_pythonpath);
  std::vector<std::string> out;
  out.reserve(env.size());
  for (const auto& [name, value] : env) out.push_back(name + "=" + value);
  return out;
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
    std::map<std::string, std::string> described;
    for (const char* part : {"methods", "skipped"}) {
      for (const auto& m : doc.value(part, json::array())) {
        if (m.is_object() && m.contains("name") && m["name"].is_string()) {
          described[m["name"].get<std::string>()] = m.value("doc", "");
        }
      }
    }
    // The runner says which names each spec selected: a filter is matched by Python's re only.
    const json selected = doc.value("selected", json());
    if (!selected.is_object()) {
      throw ConfigError(
          fmt::format("{}: the perfzero package in '{}' is older than this perfzero (its listing has no "
                      "'selected'); install the matching python3-perfzero",
                      queries.front().origin, where.package_dir));
    }
    std::map<std::string, std::vector<config::PythonListed>> out;
    for (const auto& q : queries) {
      std::vector<config::PythonListed> methods;
      for (const auto& name : selected.value(q.spec, json::array())) {
        if (name.is_string()) methods.push_back({name.get<std::string>(), described[name.get<std::string>()]});
      }
      if (methods.empty()) {
        throw ConfigError(
            fmt::format("{}: Python method '{}': {} lists no such method", q.origin, q.spec, how.interpreter));
      }
      out[q.spec] = std::move(methods);
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
