#include "common/utc_time.hpp"

#include <ctime>

namespace perfzero::text {

std::string utc_time(double epoch_seconds) {
  const auto t = static_cast<std::time_t>(epoch_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace perfzero::text
