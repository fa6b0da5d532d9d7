#pragma once
// The loaders under test read a path, not bytes: each input is written to one file per fuzzer
// process before it is loaded (the pid in its name, so parallel fuzzers never share one; `stem`
// from the first call names it for the life of the process). run_fuzzers.sh points TMPDIR into
// build/fuzz, where they stay.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace perfzero::fuzz {

inline const std::filesystem::path& write_input_file(const char* stem, const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() / (std::string(stem) + "-" + std::to_string(::getpid()) + ".yaml");
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));  // NOLINT(*-reinterpret-cast)
  return path;
}

}  // namespace perfzero::fuzz
