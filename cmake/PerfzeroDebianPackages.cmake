# Debian packages with CPack (`cpack -G DEB` in the build tree; docs/packages.md):
#   perfzero          harness, launcher, rank agent, core worker, perfzero-micro, price catalog,
#                     suites, perfzero(1), shell completions          (component runtime)
#   perfzero-<name>   one per optional worker this build has: onednn, opencl, cuda, mpi, storage
#                     (component worker_<name>)
#   perfzero-dev      public headers, the static API library with the components it links, and the
#                     CMake package for out-of-tree workers            (component development)
#   python3-perfzero  the perfzero Python package, Architecture all   (component python3-perfzero)
# Dependencies come from dpkg-shlibdeps; file names are Debian's, perfzero_VERSION_ARCH.deb.
get_property(perfzero_worker_components GLOBAL PROPERTY PERFZERO_WORKER_COMPONENTS)
set(perfzero_deb_components runtime ${perfzero_worker_components} development python3-perfzero)
# What an image installs: every component but the development one (docker/Dockerfile,
# docker/build.sh, docker/build-arm64.sh read this file). The Python package is not in the list: the
# x86 images add it by name (80 KB, for the framework images built on them), a build tree of any
# architecture has it, and the arm64 image, which no framework image builds on, leaves it out.
string(REPLACE ";" " " perfzero_runtime_components "runtime;${perfzero_worker_components}")
file(WRITE ${PROJECT_BINARY_DIR}/install-components.txt "${perfzero_runtime_components}\n")

# Each package carries its copyright and changelog in /usr/share/doc/<package>/ (Debian policy 12.5
# and 12.7); the changelog names the revision built and is compressed as the policy asks. The
# version has no Debian revision (these are native packages), so it is changelog.gz.
string(TIMESTAMP PERFZERO_DEB_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(PERFZERO_DEB_REVISION "${PERFZERO_GIT_REVISION}")
if(NOT PERFZERO_DEB_REVISION)
  set(PERFZERO_DEB_REVISION unknown)
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/debian/changelog.in ${PROJECT_BINARY_DIR}/debian/changelog @ONLY)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/debian/changelog.gz
                   COMMAND sh -c "gzip -9n -c changelog > changelog.gz"
                   WORKING_DIRECTORY ${PROJECT_BINARY_DIR}/debian
                   DEPENDS ${PROJECT_BINARY_DIR}/debian/changelog VERBATIM)
add_custom_target(perfzero_deb_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/debian/changelog.gz)

function(perfzero_deb_package_name component out)
  if(component STREQUAL "runtime")
    set(${out} perfzero PARENT_SCOPE)
  elseif(component STREQUAL "development")
    set(${out} perfzero-dev PARENT_SCOPE)
  else()
    string(REPLACE "worker_" "perfzero-" name ${component})
    set(${out} ${name} PARENT_SCOPE)
  endif()
endfunction()

foreach(component ${perfzero_deb_components})
  perfzero_deb_package_name(${component} package)
  string(TOUPPER ${component} upper)
  set(CPACK_DEBIAN_${upper}_PACKAGE_NAME ${package})
  set(CPACK_DEBIAN_${upper}_FILE_NAME DEB-DEFAULT)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/debian/copyright ${PROJECT_BINARY_DIR}/debian/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component})
  if(NOT component MATCHES "^(runtime|python3-perfzero)$")
    # A worker is run by perfzero, and perfzero-dev's workers are too: both need the same version.
    set(CPACK_DEBIAN_${upper}_PACKAGE_DEPENDS "perfzero (= ${PROJECT_VERSION})")
  endif()
endforeach()
# The CMake package's find_dependency() calls (cmake/perfzeroConfig.cmake.in).
string(APPEND CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS ", nlohmann-json3-dev (>= 3.10), libfmt-dev (>= 9)")
# Debian descriptions: a synopsis, then lines of at most 80 characters.
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "benchmark harness with PerfZero-compatible reports
perfzero runs benchmark methods, built in or any external command, each in
its own child process; it measures the whole process tree, records the
machine and writes PerfZero-compatible reports, run summaries, price reports
and comparisons.")
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION "benchmark harness: headers and libraries for out-of-tree workers
The public headers, the static API library and the CMake package
(find_package(perfzero)) to build a team's own perfzero-worker-<name>.")
# Pure Python: one package for every architecture, needing only an interpreter (frameworks are the
# user's: a benchmark that lacks one is skipped, docs/python.md).
set(CPACK_DEBIAN_PYTHON3-PERFZERO_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_PYTHON3-PERFZERO_PACKAGE_DEPENDS "python3 (>= 3.8)")
set(CPACK_DEBIAN_PYTHON3-PERFZERO_PACKAGE_SECTION python)
set(CPACK_DEBIAN_PYTHON3-PERFZERO_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/debian/python3-perfzero/prerm)
set(CPACK_DEBIAN_PYTHON3-PERFZERO_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PYTHON3-PERFZERO_DESCRIPTION "benchmark harness: the perfzero Python package
perfzero.report, perfzero.Benchmark (tf.test.Benchmark's report_benchmark),
perfzero.measure and the runner that perfzero starts for Python benchmark
classes, in /usr/share/perfzero/python; Debian's python3 imports it.")
foreach(component ${perfzero_worker_components})
  string(REPLACE "worker_" "" name ${component})
  string(TOUPPER ${component} upper)
  set(CPACK_DEBIAN_${upper}_DESCRIPTION "benchmark harness: the ${name} benchmark family
perfzero-worker-${name}, which perfzero finds in /usr/libexec/perfzero and
runs for the ${name}.* methods.")
endforeach()
# perfzero-launch and perfzero-rank are static on purpose (harness/CMakeLists.txt): lintian's
# statically-linked-binary is overridden for them, and docs/packages.md says why.
install(FILES ${CMAKE_CURRENT_LIST_DIR}/debian/perfzero.lintian-overrides
        DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME perfzero COMPONENT runtime)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME perfzero)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "perfzero-cpp")
# Empty: each package's synopsis is the first line of its CPACK_DEBIAN_<COMPONENT>_DESCRIPTION.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
set(CPACK_PACKAGE_CONTACT "perfzero-cpp maintainers <perfzero-cpp@lists.perfzero.dev>")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/perfzero-cpp/perfzero-cpp")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL ${perfzero_deb_components})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# A cross build packages for its target (docker/build-arm64.sh --debs), not for the build machine.
if(CMAKE_CROSSCOMPILING AND CMAKE_SYSTEM_PROCESSOR STREQUAL "aarch64")
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
endif()
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
# The CUDA worker's libraries (cudart, cuBLAS, cuDNN, NCCL) come from NVIDIA's toolkit, which no
# Debian package describes, so dpkg-shlibdeps cannot name them: perfzero-cuda depends on perfzero
# alone, and docs/packages.md says how to install NVIDIA's runtime packages beside it.
set(CPACK_DEBIAN_WORKER_CUDA_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_WORKER_CUDA_PACKAGE_DEPENDS "perfzero (= ${PROJECT_VERSION}), libc6 (>= 2.34), libgcc-s1 (>= 3.0), libstdc++6 (>= 12)")
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
include(CPack)
