#include "cli/describe.hpp"

#include <CLI/CLI.hpp>

#include "cli/cli_app.hpp"
#include "cli/options.hpp"
#include "common/text.hpp"

namespace perfzero::cli {

namespace {

// Set only while describe_commands runs a parser; perfzero parses on one thread.
thread_local bool g_describing = false;

struct Described {
  CommandDoc doc;
};

// "{text,json}" inside CLI11's type name ("TEXT:{text,json}") lists an option's choices.
// So does a type name written as choices ("base|max").
std::vector<std::string> choices_of(const std::string& type_name) {
  const auto open = type_name.find('{');
  const auto close = type_name.find('}', open);
  if (open != std::string::npos && close != std::string::npos) {
    return text::split(type_name.substr(open + 1, close - open - 1), ',');
  }
  if (type_name.find('|') == std::string::npos ||
      type_name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_|") != std::string::npos) {
    return {};
  }
  return text::split(type_name, '|');
}

CommandDoc doc_of(const CLI::App& app) {
  CommandDoc doc;
  doc.name = app.get_name();
  doc.description = app.get_description();
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_positional() && !opt->nonpositional()) {
      doc.positionals.push_back(opt->get_name());
      for (auto& c : choices_of(opt->get_type_name())) doc.positional_choices.push_back(std::move(c));
      continue;
    }
    FlagDoc flag;
    for (const auto& l : opt->get_lnames()) flag.names.push_back("--" + l);
    for (const auto& s : opt->get_snames()) flag.names.push_back("-" + s);
    if (opt->get_expected_max() > 0) {
      const std::string type = opt->get_type_name();
      flag.choices = choices_of(type);
      flag.value = flag.choices.empty() ? type.substr(0, type.find(':')) : text::join(flag.choices, "|");
      if (flag.value.empty()) flag.value = "VALUE";
    }
    flag.description = opt->get_description();
    doc.flags.push_back(std::move(flag));
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    doc.subcommands.push_back(doc_of(*sub));
  }
  return doc;
}

}  // namespace

void describe_instead_of_parsing(const CLI::App& app) {
  if (g_describing) throw Described{doc_of(app)};
}

namespace detail {

CommandDoc describe_one(const char* program, InvocationParser parse) {
  g_describing = true;
  const char* argv[] = {program};
  try {
    (void)parse(1, argv);
  } catch (Described& d) {
    g_describing = false;
    return std::move(d.doc);
  } catch (...) {
    g_describing = false;
    throw;
  }
  g_describing = false;
  return {};
}

}  // namespace detail

}  // namespace perfzero::cli
