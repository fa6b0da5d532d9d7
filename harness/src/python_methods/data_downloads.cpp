#include "python_methods/data_downloads.hpp"

#include <algorithm>
#include <system_error>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/text.hpp"

namespace perfzero::python_methods {

namespace {

// "imagenet/" and "imagenet" name one directory: the trailing separator would make an empty last
// part, which a temporary name beside it cannot be built from.
std::filesystem::path without_trailing_separator(const std::filesystem::path& p) {
  std::filesystem::path out = p.lexically_normal();
  if (out.has_relative_path() && out.filename().empty()) out = out.parent_path();
  return out;
}

// What a copy cannot hold as data: a FIFO (a copy would block on it), a socket, a device, or a link
// that points out of the tree (a copy would keep it pointing at the source). Throws ConfigError
// naming it.
void check_copyable(const std::filesystem::path& source, const std::string& url) {
  namespace fs = std::filesystem;
  auto refuse = [&](const fs::path& p, const std::string& why) {
    throw ConfigError(
        fmt::format("--data_downloads: {}: {} is {}; only files, directories and links inside the tree "
                    "are copied",
                    url, p.string(), why));
  };
  auto check_one = [&](const fs::path& p, const fs::file_status& status) {
    switch (status.type()) {
      case fs::file_type::regular:
      case fs::file_type::directory:
        return;
      case fs::file_type::symlink: {
        std::error_code ec;
        const fs::path target = fs::weakly_canonical(p.parent_path() / fs::read_symlink(p, ec), ec);
        const auto [end, rest] = std::mismatch(source.begin(), source.end(), target.begin(), target.end());
        if (ec || end != source.end()) refuse(p, "a link out of the tree");
        return;
      }
      case fs::file_type::fifo:
        refuse(p, "a FIFO");
        return;
      case fs::file_type::socket:
        refuse(p, "a socket");
        return;
      default:
        refuse(p, "not a regular file");
        return;
    }
  };
  std::error_code ec;
  check_one(source, fs::symlink_status(source, ec));
  if (!fs::is_directory(source, ec)) return;
  for (auto it = fs::recursive_directory_iterator(source, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    check_one(it->path(), it->symlink_status(ec));
  }
  if (ec) throw ConfigError(fmt::format("--data_downloads: {}: {}", url, ec.message()));
}

}  // namespace

std::vector<DataDownload> parse_data_downloads(const std::string& text) {
  std::vector<DataDownload> out;
  for (const auto& item : text::split(text, ',')) {
    if (text::trim(item).empty()) continue;
    const auto parts = text::split(text::trim(item), ';');
    if (parts.size() > 2) throw UsageError(fmt::format("--data_downloads: expected URL;RELATIVE_PATH, got '{}'", item));
    DataDownload d;
    d.url = text::trim(parts[0]);
    constexpr std::string_view kScheme = "file://";
    if (!d.url.starts_with(kScheme)) {
      throw UsageError(fmt::format(
          "--data_downloads: '{}': only file:// sources are read (copy or mount gs:// and s3:// data, then name "
          "it as file:///PATH)",
          d.url));
    }
    d.source = without_trailing_separator(std::filesystem::path(d.url.substr(kScheme.size())));
    if (!d.source.is_absolute()) {
      throw UsageError(fmt::format("--data_downloads: '{}': expected file:///ABSOLUTE/PATH", d.url));
    }
    d.relative = without_trailing_separator(parts.size() > 1 && !text::trim(parts[1]).empty()
                                                ? std::filesystem::path(text::trim(parts[1]))
                                                : d.source.filename());
    const auto normal = d.relative;
    if (d.relative.is_absolute() || normal.empty() || *normal.begin() == ".." || normal == ".") {
      throw UsageError(
          fmt::format("--data_downloads: '{}': the destination must stay inside --root_data_dir", d.relative.string()));
    }
    out.push_back(std::move(d));
  }
  return out;
}

void fetch_data(const std::vector<DataDownload>& downloads, const std::filesystem::path& root,
                const std::function<void(const std::string&)>& say) {
  namespace fs = std::filesystem;
  for (const auto& d : downloads) {
    const fs::path to = root / d.relative;
    std::error_code ec;
    if (fs::exists(to, ec)) {
      say(fmt::format("data: {} is there already; kept", to.string()));
      continue;
    }
    if (!fs::exists(d.source, ec))
      throw ConfigError(fmt::format("--data_downloads: {}: no such file or directory", d.url));
    // The data the link names, copied; and nothing a copy cannot hold as data.
    const fs::path source = fs::canonical(d.source, ec);
    if (ec) throw ConfigError(fmt::format("--data_downloads: {}: {}", d.url, ec.message()));
    check_copyable(source, d.url);
    fs::create_directories(to.parent_path(), ec);
    if (ec)
      throw ConfigError(fmt::format("--data_downloads: cannot make {}: {}", to.parent_path().string(), ec.message()));
    say(fmt::format("data: copying {} to {}", d.url, to.string()));
    // Under a temporary name first: a copy cut short is never taken for the data next time.
    const fs::path partial = to.parent_path() / (to.filename().string() + ".partial");
    fs::remove_all(partial, ec);
    fs::copy(source, partial, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
    if (!ec) fs::rename(partial, to, ec);
    if (ec) {
      std::error_code ignored;
      fs::remove_all(partial, ignored);
      throw ConfigError(fmt::format("--data_downloads: copying {} to {}: {}", d.url, to.string(), ec.message()));
    }
  }
}

}  // namespace perfzero::python_methods
