#pragma once
// PerfZero's --data_downloads: "url;relative_path,..." copied into the root data directory before
// the first trial, once per run. Only file:// sources: this harness carries no cloud storage client
// for gs:// (mount the bucket, or copy it, and name the copy with file://).
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace perfzero::python_methods {

struct DataDownload {
  std::string url;                 // file:///path
  std::filesystem::path source;    // /path
  std::filesystem::path relative;  // under the root data directory; default: the source's last part
};

// Throws UsageError naming the item that is wrong (a scheme other than file://, a relative path that
// leaves the data directory).
std::vector<DataDownload> parse_data_downloads(const std::string& text);

// Copies each source (a file or a directory tree) to root/relative; one that is there already is
// kept, as PerfZero keeps it. Throws ConfigError naming the source.
void fetch_data(const std::vector<DataDownload>& downloads, const std::filesystem::path& root,
                const std::function<void(const std::string&)>& say);

}  // namespace perfzero::python_methods
