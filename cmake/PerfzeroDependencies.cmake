# Every dependency comes from a Debian 12 package; scripts/install-deps.sh installs them.
find_package(Threads REQUIRED)
# Boost.Process v2 (launching children) ships with Boost 1.81; it needs Boost.Filesystem for paths.
find_package(Boost 1.81 REQUIRED COMPONENTS filesystem CONFIG)
find_package(yaml-cpp REQUIRED)        # YAML suites, with line/column marks for error messages
find_package(nlohmann_json 3.10 REQUIRED) # reports and the child result protocol
find_package(fmt 9 REQUIRED)           # formatting (g++ 12 has no <format>)
find_package(CLI11 2 REQUIRED)         # the command line
find_package(SQLite3 REQUIRED)         # the results history's default database (docs/history.md)
find_package(ZLIB REQUIRED)            # the results history keeps each run's trials compressed
find_package(CURL REQUIRED)            # HTTP to an MLflow tracking server (--report=+mlflow, perfzero export mlflow)
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
# Stock CMake 3.25 (Debian 12's) FindCUDAToolkit sets a property on CUDA::nvToolsExt without checking
# that the target exists, and CUDA 13 ships no libnvToolsExt: configuring then fails. An empty target
# of that name (nothing uses it) avoids that; CMake 3.26 checks for itself.
if(CMAKE_VERSION VERSION_LESS 3.26 AND NOT TARGET CUDA::nvToolsExt)
  add_library(CUDA::nvToolsExt INTERFACE IMPORTED)
endif()
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
# cuDNN ships inside this machine's toolkit tree (and in NVIDIA's cudnn packages under /usr).
find_path(PERFZERO_CUDNN_INCLUDE_DIR cudnn.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
find_library(PERFZERO_CUDNN_LIBRARY cudnn HINTS ${CUDAToolkit_LIBRARY_DIR})
if(CUDAToolkit_FOUND AND CUDAToolkit_NVCC_EXECUTABLE AND PERFZERO_CUDNN_INCLUDE_DIR AND PERFZERO_CUDNN_LIBRARY)
  set(PERFZERO_FOUND_CUDA TRUE)
endif()
perfzero_optional_dependency(PERFZERO_WITH_CUDA PERFZERO_FOUND_CUDA
                             "perfzero-worker-cuda: needs the CUDA toolkit (nvcc, cuBLAS) and cuDNN")
if(PERFZERO_WITH_CUDA)
  # One binary for every GPU clouds rent: machine code for Turing (sm_75: T4), Ampere (sm_80: A100;
  # sm_86: A10, A40), Ada (sm_89: L4, L40S) and Hopper (sm_90: H100, H200), plus sm_90 PTX that the
  # driver compiles for newer GPUs. sm_75 is the oldest nvcc 13 targets (CUDA 13 dropped Volta, sm_70:
  # `nvcc --list-gpu-arch` starts at compute_75). sm_86 code also runs on sm_87/88.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 75-real 80-real 86-real 89-real 90-real 90-virtual)
  endif()
  set(CMAKE_CUDA_COMPILER ${CUDAToolkit_NVCC_EXECUTABLE})
  if(PERFZERO_USE_CCACHE AND PERFZERO_CCACHE)
    set(CMAKE_CUDA_COMPILER_LAUNCHER ${PERFZERO_CCACHE})
  endif()
  enable_language(CUDA)
  # CMake 3.25 predates nvcc's C++20 support and knows no flag for it (the targets' C++20 then fails
  # to generate): tell it.
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION -std=c++20)
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION -std=c++20)
  if(NOT "cuda_std_20" IN_LIST CMAKE_CUDA_COMPILE_FEATURES)
    list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
    set(CMAKE_CUDA20_COMPILE_FEATURES cuda_std_20)
  endif()
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  # Imported targets (fmt, nlohmann-json) name /usr/include; nvcc given it as -isystem breaks
  # libstdc++'s #include_next <math.h>. It is the host compiler's own directory anyway.
  list(APPEND CMAKE_CUDA_IMPLICIT_INCLUDE_DIRECTORIES /usr/include)
endif()
# The nccl family joins the CUDA worker where NCCL is found (the CUDA toolkit here ships it; NVIDIA's
# libnccl-dev elsewhere). Without it the worker is built without the family, and `perfzero list`
# does not show it.
if(PERFZERO_WITH_CUDA)
  find_path(PERFZERO_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
  find_library(PERFZERO_NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR})
  if(PERFZERO_NCCL_INCLUDE_DIR AND PERFZERO_NCCL_LIBRARY)
    set(PERFZERO_FOUND_NCCL TRUE)
  endif()
endif()
perfzero_optional_dependency(PERFZERO_WITH_NCCL PERFZERO_FOUND_NCCL
                             "the nccl family in perfzero-worker-cuda: needs the CUDA worker and NCCL (nccl.h, libnccl)")
# The OpenCL worker links the ICD loader (devices are found at run time) and CLBlast.
if(OpenCL_FOUND AND CLBlast_FOUND)
  set(PERFZERO_FOUND_OPENCL TRUE)
endif()
perfzero_optional_dependency(PERFZERO_WITH_OPENCL PERFZERO_FOUND_OPENCL
                             "perfzero-worker-opencl: needs the OpenCL ICD loader and headers (ocl-icd-opencl-dev) and CLBlast (libclblast-dev)")
# The MPI worker links Open MPI (or any MPI CMake finds); its methods run under launch: mpirun.
find_package(MPI COMPONENTS CXX QUIET)
if(MPI_CXX_FOUND)
  set(PERFZERO_FOUND_MPI TRUE)
endif()
perfzero_optional_dependency(PERFZERO_WITH_MPI PERFZERO_FOUND_MPI
                             "perfzero-worker-mpi: needs an MPI library and headers (libopenmpi-dev)")
# The storage worker keeps I/Os in flight with Linux native AIO (libaio-dev): io_uring is refused by
# Docker's default seccomp profile, where the images must measure too.
find_path(PERFZERO_LIBAIO_INCLUDE_DIR libaio.h)
find_library(PERFZERO_LIBAIO_LIBRARY aio)
if(PERFZERO_LIBAIO_INCLUDE_DIR AND PERFZERO_LIBAIO_LIBRARY)
  set(PERFZERO_FOUND_STORAGE TRUE)
endif()
perfzero_optional_dependency(PERFZERO_WITH_STORAGE PERFZERO_FOUND_STORAGE
                             "perfzero-worker-storage: needs libaio (libaio-dev)")
message(STATUS "perfzero workers: core; onednn ${PERFZERO_WITH_ONEDNN}; cuda ${PERFZERO_WITH_CUDA}; "
               "nccl ${PERFZERO_WITH_NCCL}; opencl ${PERFZERO_WITH_OPENCL}; mpi ${PERFZERO_WITH_MPI}; storage ${PERFZERO_WITH_STORAGE}")
