// libFuzzer target: any bytes as a run's journal.ndjson, which a method can append to
// ($PERFZERO_RUN_DIR) and which compare, report, history ingest and --resume read. The reader must
// give the run's contents, skipping with a warning every line perfzero did not write, or throw the
// std::runtime_error it documents (a line over the limit, an unreadable file): never crash, hang or
// throw anything else (results/journal.hpp, docs/reliability.md).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>

#include "input_file.hpp"
#include "results/journal.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& path = perfzero::fuzz::write_input_file("perfzero-fuzz-journal", data, size);
  try {
    const auto contents = perfzero::results::read_journal(path);
    for (const auto& c : contents.cases) (void)c.trials.size();
  } catch (const std::runtime_error&) {
    // The documented answer to a journal that cannot be read.
  } catch (...) {
    std::abort();  // anything else reaches the user as "internal error": a bug
  }
  return 0;
}
