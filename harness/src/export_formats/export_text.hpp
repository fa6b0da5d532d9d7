#pragma once
// Text helpers the exports share: every format must stay valid whatever a method or metric is
// called (spaces, quotes, line breaks, bytes that are not UTF-8).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace perfzero::export_formats {

// ASCII control characters (line breaks, tabs, NUL, DEL) as spaces: for formats that are one
// record per line and have no escape for them.
std::string controls_as_spaces(std::string_view text);
// 16 hex digits of FNV-1a (64-bit): a stable, short id for a long key.
std::string fnv1a_hex(std::string_view key);
// "2026-11-22T15:12:00.123Z" (UTC, milliseconds); nullopt for a time that is not finite or not
// within years 1970..9999, which no date field could hold.
std::optional<std::string> iso8601_utc(double epoch_seconds);
// True for exactly the shape iso8601_utc writes, with a real calendar date and time.
bool is_iso8601_utc(std::string_view text);
// Nanoseconds since the epoch; nullopt outside 1970..2262 (what a signed 64-bit count can hold).
std::optional<std::int64_t> epoch_nanoseconds(double epoch_seconds);

}  // namespace perfzero::export_formats
