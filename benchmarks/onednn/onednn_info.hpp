#pragma once
// What oneDNN is and which instruction set it dispatched to, for ml_framework_info.
#include <string>

#include "perfzero/context.hpp"

namespace perfzero::onednn {

std::string dispatched_isa();
FrameworkInfo framework_info();

}  // namespace perfzero::onednn
