#pragma once
// The names of the ways an external command reports (suites' `output:`, `perfzero ab --output`, the
// run's plan), in one table.
#include <optional>
#include <string>
#include <string_view>

#include "config/run_plan.hpp"

namespace perfzero::config {

std::optional<OutputFormat> output_format_from(std::string_view name);
std::string_view output_format_name(OutputFormat format);
// "perfzero, google_benchmark, fio, iperf3 or none": for messages and --help.
std::string output_format_choices();

}  // namespace perfzero::config
