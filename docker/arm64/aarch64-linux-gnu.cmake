# Cross-compiling for linux/arm64 on x86 Debian with crossbuild-essential-arm64 and the arm64 -dev
# packages installed through multiarch (docker/arm64/cross.Dockerfile; docker/build-arm64.sh).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Multiarch: the arm64 libraries and their CMake packages live under /usr/lib/aarch64-linux-gnu.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# pkg-config too (libpqxx, libaio): Debian's cross wrapper reads the arm64 .pc files. Without it the
# native pkg-config finds none, and the configure fails (it did once the history's libpqxx came).
find_program(PKG_CONFIG_EXECUTABLE aarch64-linux-gnu-pkg-config REQUIRED)
# Test discovery and ctest run the arm64 binaries through qemu (binfmt_misc makes this optional).
find_program(PERFZERO_QEMU_AARCH64 qemu-aarch64-static)
if(PERFZERO_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${PERFZERO_QEMU_AARCH64})
endif()
