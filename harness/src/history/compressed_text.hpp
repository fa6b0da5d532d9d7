#pragma once
// zlib (deflate) for the text the history keeps whole, each run's trials as JSON: that JSON repeats
// its keys in every trial and compresses about tenfold (docs/performance.md), which is most of the
// database's size. Inflating refuses input that is not zlib or that would grow past a bound (256 MiB
// by default: a run of 100,000 trials is about 250 MB of JSON), so a damaged or hostile database
// costs at most that, and what parsing it takes, rather than all memory.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace perfzero::history {

std::string deflate_text(std::string_view text);
// nullopt when `bytes` is not a whole zlib stream, or inflates to more than `max_bytes`.
std::optional<std::string> inflate_text(std::string_view bytes, std::size_t max_bytes = std::size_t{256} << 20);

}  // namespace perfzero::history
