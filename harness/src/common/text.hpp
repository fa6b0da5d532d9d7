#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfzero::text {

std::size_t edit_distance(std::string_view a, std::string_view b);
// Up to `limit` candidates closest to `name`, nearest first; only those close enough to be a typo
// (or containing `name`, or a prefix of it) are returned.
std::vector<std::string> closest(std::string_view name, const std::vector<std::string>& candidates,
                                 std::size_t limit = 3);
// Only the candidates at the smallest distance among those closest() would return.
std::vector<std::string> nearest(std::string_view name, const std::vector<std::string>& candidates);
// "; did you mean 'a' or 'b'?" or "" when nothing is close.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

std::string join(const std::vector<std::string>& parts, std::string_view separator);
std::vector<std::string> split(std::string_view text, char separator);
std::string trim(std::string_view text);
std::string to_upper(std::string_view text);

// The longest duration a flag or suite may give: far beyond any benchmark, far below overflow.
inline constexpr std::chrono::milliseconds kMaxDuration{std::chrono::hours(24 * 30)};

// "90", "90s", "1.5m", "250ms", "2h" -> duration; nullopt when malformed or negative, when over
// kMaxDuration, or when positive but under 1 ms. `problem` then says which, as "expected ..." text.
std::optional<std::chrono::milliseconds> parse_duration(std::string_view text);
std::optional<std::chrono::milliseconds> parse_duration(std::string_view text, std::string& problem);
std::string format_duration(double seconds);

// A name usable as a single path component: keeps [A-Za-z0-9._-], maps the rest to '_'.
std::string path_component(std::string_view name);

}  // namespace perfzero::text
