#pragma once
// Where a program is, as exec would look for it: a name with a '/' as given, else the first
// executable regular file of that name in a PATH's directories. One rule for the suite's commands
// (config/plan_builder.cpp), the mpirun the plan checks and the one the run starts (session/child_command.cpp).
#include <filesystem>
#include <string>

namespace perfzero::files {

bool is_executable_file(const std::filesystem::path& path);

// "" when there is none.
std::filesystem::path find_program(const std::string& name, const std::string& path_env);

}  // namespace perfzero::files
