// libFuzzer target: any bytes as a run's stored document in a results database (run_documents),
// which `history show` restores. A database file is input like any other: it may be damaged, or made
// by someone else. The reader must give the run or throw the HistoryError it documents (one line
// naming the run, exit 4): never crash, hang, exhaust memory or throw anything else
// (history/run_document.hpp). The first byte chooses the form: 0 the bytes as stored (zlib), else
// JSON that is compressed first, so that the document behind the compression is fuzzed too.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "history/compressed_text.hpp"
#include "history/run_document.hpp"
#include "history/sql_connection.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string bytes = data[0] == 0 ? rest : perfzero::history::deflate_text(rest);
  try {
    (void)perfzero::history::restore_document(bytes);
  } catch (const perfzero::history::HistoryError&) {
    // The documented answer to a stored document that cannot be read.
  } catch (...) {
    std::abort();
  }
  return 0;
}
