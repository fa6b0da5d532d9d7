#include "export_formats/export_text.hpp"

#include <cmath>
#include <ctime>

#include <fmt/format.h>

namespace perfzero::export_formats {

namespace {

// 10000-01-01T00:00:00Z: the first time a four-digit year cannot write.
constexpr double kYear10000 = 253402300800.0;
// 2262-04-11: where nanoseconds since 1970 overflow a signed 64-bit integer.
constexpr double kMaxNanosecondSeconds = 9223372036.0;

bool digits(std::string_view text, std::size_t from, std::size_t count, int& value) {
  value = 0;
  for (std::size_t i = from; i < from + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    value = value * 10 + (text[i] - '0');
  }
  return true;
}

int days_in_month(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

}  // namespace

std::string controls_as_spaces(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) c = ' ';
  }
  return out;
}

std::string fnv1a_hex(std::string_view key) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : key) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return fmt::format("{:016x}", hash);
}

std::optional<std::string> iso8601_utc(double epoch_seconds) {
  if (!std::isfinite(epoch_seconds) || epoch_seconds < 0 || epoch_seconds >= kYear10000) return std::nullopt;
  const double whole = std::floor(epoch_seconds);
  auto millis = static_cast<int>(std::lround((epoch_seconds - whole) * 1000.0));
  auto seconds = static_cast<std::time_t>(whole);
  if (millis == 1000) {
    millis = 0;
    seconds += 1;
  }
  std::tm utc{};
  if (::gmtime_r(&seconds, &utc) == nullptr || utc.tm_year + 1900 > 9999) return std::nullopt;
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
                     utc.tm_hour, utc.tm_min, utc.tm_sec, millis);
}

bool is_iso8601_utc(std::string_view t) {
  // YYYY-MM-DDTHH:MM:SS.mmmZ
  if (t.size() != 24 || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' || t[16] != ':' || t[19] != '.' ||
      t[23] != 'Z') {
    return false;
  }
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, millis = 0;
  if (!digits(t, 0, 4, year) || !digits(t, 5, 2, month) || !digits(t, 8, 2, day) || !digits(t, 11, 2, hour) ||
      !digits(t, 14, 2, minute) || !digits(t, 17, 2, second) || !digits(t, 20, 3, millis)) {
    return false;
  }
  return year >= 1970 && month >= 1 && month <= 12 && day >= 1 && day <= days_in_month(year, month) && hour < 24 &&
         minute < 60 && second < 60;
}

std::optional<std::int64_t> epoch_nanoseconds(double epoch_seconds) {
  if (!std::isfinite(epoch_seconds) || epoch_seconds < 0 || epoch_seconds >= kMaxNanosecondSeconds) {
    return std::nullopt;
  }
  // Whole seconds and microseconds apart: a double holds ~16 digits, a nanosecond count 19.
  const double whole = std::floor(epoch_seconds);
  const auto micros = static_cast<std::int64_t>(std::llround((epoch_seconds - whole) * 1e6));
  return static_cast<std::int64_t>(whole) * 1'000'000'000LL + micros * 1000LL;
}

}  // namespace perfzero::export_formats
