#pragma once
// The one way a command takes an output directory a user named (a run's, `ab`'s, `report --out`,
// `history site --out`): made if missing, the name itself resolved once (a user may point it through
// a link of their own), then held by its descriptor for as long as the command writes. Every file
// written under it (files::write_atomically) and every directory made under it (make_directory) is
// resolved beneath that descriptor with no symbolic link followed: a link planted anywhere under the
// output (by a method, or left by anyone) is refused with the reason, never written through, and
// nothing is written outside the root.
#include <filesystem>
#include <memory>
#include <string>

#include "common/trusted_root.hpp"

namespace perfzero::files {

class OutputRoot {
 public:
  // `what` names the flag or command in errors ("history site --out"). Throws OutputError.
  OutputRoot(const std::filesystem::path& dir, std::string what);

  // The root, resolved: every path under it is built from this one.
  const std::filesystem::path& dir() const { return dir_; }

  // Makes `relative` (and its parents) under the root, each a real directory, none through a link;
  // returns its path. Throws OutputError naming the link or the failure.
  std::filesystem::path make_directory(const std::filesystem::path& relative) const;

 private:
  std::filesystem::path dir_;
  std::string what_;
  std::unique_ptr<TrustedRoot> root_;
};

}  // namespace perfzero::files
