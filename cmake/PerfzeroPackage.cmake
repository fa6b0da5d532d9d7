# Installs perfzero::api (the public headers and their library) and perfzero::worker_main with a
# CMake package, so a team can build its own perfzero-worker-<name> out of tree
# (docs/examples/out_of_tree_worker/). Binaries are the `runtime` component; this is `development`.
include(CMakePackageConfigHelpers)

# With the components they link (static libraries: their users link those too).
install(TARGETS perfzero_api perfzero_worker_main perfzero_common perfzero_sysinfo perfzero_nvml EXPORT perfzeroTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(DIRECTORY harness/include/perfzero DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development)
set(PERFZERO_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/perfzero)
install(EXPORT perfzeroTargets NAMESPACE perfzero:: DESTINATION ${PERFZERO_CMAKE_DIR} COMPONENT development)
configure_package_config_file(cmake/perfzeroConfig.cmake.in ${PROJECT_BINARY_DIR}/perfzeroConfig.cmake
                              INSTALL_DESTINATION ${PERFZERO_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/perfzeroConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/perfzeroConfig.cmake ${PROJECT_BINARY_DIR}/perfzeroConfigVersion.cmake
        DESTINATION ${PERFZERO_CMAKE_DIR} COMPONENT development)
