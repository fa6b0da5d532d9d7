#pragma once
// perfzero's commands and flags as data, taken from the very CLI::App each command's parser builds:
// what `perfzero completion` and the perfzero(1) man page are made from, so that neither can drift
// from --help.
#include <string>
#include <vector>

namespace perfzero::cli {

struct FlagDoc {
  std::vector<std::string> names;    // "--format", "-h"
  std::string value;                 // what it takes ("FILE", "base|max"); "" for a switch
  std::vector<std::string> choices;  // the values it accepts, where it names them
  std::string description;
};

struct CommandDoc {
  std::string name;         // "run", "history ingest"
  std::string summary;      // its line in perfzero --help
  std::string description;  // the first paragraph of its --help
  std::vector<FlagDoc> flags;
  std::vector<std::string> positionals;         // "SUITE", ...
  std::vector<std::string> positional_choices;  // what they accept, where they name it ("bash", ...)
  std::vector<CommandDoc> subcommands;
};

// Every command of perfzero, in --help's order.
std::vector<CommandDoc> describe_commands();

struct InvocationResult;
namespace detail {
using InvocationParser = InvocationResult (*)(int argc, const char* const* argv);
// Runs one command's parser as `program` with no flags and returns what its App describes.
CommandDoc describe_one(const char* program, InvocationParser parse);
}  // namespace detail

}  // namespace perfzero::cli
