#include "history/compressed_text.hpp"

#include <zlib.h>

#include <stdexcept>

namespace perfzero::history {

std::string deflate_text(std::string_view text) {
  uLongf size = compressBound(static_cast<uLong>(text.size()));
  std::string out(size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(text.data()),
                static_cast<uLong>(text.size()), Z_DEFAULT_COMPRESSION) != Z_OK) {
    throw std::runtime_error("zlib could not compress a run's trials");
  }
  out.resize(size);
  return out;
}

std::optional<std::string> inflate_text(std::string_view bytes, std::size_t max_bytes) {
  z_stream stream{};
  if (inflateInit(&stream) != Z_OK) return std::nullopt;
  stream.next_in = const_cast<Bytef*>(reinterpret_cast<const Bytef*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char buffer[64 * 1024];
  int rc = Z_OK;
  while (rc == Z_OK) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof buffer;
    rc = inflate(&stream, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) break;
    out.append(buffer, sizeof buffer - stream.avail_out);
    if (out.size() > max_bytes) {
      rc = Z_MEM_ERROR;
      break;
    }
    // No progress with input left means the stream is cut short.
    if (rc == Z_OK && stream.avail_in == 0 && stream.avail_out != 0) {
      rc = Z_BUF_ERROR;
      break;
    }
  }
  inflateEnd(&stream);
  if (rc != Z_STREAM_END) return std::nullopt;
  return out;
}

}  // namespace perfzero::history
