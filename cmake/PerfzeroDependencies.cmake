# Every dependency comes from a Debian 12 package; scripts/install-deps.sh installs them.
find_package(Threads REQUIRED)
# Boost.Process v2 (launching children) ships with Boost 1.81; it needs Boost.Filesystem for paths.
find_package(Boost 1.81 REQUIRED COMPONENTS filesystem CONFIG)
find_package(yaml-cpp REQUIRED)        # YAML suites, with line/column marks for error messages
find_package(nlohmann_json 3.10 REQUIRED) # reports and the child result protocol
find_package(fmt 9 REQUIRED)           # formatting (g++ 12 has no <format>)
find_package(CLI11 2 REQUIRED)         # the command line
find_package(SQLite3 REQUIRED)         # the results history's default database (docs/history.md)
find_package(PkgConfig REQUIRED)
pkg_check_modules(PQXX REQUIRED IMPORTED_TARGET libpqxx)  # the results history on a team's PostgreSQL

# Writes the git revision into a header at every build, so a report never carries a stale hash.
# Builds without .git (the Docker image) pass it in: -DPERFZERO_GIT_REVISION=...
set(PERFZERO_GIT_REVISION "" CACHE STRING "Git revision to record when the source tree has no .git")
add_custom_target(perfzero_build_info ALL
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${PROJECT_BINARY_DIR}/generated/perfzero_build_info.hpp
          -DVERSION=${PROJECT_VERSION} -DGIT_REVISION=${PERFZERO_GIT_REVISION}
          -P ${PROJECT_SOURCE_DIR}/cmake/WriteBuildInfo.cmake
  BYPRODUCTS ${PROJECT_BINARY_DIR}/generated/perfzero_build_info.hpp
  COMMENT "Recording git revision")

# Optional dependencies: each enables one worker executable (benchmarks/CMakeLists.txt). An option
# defaults to ON when its dependency is found; turning it ON without the dependency is an error.
find_package(dnnl QUIET)
find_package(OpenMP QUIET COMPONENTS CXX)
find_package(CUDAToolkit QUIET)
find_package(OpenCL QUIET)
find_package(CLBlast QUIET)  # the opencl family's GEMM (libclblast-dev)
function(perfzero_optional_dependency option found description)
  if(${found})
    option(${option} "${description}" ON)
  else()
    option(${option} "${description}" OFF)
  endif()
  if(${option} AND NOT ${found})
    message(FATAL_ERROR "${option} is ON but its dependency was not found (${description})")
  endif()
endfunction()
if(dnnl_FOUND AND OpenMP_CXX_FOUND)
  set(PERFZERO_FOUND_ONEDNN TRUE)
endif()
perfzero_optional_dependency(PERFZERO_WITH_ONEDNN PERFZERO_FOUND_ONEDNN
                             "perfzero-worker-onednn: needs oneDNN (libdnnl-dev) and OpenMP")
# Reserved: the CUDA worker comes in a later issue; the option already says what was found.
perfzero_optional_dependency(PERFZERO_WITH_CUDA CUDAToolkit_FOUND "perfzero-worker-cuda (reserved): needs the CUDA toolkit")
# The OpenCL worker links the ICD loader (devices are found at run time) and CLBlast.
if(OpenCL_FOUND AND CLBlast_FOUND)
  set(PERFZERO_FOUND_OPENCL TRUE)
endif()
perfzero_optional_dependency(PERFZERO_WITH_OPENCL PERFZERO_FOUND_OPENCL
                             "perfzero-worker-opencl: needs the OpenCL ICD loader and headers (ocl-icd-opencl-dev) and CLBlast (libclblast-dev)")
message(STATUS "perfzero workers: core; onednn ${PERFZERO_WITH_ONEDNN}; cuda ${PERFZERO_WITH_CUDA} (reserved); "
               "opencl ${PERFZERO_WITH_OPENCL}")
