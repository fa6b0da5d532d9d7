# ccache, when installed, keeps rebuilds (CI reruns, several worktrees) cheap; PERFZERO_USE_CCACHE=OFF skips it.
option(PERFZERO_USE_CCACHE "Compile through ccache when it is installed" ON)
find_program(PERFZERO_CCACHE ccache)
if(PERFZERO_USE_CCACHE AND PERFZERO_CCACHE)
  set(CMAKE_C_COMPILER_LAUNCHER ${PERFZERO_CCACHE})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${PERFZERO_CCACHE})
endif()

# Compiler flags shared by every perfzero target, collected in one interface target.
add_library(perfzero_compile_options INTERFACE)
add_library(perfzero::compile_options ALIAS perfzero_compile_options)
# CUDA sources (the CUDA worker) get nvcc's own warnings and -Wall for their host code: -Wpedantic
# and -Wconversion flag nvcc's generated host stubs, not our code.
set(perfzero_host_language $<COMPILE_LANGUAGE:C,CXX>)
target_compile_options(perfzero_compile_options INTERFACE
  $<${perfzero_host_language}:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall>)
if(PERFZERO_WARNINGS_AS_ERRORS)
  target_compile_options(perfzero_compile_options INTERFACE $<${perfzero_host_language}:-Werror>
                                                            $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>)
endif()
if(PERFZERO_SANITIZE)
  target_compile_options(perfzero_compile_options INTERFACE -fsanitize=${PERFZERO_SANITIZE}
                                                            -fno-omit-frame-pointer -fno-sanitize-recover=all
                                                            # GCC 12 warns inside libstdc++ (regex, function)
                                                            # under -fsanitize; not our code.
                                                            $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>)
  target_link_options(perfzero_compile_options INTERFACE -fsanitize=${PERFZERO_SANITIZE})
endif()
