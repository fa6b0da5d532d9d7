# Every dependency comes from a Debian 12 package; scripts/install-deps.sh installs them.
find_package(Threads REQUIRED)
# Boost.Process v2 (launching children) ships with Boost 1.81; it needs Boost.Filesystem for paths.
find_package(Boost 1.81 REQUIRED COMPONENTS filesystem CONFIG)
find_package(yaml-cpp REQUIRED)        # YAML suites, with line/column marks for error messages
find_package(nlohmann_json 3.10 REQUIRED) # reports and the child result protocol
find_package(fmt 9 REQUIRED)           # formatting (g++ 12 has no <format>)
find_package(CLI11 2 REQUIRED)         # the command line

# Writes the git revision into a header at every build, so a report never carries a stale hash.
# Builds without .git (the Docker image) pass it in: -DPERFZERO_GIT_REVISION=...
set(PERFZERO_GIT_REVISION "" CACHE STRING "Git revision to record when the source tree has no .git")
add_custom_target(perfzero_build_info ALL
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${PROJECT_BINARY_DIR}/generated/perfzero_build_info.hpp
          -DVERSION=${PROJECT_VERSION} -DGIT_REVISION=${PERFZERO_GIT_REVISION}
          -P ${PROJECT_SOURCE_DIR}/cmake/WriteBuildInfo.cmake
  BYPRODUCTS ${PROJECT_BINARY_DIR}/generated/perfzero_build_info.hpp
  COMMENT "Recording git revision")
