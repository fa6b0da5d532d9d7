#include "provenance/git_checkout.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "common/text.hpp"

namespace perfzero::provenance {

namespace {

namespace fs = std::filesystem;

// packed-refs of a large repository runs to megabytes; HEAD, a ref or a gitdir file is one line.
constexpr std::uintmax_t kMaxSmallFile = 64ULL * 1024;
constexpr std::uintmax_t kMaxPackedRefs = 64ULL * 1024 * 1024;

std::optional<std::string> read_regular(const fs::path& path, std::uintmax_t max_bytes) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::is_regular_file(status)) return std::nullopt;
  const auto size = fs::file_size(path, ec);
  if (ec || size > max_bytes) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::optional<std::string> first_line(const fs::path& path) {
  auto content = read_regular(path, kMaxSmallFile);
  if (!content) return std::nullopt;
  return text::trim(content->substr(0, content->find('\n')));
}

bool is_object_id(const std::string& s) {
  // SHA-1 (40) or SHA-256 (64) in hex.
  return (s.size() == 40 || s.size() == 64) &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// A ref name from HEAD is joined to a directory: one with a `..` or an absolute path is no ref.
bool safe_ref(const std::string& ref) {
  return ref.rfind("refs/", 0) == 0 && ref.find("..") == std::string::npos && ref.find('\0') == std::string::npos;
}

// The git directory a `.git` names: itself, or what a `.git` file's "gitdir: PATH" points at.
std::optional<fs::path> git_dir_of(const fs::path& dot_git) {
  std::error_code ec;
  const auto status = fs::status(dot_git, ec);
  if (ec) return std::nullopt;
  if (fs::is_directory(status)) return dot_git;
  if (!fs::is_regular_file(status)) return std::nullopt;
  const auto line = first_line(dot_git);
  if (!line || line->rfind("gitdir:", 0) != 0) return std::nullopt;
  fs::path dir = text::trim(line->substr(7));
  if (dir.is_relative()) dir = dot_git.parent_path() / dir;
  if (!fs::is_directory(dir, ec)) return std::nullopt;
  return dir;
}

// Where the shared refs are: a worktree's git directory names them in its `commondir` file.
fs::path common_dir_of(const fs::path& git_dir) {
  const auto line = first_line(git_dir / "commondir");
  if (!line || line->empty()) return git_dir;
  fs::path dir = *line;
  return dir.is_relative() ? git_dir / dir : dir;
}

std::string resolve_ref(const fs::path& git_dir, const std::string& ref) {
  const fs::path common = common_dir_of(git_dir);
  for (const auto& dir : {git_dir, common}) {
    if (const auto loose = first_line(dir / ref); loose && is_object_id(*loose)) return *loose;
  }
  // Packed: "<id> <ref>" lines, with "^<id>" lines for annotated tags and "#" comments.
  if (const auto packed = read_regular(common / "packed-refs", kMaxPackedRefs)) {
    std::istringstream lines(*packed);
    std::string line;
    while (std::getline(lines, line)) {
      const auto space = line.find(' ');
      if (space == std::string::npos || line[0] == '#' || line[0] == '^') continue;
      if (text::trim(line.substr(space + 1)) == ref && is_object_id(line.substr(0, space))) {
        return line.substr(0, space);
      }
    }
  }
  return "";
}

}  // namespace

std::optional<GitCheckout> find_git_checkout(const fs::path& start) {
  std::error_code ec;
  fs::path dir = fs::absolute(start, ec);
  if (ec) return std::nullopt;
  for (;;) {
    const fs::path dot_git = dir / ".git";
    if (fs::exists(fs::symlink_status(dot_git, ec))) {
      const auto git_dir = git_dir_of(dot_git);
      if (!git_dir) return std::nullopt;
      const auto head = first_line(*git_dir / "HEAD");
      if (!head) return std::nullopt;
      GitCheckout checkout;
      checkout.top = dir;
      if (head->rfind("ref:", 0) == 0) {
        const std::string ref = text::trim(head->substr(4));
        if (!safe_ref(ref)) return std::nullopt;
        if (ref.rfind("refs/heads/", 0) == 0) checkout.branch = ref.substr(11);
        checkout.commit = resolve_ref(*git_dir, ref);
      } else if (is_object_id(*head)) {
        checkout.commit = *head;
      } else {
        return std::nullopt;
      }
      return checkout;
    }
    if (!dir.has_parent_path() || dir.parent_path() == dir) return std::nullopt;
    dir = dir.parent_path();
  }
}

}  // namespace perfzero::provenance
