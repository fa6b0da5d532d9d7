#include "progress/progress.hpp"

#include <fmt/format.h>

#include "common/escape.hpp"
#include "common/text.hpp"

namespace perfzero::progress {

Progress::Progress(std::FILE* out, bool live, int total_runs) : out_(out), live_(live), total_(total_runs) {}

std::string Progress::counter() const {
  const int width = static_cast<int>(std::to_string(total_).size());
  return fmt::format("[{:>{}}/{}]", done_ + 1, width, total_);
}

std::string Progress::eta() const {
  if (executed_ == 0 || done_ >= total_) return "";
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - first_start_).count();
  return "ETA " + text::format_duration(elapsed / executed_ * (total_ - done_));
}

void Progress::clear_live_line() {
  if (live_line_shown_) {
    std::fputs("\r\033[K", out_);
    live_line_shown_ = false;
  }
}

void Progress::running(const std::string& name, const std::string& what, double elapsed_seconds) {
  if (!live_) return;
  constexpr int kBarWidth = 20;
  const int filled = total_ > 0 ? done_ * kBarWidth / total_ : 0;
  std::fprintf(out_, "\r\033[K%s [%s%s] %s %s running %s", counter().c_str(), std::string(filled, '#').c_str(),
               std::string(kBarWidth - filled, '.').c_str(), text::printable(name).c_str(),
               text::printable(what).c_str(), text::format_duration(elapsed_seconds).c_str());
  std::fflush(out_);
  live_line_shown_ = true;
}

void Progress::finished(const std::string& name, const std::string& what, Outcome outcome, const std::string& detail,
                        double wall_seconds) {
  clear_live_line();
  const std::string prefix = counter();
  ++done_;
  ++executed_;
  std::string line = fmt::format("{} {} {}  {}  {}", prefix, text::printable(name), text::printable(what),
                                 to_string(outcome), text::format_duration(wall_seconds));
  if (!detail.empty()) line += "  (" + text::printable(detail) + ")";
  const std::string remaining = eta();
  if (!remaining.empty()) line += "  " + remaining;
  std::fprintf(out_, "%s\n", line.c_str());
  std::fflush(out_);
}

void Progress::resumed(const std::string& name, const std::string& what, Outcome outcome) {
  clear_live_line();
  std::fprintf(out_, "%s %s %s  %s  (already reported; --resume keeps it)\n", counter().c_str(),
               text::printable(name).c_str(), text::printable(what).c_str(), std::string(to_string(outcome)).c_str());
  ++done_;
  std::fflush(out_);
}

void Progress::note(const std::string& line) {
  clear_live_line();
  std::fprintf(out_, "%s\n", text::printable(line).c_str());
  std::fflush(out_);
}

}  // namespace perfzero::progress
