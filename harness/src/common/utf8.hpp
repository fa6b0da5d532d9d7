#pragma once
// UTF-8 as RFC 3629 defines it: no overlong forms, no surrogates, nothing above U+10FFFF.
#include <cstddef>
#include <string>
#include <string_view>

namespace perfzero::utf8 {

// Length of the well-formed UTF-8 sequence at the start of `s`, or 0 when there is none.
std::size_t sequence_length(std::string_view s);

// `text` with every byte that is not part of a well-formed sequence replaced by U+FFFD.
std::string valid(std::string_view text);

}  // namespace perfzero::utf8
