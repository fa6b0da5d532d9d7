#include "python_methods/data_downloads.hpp"

#include <system_error>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/text.hpp"

namespace perfzero::python_methods {

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
    d.source = d.url.substr(kScheme.size());
    if (!d.source.is_absolute()) {
      throw UsageError(fmt::format("--data_downloads: '{}': expected file:///ABSOLUTE/PATH", d.url));
    }
    d.relative = parts.size() > 1 && !text::trim(parts[1]).empty() ? std::filesystem::path(text::trim(parts[1]))
                                                                   : d.source.lexically_normal().filename();
    const auto normal = d.relative.lexically_normal();
    if (d.relative.is_absolute() || normal.empty() || *normal.begin() == "..") {
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
    fs::create_directories(to.parent_path(), ec);
    if (ec)
      throw ConfigError(fmt::format("--data_downloads: cannot make {}: {}", to.parent_path().string(), ec.message()));
    say(fmt::format("data: copying {} to {}", d.url, to.string()));
    // Under a temporary name first: a copy cut short is never taken for the data next time.
    const fs::path partial = to.string() + ".partial";
    fs::remove_all(partial, ec);
    fs::copy(d.source, partial, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
    if (!ec) fs::rename(partial, to, ec);
    if (ec) {
      std::error_code ignored;
      fs::remove_all(partial, ignored);
      throw ConfigError(fmt::format("--data_downloads: copying {} to {}: {}", d.url, to.string(), ec.message()));
    }
  }
}

}  // namespace perfzero::python_methods
