#pragma once
// Where perfzero's own helper programs are: perfzero-launch, perfzero-rank, the perfzero-worker-*
// and perfzero-micro. A build tree keeps them beside perfzero; an installed perfzero (the Debian
// packages, the images, `cmake --install`) keeps them out of the PATH, in <prefix>/libexec/perfzero,
// as the FHS asks of programs that only other programs run.
#include <filesystem>

namespace perfzero::files {

// The directory of the running perfzero executable (the working directory when /proc cannot say).
std::filesystem::path self_dir();

// self_dir() when perfzero-launch is beside perfzero, else <self_dir>/../libexec/perfzero when it
// is there, else self_dir() (so an error names the directory a build tree would use).
std::filesystem::path helper_dir();

// The same rule for another build or install: `dir` itself, or dir/../libexec/perfzero, or
// dir/libexec/perfzero (an install prefix given as the directory).
std::filesystem::path helper_dir_of(const std::filesystem::path& dir);

}  // namespace perfzero::files
