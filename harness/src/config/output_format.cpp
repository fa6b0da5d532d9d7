#include "config/output_format.hpp"

#include <array>
#include <utility>

namespace perfzero::config {

namespace {

constexpr std::array<std::pair<OutputFormat, std::string_view>, 5> kFormats{{
    {OutputFormat::perfzero, "perfzero"},
    {OutputFormat::google_benchmark, "google_benchmark"},
    {OutputFormat::fio, "fio"},
    {OutputFormat::iperf3, "iperf3"},
    {OutputFormat::none, "none"},
}};

}  // namespace

std::optional<OutputFormat> output_format_from(std::string_view name) {
  for (const auto& [format, text] : kFormats) {
    if (text == name) return format;
  }
  return std::nullopt;
}

std::string_view output_format_name(OutputFormat format) {
  for (const auto& [f, text] : kFormats) {
    if (f == format) return text;
  }
  return "perfzero";
}

std::string output_format_choices() {
  std::string out;
  for (std::size_t i = 0; i < kFormats.size(); ++i) {
    out += std::string(i == 0 ? "" : i + 1 == kFormats.size() ? " or " : ", ") + std::string(kFormats[i].second);
  }
  return out;
}

}  // namespace perfzero::config
